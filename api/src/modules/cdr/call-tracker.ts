import { EventEmitter } from 'node:events';
import { nationalForm } from '@tongdai/contracts';
import type { RoutingPlan } from '../routing';
import { failureDisposition, rejectDisposition, seconds, type CdrRow, type Disposition } from './cdr';
import { MEDIA_UNAVAILABLE, type KamailioPlan } from '../kamailio/kamailio-plan';

/** A call Kamailio asked a plan for. */
export interface CallStart {
  callId: string;
  tenantId: number;
  /** The tenant's code (its SIP domain, its configuration). */
  maDn?: string;
  caller: string;
  callee: string;
  /** The calling extension (internal and outbound calls). */
  callerExtension: string | null;
  plan: RoutingPlan;
  kamailio: KamailioPlan;
  startedAt: Date;
  /**
   * A leg the media worker placed to move this call on (after an IVR choice, from a queue): it
   * leaves no record of its own; who answers it answers the parent call.
   */
  parentCallId?: string;
  /** The media worker ("host:port") that took one of its media steps, as the worker told when it asked for the step. */
  worker?: string;
}

/** A live call a supervisor may join (ADR 0042): the Call-ID its worker knows it by, the agent's leg there, the worker. */
export interface SpyTarget {
  callId: string;
  leg: 'a' | 'b';
  worker: string;
}

export interface ActiveCall extends CallStart {
  answeredAt: Date | null;
  answeredBy: string | null;
  /** Index of the Kamailio step that was answered. */
  answeredStep: number | null;
  /** answeredBy came from a child leg (the child counts the extension busy, not the parent). */
  answeredByChild?: boolean;
  /** The queue whose agents the answered step rang (the agent's queue statistics). */
  answeredQueueId?: number;
  /** A person outside the PBX answered (a forward step through a carrier, here or in a leg). */
  answeredOutside?: boolean;
  /** The call (or a leg placed for it) was answered by a mailbox: the PBX took a message. */
  reachedVoicemail?: boolean;
  /** What the caller met last without a person: a media step's kind, or 'missed' (a leg rang extensions, none answered). */
  lastReached?: string;
  /** The carrier step a leg placed for this call went out on (a recorded call out): its hotline and trunk are the call's. */
  via?: KamailioPlan['steps'][number];
  /** The switchboard whose channel the call holds (Kamailio's "trunk" event). */
  switchboard?: number;
  /** When this process took the call over from the journal (a restart): the reconcile's grace counts from then. */
  restoredAt?: Date;
  /** Post-call CSAT (issue 34): the score its caller gave, kept with the call until its record is written. */
  csat?: number;
  /**
   * When the person a leg placed for this call answered hung up, while its caller stays with the worker (a
   * queue's post-call CSAT question): the talk time ends there, not when the caller leaves. Cleared when a
   * leg is answered again (a later person talks from then).
   */
  talkEndedAt?: Date;
}

/** A call's state as JSON gave it back (the journal, Kamailio's outbox) made whole again: its times are dates. */
export function reviveCall(c: ActiveCall): ActiveCall {
  return { ...c, startedAt: new Date(c.startedAt), answeredAt: c.answeredAt ? new Date(c.answeredAt) : null, talkEndedAt: c.talkEndedAt ? new Date(c.talkEndedAt) : undefined, restoredAt: undefined };
}

/**
 * Where the tracker keeps its calls beyond its memory (ADR 0046; call-routing.ts wires the
 * calls_in_progress journal and the record writer in): an API that restarts finds them again.
 */
export interface CallDurability {
  /** The call's state changed (started, answered, a leg's outcome): keep it. */
  save(call: ActiveCall): void;
  /** The call's record went to the sink: resolves once the record is written and the call's state gone. */
  finished(call: ActiveCall): Promise<void>;
  /** Resolves once every state saved so far is written. */
  saved(): Promise<void>;
  /** Resolves once every record handed to the sink so far is written. */
  recorded(): Promise<void>;
}

/**
 * A queue's agent took a call (`ended` null) or a call they took ended: what the queue strategies
 * remember (tracker.events 'queue-agent'; sip/queue-stats.ts keeps it in PostgreSQL).
 */
