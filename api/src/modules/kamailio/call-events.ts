import * as v from 'valibot';
import type { CallTracker } from '../cdr/call-tracker';
import type { CdrRow } from '../cdr/cdr';
import type { UnplannedCall } from './unplanned-calls';

/** Kamailio sends numbers as strings (dialog variables), '' when unset. */
export const intOrNull = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d*$/))]))),
  v.transform((x): number | null => (x === undefined || x === null || x === '' ? null : Number(x))),
);
const CallEvent = v.object({
  event: v.picklist(['start', 'answer', 'end', 'failed', 'trunk', 'media_down']),
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  ext: v.optional(v.nullable(v.string()), null),
  step: intOrNull,
  code: intOrNull,
  /** event trunk: the switchboard the call now uses (relayed to it, or accepted from it). */
  sb: intOrNull,
  /** The event's id in Kamailio's outbox (acknowledged once applied durably, ADR 0046). */
  id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,12}\.\d{1,12}$/))),
  /** event failed of a call no API planned (refused with 503): its source and what its record needs. */
  unplanned: v.optional(v.picklist(['trunk', 'ext', 'media'])),
  from: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
  from_domain: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
  to: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
  src: v.optional(v.pipe(v.string(), v.maxLength(64)), ''),
  /** event media_down: the dispatcher's URI of the media worker that stopped answering ("sip:host:port;…"). */
  dst: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
  /** event failed: 'media' when the call failed for want of a media server (none up, or the one tried died). */
  cause: v.optional(v.pipe(v.string(), v.maxLength(32)), ''),
  /** event start: the call as the API followed it when it planned it (the plan's "j"). */
  state: v.optional(v.pipe(v.string(), v.maxLength(262_144))),
  /** When it happened, Kamailio's "sec.usec" (a replayed event keeps its own time). */
  at: v.optional(v.pipe(v.string(), v.regex(/^\d{9,11}(\.\d{1,6})?$/))),
});

/** Channels in use per switchboard (trunks module): a call takes one while it uses a trunk. */
export interface ChannelCounter {
  on(callId: string, tenantId: number, switchboardId: number): void;
  off(callId: string): void;
}

/**
 * Kamailio's dialogs in progress (route[DIALOGS_SYNC]: the JSON-RPC answer of dlg.briefing "c",
 * every few seconds): each one's Call-ID. No result and no error: none in progress.
 */
const DialogsSnapshot = v.object({
  jsonrpc: v.literal('2.0'),
  /** route[DIALOGS_SYNC] asks with id 1 (the location table's answer, id 2, is not a list of dialogs). */
  id: v.optional(v.literal(1)),
  result: v.optional(v.union([v.array(v.looseObject({ 'call-id': v.optional(v.string()) })), v.looseObject({ 'call-id': v.optional(v.string()) })])),
  error: v.optional(v.unknown()),
});

/**
 * Kamailio's location table (route[REGISTRATIONS_SYNC]: the JSON-RPC answer of ul.dump, id 2): each
 * AoR ("101@demo.tongdai.local") with its contacts; a contact's Expires is the seconds it has left, or
 * a word ("expired", "deleted", "permanent") for one that counts as none here.
 */
const LocationSnapshot = v.object({
  jsonrpc: v.literal('2.0'),
  id: v.literal(2),
  result: v.looseObject({
    Domains: v.array(v.looseObject({
      Domain: v.looseObject({
        AoRs: v.optional(v.array(v.looseObject({
          Info: v.looseObject({
            AoR: v.string(),
            Contacts: v.optional(v.array(v.looseObject({
              Contact: v.looseObject({ Expires: v.optional(v.unknown()), 'User-Agent': v.optional(v.unknown()) }),
            }))),
          }),
        }))),
      }),
    })),
  }),
});

/** A registration Kamailio holds: the AoR's user and domain, seconds left (its latest contact), its phone's User-Agent. */
export interface HeldRegistration { user: string; domain: string; expires: number; ua?: string }

