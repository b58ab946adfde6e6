import * as v from 'valibot';
import type { CallTracker } from '../cdr/call-tracker';

/** Kamailio sends numbers as strings (dialog variables), '' when unset. */
export const intOrNull = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d*$/))]))),
  v.transform((x): number | null => (x === undefined || x === null || x === '' ? null : Number(x))),
);
const CallEvent = v.object({
  event: v.picklist(['answer', 'end', 'failed', 'trunk']),
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  ext: v.optional(v.nullable(v.string()), null),
  step: intOrNull,
  code: intOrNull,
  /** event trunk: the switchboard the call now uses (relayed to it, or accepted from it). */
  sb: intOrNull,
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
  result: v.optional(v.union([v.array(v.looseObject({ 'call-id': v.optional(v.string()) })), v.looseObject({ 'call-id': v.optional(v.string()) })])),
  error: v.optional(v.unknown()),
});

/** One event of Kamailio's dialog module (answer / end / failure, over evapi) applied to the tracker. */
export function applyKamailioEvent(tracker: CallTracker, raw: unknown, channels?: ChannelCounter): void {
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
  const { event, call_id: callId, ext, step, code, sb } = e.output;
  if (event === 'trunk') {
    const call = tracker.get(callId);
    if (call && sb) channels?.on(callId, call.tenantId, sb);
    return;
  }
  if (event !== 'answer') channels?.off(callId);
  if (event === 'answer') tracker.answered(callId, ext && /^[0-9]{2,6}$/.test(ext) ? ext : null, step ?? null);
  else if (event === 'end') tracker.ended(callId);
  else tracker.failed(callId, code || 487, step ?? null);
}