export interface QueueAgentEvent {
  tenantId: number;
  queueId: number;
  extension: string;
  answeredAt: Date;
  endedAt: Date | null;
}

/** What the real-time channel carries (the softphones' bus, the monitoring screen). */
export type CallEvent =
  | { type: 'ringing'; tenantId: number; callId: string; caller: string; callee: string; extensions: string[] }
  /** `outside`: a forward step was answered, by a party outside the PBX (a mobile through a carrier). */
  /** `at`: when it was answered (ms; Kamailio's time, or the journal's for a call taken over after a restart). */
  | { type: 'answered'; tenantId: number; callId: string; extension: string | null; outside?: true; at?: number }
  | { type: 'ended'; tenantId: number; callId: string; disposition: Disposition; extension: string | null; callerExtension?: string | null };

/**
 * A leg ended (tracker.events 'leg-ended'): it leaves no record and no 'ended' on the channel. How it
 * ended, for the live state to end it where it shows it as a call of its own (live-feed.ts).
 */
export interface LegEnded {
  tenantId: number;
  callId: string;
  parentCallId: string;
  disposition: Disposition;
  extension: string | null;
}

/** How a call ended, for its record; `reason` when the end itself says why (else the plan's step does). */
interface CallEnd {
  endedAt: Date;
  disposition: Disposition;
  sipCode: number | null;
  step: number | null;
  reason?: string;
}

const MEDIA_LOST_REASON = 'Máy chủ phát âm thanh ngừng hoạt động giữa cuộc gọi (lỗi hệ thống)';
const MEDIA_REASON = 'Không có máy chủ phát âm thanh (lời chào, IVR, nhạc chờ, hộp thư thoại) nào sẵn sàng';
const UNANSWERED_MAX_MS = 10 * 60_000;
const ANSWERED_MAX_MS = 12 * 3_600_000;

/**
 * Calls in progress, per Call-ID: the plan they follow (so failover stays on the plan the call
 * started with), who is in a call (the engine's "busy"), and the call record once they end.
 */
export class CallTracker {
  readonly events = new EventEmitter();
  private readonly calls = new Map<string, ActiveCall>();
  private readonly busyCount = new Map<number, Map<string, number>>();
  private readonly recent = new Map<string, { extension: string; at: Date }>();

  /**
   * @param reconcileGraceMs how young a call Kamailio's dialogs snapshot may lack and stay (its plan
   *   may still be on its way to Kamailio); default 10 s.
   */
  private readonly finishing = new Set<Promise<void>>();

  constructor(
    private readonly sink: (row: CdrRow) => void,
    private readonly reconcileGraceMs = 10_000,
    private readonly durability?: CallDurability,
  ) {}

  /**
   * Resolves once everything applied so far is durable: records written, states saved (the moment
   * Kamailio's event may be acknowledged, ADR 0046). At once without a journal.
   */
  async durable(): Promise<void> {
    if (!this.durability) return;
    await Promise.all([...this.finishing, this.durability.saved()]);
  }

  /**
   * The calls an earlier process was following (the journal, oldest first, parents before their
   * legs): live again here, busy extensions and the live state's rows included, as if they had
   * started in this process; Kamailio's unacknowledged events then bring what happened since.
   */
  restore(calls: ActiveCall[], now = new Date()): void {
    for (const call of calls) {
      if (this.calls.has(call.callId)) continue;
      call.restoredAt = now;
      this.calls.set(call.callId, call);
      if (call.callerExtension) this.markBusy(call.tenantId, call.callerExtension, 1);
      if (call.answeredBy && !call.answeredByChild) this.markBusy(call.tenantId, call.answeredBy, 1);
      if (call.parentCallId) continue;
      const first = call.kamailio.steps[0];
      this.emit({ type: 'ringing', tenantId: call.tenantId, callId: call.callId, caller: call.caller, callee: call.callee, extensions: first?.do === 'ring' ? first.targets : [] });
      // At its real answer time: the wall's talk time goes on from there, not from the restart.
      if (call.answeredAt) this.emit({ type: 'answered', tenantId: call.tenantId, callId: call.callId, extension: call.answeredBy, at: call.answeredAt.getTime(), ...(call.answeredOutside && !call.answeredBy && { outside: true as const }) });
    }
  }