/** The registrations of a location-table answer (null: not one). */
export function heldRegistrations(raw: unknown): HeldRegistration[] | null {
  const snap = v.safeParse(LocationSnapshot, raw);
  if (!snap.success) return null;
  const held: HeldRegistration[] = [];
  for (const { Domain } of snap.output.result.Domains) {
    for (const { Info } of Domain.AoRs ?? []) {
      const at = Info.AoR.lastIndexOf('@');
      if (at < 1) continue;
      let best: { expires: number; ua?: string } | null = null;
      for (const { Contact } of Info.Contacts ?? []) {
        const expires = typeof Contact.Expires === 'number' ? Contact.Expires : Number.NaN;
        if (!(expires > 0) || (best && best.expires >= expires)) continue;
        best = { expires, ua: typeof Contact['User-Agent'] === 'string' && Contact['User-Agent'] ? Contact['User-Agent'] : undefined };
      }
      if (best) held.push({ user: Info.AoR.slice(0, at), domain: Info.AoR.slice(at + 1).toLowerCase(), ...best });
    }
  }
  return held;
}

/** An event's own time (Kamailio's "sec.usec"), else now; never in the future. */
function eventTime(at: string | undefined, now = Date.now()): Date {
  const ms = at ? Math.round(Number(at) * 1000) : NaN;
  return new Date(Number.isFinite(ms) && ms <= now ? ms : now);
}

/**
 * One event of Kamailio's dialog module (answer / end / failure, over evapi) applied to the
 * tracker, at the event's own time. Applying it twice changes nothing (the tracker ignores a second
 * answer or end; a record is written once per Call-ID). Returns, for an event Kamailio keeps until
 * acknowledged (it has an id), a promise that resolves once what it changed is durable.
 */
export function applyKamailioEvent(
  tracker: CallTracker,
  raw: unknown,
  channels?: ChannelCounter,
  /** The record of a call Kamailio refused because no API planned it (null: no tenant's). */
  unplanned?: (call: UnplannedCall) => Promise<CdrRow | null>,
  /** Asks Kamailio to end these calls' dialogs (BYE to both sides). */
  endCalls?: (callIds: string[]) => void,
  /** Who Kamailio has registered (its location table, when the API connects or asks). */
  registrations?: (held: HeldRegistration[]) => Promise<void>,
): Promise<void> | void {
  const held = heldRegistrations(raw);
  if (held) return registrations?.(held);
  const snapshot = v.safeParse(DialogsSnapshot, raw);
  if (snapshot.success) {
    if (snapshot.output.error !== undefined) return;
    const r = snapshot.output.result;
    const alive = new Set((Array.isArray(r) ? r : r ? [r] : []).map((d) => d['call-id']).filter((id): id is string => !!id));
    for (const callId of tracker.reconcile(alive)) channels?.off(callId);
    return;
  }
  const e = v.safeParse(CallEvent, raw);
  if (!e.success) return;
  const { event, call_id: callId, ext, step, code, sb, id, at, state } = e.output;
  const when = eventTime(at);
  const u = e.output;
  if (event === 'failed' && unplanned && (u.unplanned === 'trunk' || u.unplanned === 'ext') && !tracker.get(callId)) {
    const call: UnplannedCall = { callId, source: u.unplanned, from: u.from, fromDomain: u.from_domain, to: u.to, src: u.src, at: when };
    return unplanned(call).then((row) => {
      if (row) tracker.recordUnplanned(row);
      return tracker.durable();
    });
  }
  if (event === 'media_down') {
    // "sip:127.0.0.1:5070;transport=udp" → "127.0.0.1:5070", as the worker names itself.
    const worker = /^sips?:([^;>]+)/.exec(u.dst)?.[1];
    const lost = worker ? tracker.workerLost(worker, when) : [];
    for (const callId of lost) channels?.off(callId);
    if (lost.length) endCalls?.(lost);
    return id ? tracker.durable() : undefined;
  }
  // A call this process follows already (it planned it, or its journal had it): nothing to do.
  if (event === 'start') {
    if (state && !tracker.get(callId)) tracker.adopt(state);
  } else if (event === 'trunk') {
    const call = tracker.get(callId);
    if (call && sb) {
      channels?.on(callId, call.tenantId, sb);
      tracker.onSwitchboard(callId, sb);
    }
  } else {
    if (event !== 'answer') channels?.off(callId);
    if (event === 'answer') tracker.answered(callId, ext && /^[0-9]{2,6}$/.test(ext) ? ext : null, step ?? null, when);
    else if (event === 'end') tracker.ended(callId, when);
    else tracker.failed(callId, code || 487, step ?? null, when, u.cause === 'media' ? 'media' : undefined);
  }
  if (id) return tracker.durable();
}
