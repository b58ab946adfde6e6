import type { DncSource } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import type { Consent, DncEntry } from './decree91';

/** SQL of Decree 91 (migration 0045). Runs inside withTenant; numbers are in the stored form (84…). */

export interface NumberFacts {
  dnc: DncEntry[];
  consent: Consent | null;
  lastAdvertisingCallAt: Date | null;
  /** The caller-ID hotline (stored form) is registered for advertising; false when it is not the tenant's. */
  advertisingIdentity: boolean;
}

interface Raw {
  dnc: { source: DncSource; created_at: string }[];
  consent: (Omit<Consent, 'agreed_at'> & { agreed_at: string }) | null;
  last_called_at: unknown;
  advertising_identity: boolean;
}

const at = (d: unknown): Date => new Date(iso(d));

/**
 * Everything the policy needs about one number, in one round trip: its DNC entries (primary-key
 * probes), the consent in force (the latest agreed), the tenant's last advertising call to it, and
 * whether the hotline is registered as an advertising identity.
 */
export async function readNumberFacts(tx: Queryable, tenantId: number, number: string, hotline: string): Promise<NumberFacts> {
  const { rows } = await tx.query<Raw>(
    `select
       coalesce((select json_agg(json_build_object('source', d.source, 'created_at', d.created_at)) from dnc_numbers d
                  where d.tenant_id = $1 and d.number = $2), '[]'::json) as dnc,
       (select json_build_object('agreed_at', c.agreed_at, 'lifts_window', c.lifts_window, 'lifts_cap', c.lifts_cap, 'overrides_dnc', c.overrides_dnc)
          from contact_consents c where c.tenant_id = $1 and c.number = $2 order by c.agreed_at desc, c.id desc limit 1) as consent,
       (select l.last_called_at from advertising_last_calls l where l.tenant_id = $1 and l.number = $2) as last_called_at,
       coalesce((select n.advertising_identity from pbx_numbers n where n.tenant_id = $1 and n.number = $3), false) as advertising_identity`,
    [tenantId, number, hotline],
  );
  const r = rows[0];
  return {
    dnc: r.dnc.map((e) => ({ source: e.source, created_at: at(e.created_at) })),
    consent: r.consent && { ...r.consent, agreed_at: at(r.consent.agreed_at) },
    lastAdvertisingCallAt: r.last_called_at == null ? null : at(r.last_called_at),
    advertisingIdentity: r.advertising_identity,
  };
}

/**
 * Takes the number's rolling 24-hour slot for an advertising call at `at`, atomically: ONE upsert
 * that writes only when the last call is at least 24 hours before `at` (or there is none), so of two
 * transactions racing for one number (two agents, two API instances) exactly one gets a row back —
 * the other waits on the row's lock, then re-reads the committed row and fails the condition.
 * `capLifted` (the subscriber agreed to more calls) records the call without the condition.
 */
export async function claimAdvertisingCall(
  tx: Queryable, tenantId: number, number: string, at: Date, campaignId: number | null, callId: string | null, capLifted = false,
): Promise<boolean> {
  const { rows } = await tx.query(
    `insert into advertising_last_calls as l (tenant_id, number, last_called_at, campaign_id, call_id) values ($1, $2, $3, $4, $5)
     on conflict (tenant_id, number) do update
       set last_called_at = greatest(l.last_called_at, excluded.last_called_at), campaign_id = excluded.campaign_id, call_id = excluded.call_id
       where $6::boolean or l.last_called_at <= excluded.last_called_at - interval '24 hours'
     returning l.last_called_at`,
    [tenantId, number, at, campaignId, callId, capLifted],
  );
  return rows.length === 1;
}

/** Rows per insert of an import: one array parameter per column, so no bind-parameter limit is near. */
export const DNC_IMPORT_BATCH = 10_000;

/**
 * Adds numbers (stored form, already checked) to a DNC list, batched multi-row inserts of
 * DNC_IMPORT_BATCH rows each; a number already on that list keeps its entry (and its date).
 * Returns how many were new.
 */
export async function importDncNumbers(tx: Queryable, tenantId: number, source: DncSource, numbers: readonly string[], note = ''): Promise<number> {
  let added = 0;
  for (let i = 0; i < numbers.length; i += DNC_IMPORT_BATCH) {
    const { rows } = await tx.query<{ n: number }>(
      `with added as (
         insert into dnc_numbers (tenant_id, number, source, note) select $1, unnest($2::text[]), $3, $4
         on conflict do nothing returning 1)
       select count(*)::int as n from added`,
      [tenantId, numbers.slice(i, i + DNC_IMPORT_BATCH), source, note],
    );
    added += rows[0].n;
  }
  return added;
}

/** Records what a subscriber agreed to; the latest agreement of a number is the one in force. */
export async function insertConsent(
  tx: Queryable, tenantId: number, number: string, c: Consent & { source: string; note?: string },
): Promise<void> {
  await tx.query(
    `insert into contact_consents (tenant_id, number, source, agreed_at, lifts_window, lifts_cap, overrides_dnc, note) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [tenantId, number, c.source, c.agreed_at, c.lifts_window, c.lifts_cap, c.overrides_dnc, c.note ?? ''],
  );
}