  /**
   * A call's state as the journal keeps it (JSON), for Kamailio to hold in its outbox beside the
   * call's events ("start", ADR 0046): undefined for a call this tracker does not follow.
   */
  snapshot(callId: string): string | undefined {
    const call = this.calls.get(callId);
    return call && JSON.stringify(call);
  }

  /**
   * Kamailio's replayed "start" of a call this process does not follow (its predecessor died before
   * its journal had it): followed from here on, and journaled. A call already followed is left as it is.
   */
  adopt(state: string, now = new Date()): void {
    let call: ActiveCall;
    try {
      call = reviveCall(JSON.parse(state) as ActiveCall);
    } catch {
      return;
    }
    if (typeof call.callId !== 'string' || this.calls.has(call.callId)) return;
    this.restore([call], now);
    this.durability?.save(call);
  }

  /**
   * The record of a call no process followed (Kamailio refused it while no API planned it, ADR
   * 0046), written once like any other; `durable()` waits for it.
   */
  recordUnplanned(row: CdrRow): void {
    if (this.calls.has(row.call_id)) return;
    this.sink(row);
    if (this.durability) {
      const done = this.durability.recorded().finally(() => this.finishing.delete(done));
      this.finishing.add(done);
    }
  }

  /** A call now holds a channel of this switchboard (kept with the call, so a restart counts it again). */
  onSwitchboard(callId: string, switchboard: number): void {
    const call = this.calls.get(callId);
    if (!call || call.switchboard === switchboard) return;
    call.switchboard = switchboard;
    this.durability?.save(call);
  }

  /**
   * Post-call CSAT (issue 34): the caller of `callId` (a call, not a leg) rated it. The caller is
   * usually still on the line (the worker asks once the agent hangs up), so the score goes with the
   * call's record when it is written. 'applied' the first time; 'already_rated' for a repeat;
   * 'not_answered' when no person answered it; null when the call is not followed here (ended: its
   * record is written or on its way, see rateRecordedCall).
   */
  rate(callId: string, score: number): 'applied' | 'already_rated' | 'not_answered' | null {
    const call = this.calls.get(callId);
    if (!call || call.parentCallId) return null;
    if (call.csat !== undefined) return 'already_rated';
    if (!call.answeredBy && !call.answeredOutside) return 'not_answered';
    call.csat = score;
    this.durability?.save(call);
    return 'applied';
  }

  /** The calls held now (the channel counts a restart rebuilds). */
  liveCalls(): readonly ActiveCall[] {
    return [...this.calls.values()];
  }

  get(callId: string): CallStart | undefined {
    return this.calls.get(callId);
  }

  /** The call a leg was placed for, through any number of legs (the call itself when it is no leg). */
  rootOf(callId: string): string {
    let id = callId;
    for (let i = 0; i < 8; i++) {
      const parent = this.calls.get(id)?.parentCallId;
      if (!parent) break;
      id = parent;
    }
    return id;
  }

  activeCount(): number {
    return this.calls.size;
  }

  /** Extensions in a call now (calling, or answered). */
  busy(tenantId: number): Set<string> {
    return new Set(this.busyCount.get(tenantId)?.keys());
  }

  /** The agent who last answered one of these caller numbers in this process (records not yet written). */
  recentAgent(tenantId: number, callerForms: string[]): { extension: string; at: Date } | null {
    const hits = callerForms.map((n) => this.recent.get(`${tenantId}:${n}`)).filter((x) => !!x);
    return hits.sort((a, b) => b.at.getTime() - a.at.getTime())[0] ?? null;
  }

  /** The worker running a media step of this call (the first one to ask keeps it: it holds the caller). */
  servedBy(callId: string, worker: string): void {
    const call = this.calls.get(callId);
    if (call && !call.worker) {
      call.worker = worker;
      this.durability?.save(call);
    }
  }

