import { significantNumber, storedForm, type CampaignKind, type Decree91Decision, type DncSource } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { decree91, refuse, type Consent } from './decree91';
import { claimAdvertisingCall, importDncNumbers, insertConsent, readNumberFacts } from './decree91.repository';

/**
 * Decree 91 where a campaign call is placed (ADR 0049). Every function runs in the caller's tenant
 * transaction (db.withTenant), so a contact hand-out and its check commit or roll back together.
 */

/** A Vietnamese number written 0…, 84… or +84… in its stored form (84…); null for anything else. */
export const canonicalNumber = (n: string): string | null => (significantNumber(n) === null ? null : storedForm(n));

export interface CallAttempt {
  kind: CampaignKind;
  /** The contact's number, as written. */
  number: string;
  /** The caller-ID hotline, as written. */
  hotline: string;
  /** The server clock when the call is placed. */
  at: Date;
  campaignId: number | null;
  callId: string | null;
}

/**
 * The policy on the number's facts and, for an allowed advertising call, the atomic claim of its
 * rolling 24-hour slot: a claim lost to a concurrent call (another agent, another API instance) is
 * refused as the cap, exactly as if that call had been committed first.
 */
export async function checkAndClaim(tx: Queryable, tenantId: number, a: CallAttempt): Promise<Decree91Decision> {
  const number = canonicalNumber(a.number);
  if (number === null) return refuse('invalid_number');
  const facts = await readNumberFacts(tx, tenantId, number, storedForm(a.hotline));
  const decision = decree91({ kind: a.kind, at: a.at, ...facts });
  if (!decision.allowed || a.kind !== 'advertising') return decision;
  const won = await claimAdvertisingCall(tx, tenantId, number, a.at, a.campaignId, a.callId, decision.capLifted);
  return won ? decision : refuse('rolling_cap');
}

/** Adds a file's numbers to a DNC list: the Vietnamese ones in their stored form; the others are returned, not imported. */
export async function importDnc(tx: Queryable, tenantId: number, source: DncSource, raw: readonly string[], note = ''): Promise<{ added: number; invalid: string[] }> {
  const numbers: string[] = [];
  const invalid: string[] = [];
  for (const n of raw) {
    const c = canonicalNumber(n);
    if (c === null) invalid.push(n);
    else numbers.push(c);
  }
  return { added: await importDncNumbers(tx, tenantId, source, numbers, note), invalid };
}

/** Records a subscriber's consent (number as written); false when the number is not Vietnamese. */
export async function recordConsent(tx: Queryable, tenantId: number, number: string, c: Consent & { source: string; note?: string }): Promise<boolean> {
  const stored = canonicalNumber(number);
  if (stored === null) return false;
  await insertConsent(tx, tenantId, stored, c);
  return true;
}
