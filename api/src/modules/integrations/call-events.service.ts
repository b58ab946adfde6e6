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
 * The events this process has seen committed, per call ("<tenant>:<call>"): a call's next journal writes
 * (each change of the call: ringing, answered, held, transferred...) build and look up nothing for the events
 * already written, and once every event is written a batch of such calls costs no query at all (issue 39:
 * the listening keys, the customer and the agent were looked up again at every write). An event counts as
 * written once its transaction committed, whether a key heard it or none listened then (a key made during a
 * call hears that call's later events). A restarted process remembers nothing: the table's unique
 * (key, call, event) keeps what an earlier one wrote. A call goes when its end is written.
 */
const written = new Map<string, Set<CallWebhookEventType>>();
/** Past this many calls the memory starts again (calls never ended, e.g. lost with their Kamailio): the table still keeps doubles out. */
const WRITTEN_MAX = 50_000;
const callKey = (c: { tenantId: number; callId: string }) => `${c.tenantId}:${c.callId}`;

/** The events a call's change has that this process has not seen written. */
function dueEvents(c: CallFacts): CallWebhookEventType[] {
  const types: CallWebhookEventType[] = ['call.ringing'];
  if (c.answered) types.push('call.answered');
  if (c.ended) types.push('call.ended');
  const had = written.get(callKey(c));
  return had ? types.filter((t) => !had.has(t)) : types;
}

/** After a commit: these events are written (or no key heard them); an ended call is forgotten. */
function remember(batch: Array<{ c: CallFacts; types: CallWebhookEventType[] }>): void {
  if (written.size > WRITTEN_MAX) written.clear();
  for (const { c, types } of batch) {
    const key = callKey(c);
    if (types.includes('call.ended')) {
      written.delete(key);
      continue;
    }
    const had = written.get(key);
    if (had) for (const t of types) had.add(t);
    else written.set(key, new Set(types));
  }
}

/** What one write of the call plane did: rows inserted, and the events to remember once it commits. */
interface EventsWrite {
  inserted: number;
  considered: Array<{ c: CallFacts; types: CallWebhookEventType[] }>;
}

/**
 * Writes the deliveries of these calls' events for every key of their tenants that listens
 * (`calls.events`, a URL, not revoked), in `tx`, leaving out the events this process saw written. Internal
 * calls (between extensions) are no CRM's business and are left out. One query when no tenant of the batch
 * listens, none when no call has a new event.
 */
export async function writeCallEvents(tx: Queryable, calls: CallFacts[]): Promise<EventsWrite> {
  const considered = calls.filter((c) => c.direction !== 'internal').map((c) => ({ c, types: dueEvents(c) })).filter((d) => d.types.length);
  if (!considered.length) return { inserted: 0, considered };
  const keys = await repo.listeningKeys(tx, [...new Set(considered.map(({ c }) => c.tenantId))]);
  if (!keys.length) return { inserted: 0, considered };
  const rows: repo.NewDelivery[] = [];
  for (const { c, types } of considered) {
    const listening = keys.filter((k) => k.tenant_id === c.tenantId);
    if (!listening.length) continue;
    const bodies = await eventsOf(tx, c, types);
    for (const k of listening) for (const b of bodies) rows.push({ tenant_id: c.tenantId, key_id: k.id, call_id: c.callId, event: b.type, body: JSON.stringify(b), at: b.at });
  }
  return { inserted: await repo.insertDeliveries(tx, rows), considered };
}

async function eventsOf(tx: Queryable, c: CallFacts, types: CallWebhookEventType[]): Promise<CallWebhookEvent[]> {
  const direction = c.direction as 'inbound' | 'outbound';
  const customer: CallWebhookCustomer | null = await repo.customerOf(tx, c.tenantId, phoneVariants(direction === 'inbound' ? c.caller : c.callee));
  const withAgent = types.includes('call.answered') || types.includes('call.ended');
  const agent: CallWebhookAgent | null = withAgent && c.answered?.extension ? await repo.agentOf(tx, c.tenantId, c.answered.extension) : null;
  const base = (type: CallWebhookEventType, at: Date): CallWebhookEvent => ({
    type, event_id: `${c.callId}:${type}`, call_id: c.callId, at: at.toISOString(), direction, caller: c.caller, callee: c.callee, hotline: c.hotline, customer,
  });
  const events: CallWebhookEvent[] = [];
  if (types.includes('call.ringing')) events.push(base('call.ringing', c.startedAt));
  if (c.answered && types.includes('call.answered')) events.push({ ...base('call.answered', c.answered.at), agent });
  if (c.ended && types.includes('call.ended')) {
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

/**
 * One of the call plane's hooks: the deliveries written in its transaction; after the commit, what it
 * wrote is remembered and the sender woken if a row went in. (A rolled-back write remembers nothing: the
 * next write of its calls tries again.) Each writer (the journal, the records) calls write, then committed
 * after a commit, one write at a time.
 */
function hook<T>(facts: (items: T[]) => CallFacts[]) {
  let last: EventsWrite = { inserted: 0, considered: [] };
  return {
    write: async (tx: Queryable, items: T[]) => {
      last = { inserted: 0, considered: [] };
      last = await writeCallEvents(tx, facts(items));
      return last.inserted > 0 || last.considered.length > 0;
    },
    committed: () => {
      remember(last.considered);
      if (last.inserted > 0) callEventsDue.wake();
      last = { inserted: 0, considered: [] };
    },
  };
}

/** The call plane's hooks (sip/call-routing.ts): deliveries written in its transactions, the sender woken after them. */
export const callEventWrites = {
  journal: hook((calls: ActiveCall[]) => calls.map(factsOfCall).filter((f): f is CallFacts => !!f)),
  records: hook((rows: CdrRow[]) => rows.map(factsOfRecord)),
};