  /**
   * The answered call of `extension` that a media worker stands in (ADR 0042), or null: a leg the
   * worker placed and the extension answered (a queue's agent, the callee of a recorded call), or
   * a call the extension made that the worker took and bridged (its recorded call out). A direct
   * call between phones has no worker in its path: nobody can join it.
   */
  spyTarget(tenantId: number, extension: string): SpyTarget | null {
    for (const c of this.calls.values()) {
      if (c.tenantId !== tenantId || !c.answeredAt) continue;
      if (c.parentCallId && c.answeredBy === extension) {
        const worker = this.calls.get(c.parentCallId)?.worker;
        if (worker) return { callId: c.callId, leg: 'b', worker };
      }
      if (!c.parentCallId && c.worker && c.callerExtension === extension && c.answeredBy && c.answeredByChild) return { callId: c.callId, leg: 'a', worker: c.worker };
    }
    return null;
  }

  start(call: CallStart): void {
    const first = call.kamailio.steps[0];
    const active: ActiveCall = { ...call, answeredAt: null, answeredBy: null, answeredStep: null };
    if (first.do === 'reject') {
      const step = call.plan.steps[first.from_step];
      const engineReject = step?.kind === 'reject' ? step : null;
      this.write(active, { endedAt: call.startedAt, disposition: engineReject ? rejectDisposition(engineReject.reason) : 'FAILED', sipCode: first.code, step: 0 });
      return;
    }
    this.calls.set(call.callId, active);
    const parent = call.parentCallId ? this.calls.get(call.parentCallId) : undefined;
    if (parent) parent.plan = { ...parent.plan, route: [...parent.plan.route, ...call.plan.route] };
    if (parent && !parent.via) parent.via = call.kamailio.steps.find((k) => k.do === 'forward');
    this.durability?.save(active);
    if (parent) this.durability?.save(parent);
    if (call.callerExtension) this.markBusy(call.tenantId, call.callerExtension, 1);
    const ring = first.do === 'ring' ? first.targets : [];
    this.emit({ type: 'ringing', tenantId: call.tenantId, callId: call.callId, caller: call.caller, callee: call.callee, extensions: ring });
  }

  answered(callId: string, extension: string | null, step: number | null, at = new Date()): void {
    const call = this.calls.get(callId);
    if (!call || call.answeredAt) return;
    call.answeredAt = at;
    call.answeredBy = extension;
    call.answeredStep = step;
    if (extension) {
      this.markBusy(call.tenantId, extension, 1);
      this.recent.set(`${call.tenantId}:${call.caller}`, { extension, at });
      const queueId = this.queueOf(call, step);
      if (queueId !== null) {
        call.answeredQueueId = queueId;
        this.events.emit('queue-agent', { tenantId: call.tenantId, queueId, extension, answeredAt: at, endedAt: null } satisfies QueueAgentEvent);
      }
    }
    const outside = step !== null && call.kamailio.steps[step]?.do === 'forward';
    const parent = call.parentCallId ? this.calls.get(call.parentCallId) : undefined;
    const media = this.mediaKindOf(call, step);
    // A person answered a leg: the caller talks again (whatever an earlier leg's end said).
    if (parent && (extension || outside)) parent.talkEndedAt = undefined;
    if (parent && outside) parent.via = call.kamailio.steps[step!];
    // The caller's answer by a person is what the record's answer time is (wait, service level,
    // talk time): a queue's caller answered by the worker at once waits until an agent takes it.
    if (parent && (extension || outside) && !parent.answeredBy && !parent.answeredOutside) parent.answeredAt = at;
    for (const c of [call, parent]) {
      if (!c) continue;
      if (outside) c.answeredOutside = true;
      if (media === 'voicemail') c.reachedVoicemail = true;
      // A bridge is a person's answer; so is a supervisor's joining a live call (a spy step).
      if (media && media !== 'bridge' && media !== 'spy') c.lastReached = media;
    }
    this.durability?.save(call);
    if (parent) this.durability?.save(parent);
    if (parent && extension && !parent.answeredBy) {
      parent.answeredBy = extension;
      parent.answeredByChild = true;
      this.emit({ type: 'answered', tenantId: parent.tenantId, callId: parent.callId, extension, at: at.getTime() });
    }
    // A leg the worker forwarded outside (an IVR choice, a queue's timeout to a mobile): the caller talks from now.
    if (parent && !extension && outside && !parent.answeredBy) this.emit({ type: 'answered', tenantId: parent.tenantId, callId: parent.callId, extension: null, outside, at: at.getTime() });
    if (!parent) this.emit({ type: 'answered', tenantId: call.tenantId, callId, extension, at: at.getTime(), ...(outside && { outside }) });
  }

