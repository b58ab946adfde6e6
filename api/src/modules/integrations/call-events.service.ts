import { nationalForm, phoneVariants, type CallWebhookAgent, type CallWebhookCustomer, type CallWebhookEvent, type CallWebhookEventType } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import type { CdrRow } from '../cdr/cdr';
import type { ActiveCall } from '../cdr/call-tracker';
import { DueSignal } from '../../db/due-signal';
import * as repo from './call-events.repository';

/**
 * The CRM's call events (issue 39, ADR 0065). The call plane hands this module what a transaction of
 * its own is about to save — a call in progress (the journal, ADR 0046) or a finished call's record —
 * and the deliveries for the tenant's listening keys go in that same transaction: the call's change
 * and its notice commit together, so an API that dies loses neither. Each (key, call, event) is one
 * row: the journal and the record may both write an event, the first stays.
 */

/** What a call's change says, in the terms of the webhook. */
export interface CallFacts {
  tenantId: number;
  callId: string;
  direction: 'inbound' | 'outbound' | 'internal';
  caller: string;
  callee: string;
  hotline: string | null;
  startedAt: Date;
  /** A person answered (an extension, or someone outside through a carrier). */
  answered: { at: Date; extension: string | null } | null;
  ended: { at: Date; duration: number; talkTime: number; result: string } | null;
}

/** "A call event's delivery may be due": the sender's round waits on it; the call plane wakes it after its commit. */
export const callEventsDue = new DueSignal();

/**
 * Writes the deliveries of these calls' events for every key of their tenants that listens
 * (`calls.events`, a URL, not revoked), in `tx`; answers how many rows went in. Internal calls (between
 * extensions) are no CRM's business and are left out. One query when no tenant of the batch listens.
 */
export async function writeCallEvents(tx: Queryable, calls: CallFacts[]): Promise<number> {
  const outside = calls.filter((c) => c.direction !== 'internal');
  if (!outside.length) return 0;
  const keys = await repo.listeningKeys(tx, [...new Set(outside.map((c) => c.tenantId))]);
  if (!keys.length) return 0;
  const rows: repo.NewDelivery[] = [];
  for (const c of outside) {
    const listening = keys.filter((k) => k.tenant_id === c.tenantId);
    if (!listening.length) continue;
    const bodies = await eventsOf(tx, c);
    for (const k of listening) for (const b of bodies) rows.push({ tenant_id: c.tenantId, key_id: k.id, call_id: c.callId, event: b.type, body: JSON.stringify(b), at: b.at });
  }
  return repo.insertDeliveries(tx, rows);
}

async function eventsOf(tx: Queryable, c: CallFacts): Promise<CallWebhookEvent[]> {
  const direction = c.direction as 'inbound' | 'outbound';
  const customer: CallWebhookCustomer | null = await repo.customerOf(tx, c.tenantId, phoneVariants(direction === 'inbound' ? c.caller : c.callee));
  const agent: CallWebhookAgent | null = c.answered?.extension ? await repo.agentOf(tx, c.tenantId, c.answered.extension) : null;
  const base = (type: CallWebhookEventType, at: Date): CallWebhookEvent => ({
    type, event_id: `${c.callId}:${type}`, call_id: c.callId, at: at.toISOString(), direction, caller: c.caller, callee: c.callee, hotline: c.hotline, customer,
  });
  const events = [base('call.ringing', c.startedAt)];
  if (c.answered) events.push({ ...base('call.answered', c.answered.at), agent });
  if (c.ended) {
    events.push({
      ...base('call.ended', c.ended.at), agent, duration: c.ended.duration, talk_time: c.ended.talkTime, result: c.ended.result,
      // The link comes with its route (ADR 0065, not built yet): none rather than a link to nothing.
      recording_url: null,
    });
  }
  return events;
}

/** A call in progress as the journal saves it (a leg placed for a call is no call of the CRM's). */
export function factsOfCall(c: ActiveCall): CallFacts | null {
  if (c.parentCallId) return null;
  const person = c.answeredAt && (c.answeredBy || c.answeredOutside);
  // A call out names the hotline it presents to the carrier, as its record will (call-tracker write()).
  const forward = c.kamailio.steps.find((k) => k.do === 'forward');
  const hotline = c.plan.did ?? (forward?.do === 'forward' && forward.from ? nationalForm(forward.from) : null);
  return {
    tenantId: c.tenantId, callId: c.callId, direction: c.plan.direction, caller: c.caller, callee: c.callee, hotline, startedAt: c.startedAt,
    answered: person ? { at: c.answeredAt!, extension: c.answeredBy } : null, ended: null,
  };
}

/** A finished call's record: every event it had (the ones the journal wrote already stay as they are). */
export function factsOfRecord(r: CdrRow): CallFacts {
  return {
    tenantId: r.tenant_id, callId: r.call_id, direction: r.direction, caller: r.caller, callee: r.callee, hotline: r.did, startedAt: r.started_at,
    answered: r.answered_at && r.disposition === 'ANSWERED' ? { at: r.answered_at, extension: r.extension } : null,
    ended: { at: r.ended_at, duration: r.duration, talkTime: r.billsec, result: r.disposition },
  };
}

/** The call plane's hooks (sip/call-routing.ts): deliveries written in its transactions, the sender woken after them. */
export const callEventWrites = {
  journal: { write: async (tx: Queryable, calls: ActiveCall[]) => (await writeCallEvents(tx, calls.map(factsOfCall).filter((f) => !!f))) > 0, committed: () => callEventsDue.wake() },
  records: { write: async (tx: Queryable, rows: CdrRow[]) => (await writeCallEvents(tx, rows.map(factsOfRecord))) > 0, committed: () => callEventsDue.wake() },
};