  /** BYE (or the dialog timed out) after an answer. */
  ended(callId: string, at = new Date()): void {
    const call = this.calls.get(callId);
    if (!call) return;
    if (!call.answeredAt) return this.failed(callId, 487, null, at);
    this.finish(call, { endedAt: at, disposition: answeredDisposition(call), sipCode: 200, step: call.answeredStep });
  }

  /**
   * The call ended unanswered; `code` is the final status the caller got, `step` the Kamailio step it
   * ended on. `cause` 'media': its last step needed a media server and none could take it (none up,
   * or the one tried did not answer): a failure of the system, not a call nobody answered (issue 41).
   */
  failed(callId: string, code: number, step: number | null, at = new Date(), cause?: 'media'): void {
    const call = this.calls.get(callId);
    if (!call) return;
    if (call.answeredAt) return this.ended(callId, at);
    if (cause === 'media') return this.finish(call, { endedAt: at, disposition: 'FAILED', sipCode: code, step, reason: MEDIA_REASON });
    this.finish(call, { endedAt: at, disposition: failureDisposition(code), sipCode: code, step });
  }

  /**
   * The media worker `worker` ("host:port") stopped answering (Kamailio's dispatcher took it out):
   * the calls it held — those it took, and the legs it placed for them — end now, at the fault, as
   * FAILED with the reason; the time after it, dead air, is nobody's talk (issue 41). Returns their
   * Call-IDs, legs first, for Kamailio to end their dialogs.
   */
  workerLost(worker: string, at = new Date()): string[] {
    const held = new Set([...this.calls.values()].filter((c) => !c.parentCallId && c.worker === worker).map((c) => c.callId));
    const legs = [...this.calls.values()].filter((c) => c.parentCallId && held.has(this.rootOf(c.callId)));
    for (const leg of legs) this.finish(leg, { endedAt: at, disposition: 'FAILED', sipCode: null, step: null });
    for (const callId of held) {
      const call = this.calls.get(callId)!;
      this.finish(call, { endedAt: at, disposition: 'FAILED', sipCode: null, step: call.answeredStep, reason: MEDIA_LOST_REASON });
    }
    return [...legs.map((c) => c.callId), ...held];
  }

  /**
   * Kamailio's dialogs in progress (its snapshot every few seconds, issue 30): a call it no longer
   * has ended without its end reaching us (refused before it had a dialog, an event lost), so it
   * leaves the live state, the busy set and the channel counts now. A call younger than `graceMs`
   * is kept: Kamailio may still be fetching its plan. Returns the Call-IDs dropped.
   */
  reconcile(alive: ReadonlySet<string>, now = Date.now(), graceMs = this.reconcileGraceMs): string[] {
    const gone: string[] = [];
    for (const call of [...this.calls.values()]) {
      const since = Math.max(call.startedAt.getTime(), call.restoredAt?.getTime() ?? 0);
      if (alive.has(call.callId) || now - since < graceMs || !this.calls.has(call.callId)) continue;
      gone.push(call.callId);
      if (call.answeredAt) this.ended(call.callId, new Date(now));
      else this.finish(call, { endedAt: new Date(now), disposition: 'FAILED', sipCode: null, step: null });
    }
    return gone;
  }

  /** Ends calls whose end Kamailio never reported (it restarted, an event was lost). */
  sweep(now = Date.now()): void {
    for (const call of [...this.calls.values()]) {
      const age = now - call.startedAt.getTime();
      if (call.answeredAt && age > ANSWERED_MAX_MS) this.ended(call.callId, new Date(now));
      else if (!call.answeredAt && age > UNANSWERED_MAX_MS) this.finish(call, { endedAt: new Date(now), disposition: 'FAILED', sipCode: null, step: null });
    }
    if (this.recent.size > 100_000) this.recent.clear();
  }

  private finish(call: ActiveCall, end: CallEnd): void {
    this.calls.delete(call.callId);
    // A leg that rang extensions and ended unanswered: what its caller met last was a miss.
    const parent = call.parentCallId ? this.calls.get(call.parentCallId) : undefined;
    if (parent && !call.answeredAt && call.kamailio.steps.some((k) => k.do === 'ring')) {
      parent.lastReached = 'missed';
      this.durability?.save(parent);
    }
    // The person a leg reached hung up while the caller stays on (rating the call): the talk ended now.
    if (parent && call.answeredAt && (call.answeredBy || call.answeredOutside)) {
      parent.talkEndedAt = end.endedAt;
      this.durability?.save(parent);
    }
    if (this.durability) {
      const done = this.durability.finished(call).finally(() => this.finishing.delete(done));
      this.finishing.add(done);
    }
    if (call.callerExtension) this.markBusy(call.tenantId, call.callerExtension, -1);
    if (call.answeredBy && !call.answeredByChild) this.markBusy(call.tenantId, call.answeredBy, -1);
    if (call.answeredBy && call.answeredAt && call.answeredQueueId !== undefined) {
      const e: QueueAgentEvent = { tenantId: call.tenantId, queueId: call.answeredQueueId, extension: call.answeredBy, answeredAt: call.answeredAt, endedAt: end.endedAt };
      this.events.emit('queue-agent', e);
    }
    // A leg placed for a parent leaves no record and no event on the channel; the live state hears it.
    if (call.parentCallId) {
      const e: LegEnded = { tenantId: call.tenantId, callId: call.callId, parentCallId: call.parentCallId, disposition: end.disposition, extension: call.answeredBy };
      return void this.events.emit('leg-ended', e);
    }
    this.write(call, end);
  }

  private write(call: ActiveCall, end: CallEnd): void {
    const kstep = end.step !== null ? call.kamailio.steps[end.step] : undefined;
    const answeredStep = call.answeredStep !== null ? call.kamailio.steps[call.answeredStep] : undefined;
    const source = answeredStep ? call.plan.steps[answeredStep.from_step]?.source : undefined;
    const firstOf = (type: string) => call.plan.route.find((n) => n.type === type);
    const group = source?.type === 'group' ? source : firstOf('group');
    const queue = source?.type === 'queue' ? source : firstOf('queue');
    // The carrier step it went out on: the one answered, the one a leg placed for it took, else its first.
    const forward = [answeredStep, call.via, ...call.kamailio.steps].find((s) => s?.do === 'forward');
    this.sink({
      tenant_id: call.tenantId,
      call_id: call.callId,
      caller: call.caller,
      callee: call.callee,
      // A call out names the hotline it presented to the carrier (the rule's caller id), as a call in names its DID:
      // in national form, whatever form that carrier is sent (0…, 84…, +84…).
      did: call.plan.did ?? (forward?.do === 'forward' && forward.from ? nationalForm(forward.from) : null),
      direction: call.plan.direction,
      route: call.plan.route,
      ring_group_id: group ? Number(group.id) : null,
      queue_id: queue ? Number(queue.id) : null,
      // Who answered; a call no person answered is the one extension it rang (a direct call missed,
      // or taken by that extension's mailbox), so the per-extension figures and the extension's own
      // history count it (issues 13, 30); a call the PBX's menus alone answered is nobody's.
      extension: call.answeredBy ?? (end.disposition === 'ANSWERED' || end.disposition === 'AUTO' || call.plan.direction === 'outbound' ? null : rangOnly(call.plan)),
      trunk: forward?.do === 'forward' ? forward.trunk : null,
      started_at: call.startedAt,
      answered_at: call.answeredAt,
      ended_at: end.endedAt,
      duration: seconds(call.startedAt, end.endedAt),
      // Talk time: from a person's answer to their hang-up (a queue's CSAT question after it is not talk).
      billsec: call.answeredAt ? seconds(call.answeredAt, call.talkEndedAt && call.talkEndedAt < end.endedAt ? call.talkEndedAt : end.endedAt) : 0,
      disposition: end.disposition,
      sip_code: end.sipCode,
      reason: end.reason ?? this.reasonOf(call, kstep, end.sipCode),
      // Only a call a person answered is rated (its agent is `extension`).
      csat: end.disposition === 'ANSWERED' ? (call.csat ?? null) : null,
    });
    this.emit({ type: 'ended', tenantId: call.tenantId, callId: call.callId, disposition: end.disposition, extension: call.answeredBy, callerExtension: call.callerExtension });
  }

  /** The plan step kind behind a media step of the call (ivr, play, queue, voicemail, bridge…), else null. */
  private mediaKindOf(call: ActiveCall, step: number | null): string | null {
    const k = step !== null ? call.kamailio.steps[step] : undefined;
    return k?.do === 'media' ? (call.plan.steps[k.from_step]?.kind ?? null) : null;
  }

  /** The queue a Kamailio step rang agents for (a queue's agents ring in a leg the media worker placed). */
  private queueOf(call: ActiveCall, step: number | null): number | null {
    const k = step !== null ? call.kamailio.steps[step] : undefined;
    const source = k ? call.plan.steps[k.from_step]?.source : undefined;
    return source?.type === 'queue' ? Number(source.id) : null;
  }

  /** Why an unanswered call ended, in Vietnamese, when the plan said so (a refusal, media not available). */
  private reasonOf(call: ActiveCall, kstep: KamailioPlan['steps'][number] | undefined, code: number | null): string {
    if (kstep?.do === 'media') return code === MEDIA_UNAVAILABLE.code ? MEDIA_REASON : '';
    if (kstep?.do !== 'reject') return '';
    const step = call.plan.steps[kstep.from_step];
    if (step?.kind === 'reject') return step.message;
    if (step?.kind === 'forward') return step.trunk ? `Trunk "${step.trunk}" chưa được cấu hình` : 'Tuyến gọi ra chưa có tổng đài (trunk) nào đang bật';
    return '';
  }

  private markBusy(tenantId: number, ext: string, delta: number): void {
    const perTenant = this.busyCount.get(tenantId) ?? new Map<string, number>();
    const n = (perTenant.get(ext) ?? 0) + delta;
    if (n > 0) perTenant.set(ext, n);
    else perTenant.delete(ext);
    this.busyCount.set(tenantId, perTenant);
  }

  private emit(e: CallEvent): void {
    this.events.emit('call', e);
  }
}

/**
 * What an answered call was (ADR 0045), decided once for every screen: ANSWERED when a person took
 * it (an extension, or someone outside through a carrier); VOICEMAIL when a mailbox took it; NO
 * ANSWER when the caller gave up waiting in a queue, or a menu's choice rang and nobody answered;
 * AUTO when only the PBX's menus answered (an IVR left, an announcement, the mailbox menu).
 */
export function answeredDisposition(call: Pick<ActiveCall, 'answeredBy' | 'answeredOutside' | 'reachedVoicemail' | 'lastReached'>): Disposition {
  if (call.answeredBy || call.answeredOutside) return 'ANSWERED';
  if (call.reachedVoicemail) return 'VOICEMAIL';
  if (call.lastReached === 'queue' || call.lastReached === 'missed') return 'NO ANSWER';
  // A call answered at a ring step by a phone Kamailio could not name (no extension): a person.
  return call.lastReached ? 'AUTO' : 'ANSWERED';
}

/**
 * The one extension a plan rings, or null: none, or several (a ring group, a hunt; a queue's agents
 * ring in legs of their own and the call stays the queue's).
 */
export function rangOnly(plan: RoutingPlan): string | null {
  let only: string | null = null;
  for (const s of plan.steps) {
    if (s.kind !== 'ring') continue;
    for (const t of s.targets) {
      if (only !== null && only !== t.extension) return null;
      only = t.extension;
    }
  }
  return only;
}
