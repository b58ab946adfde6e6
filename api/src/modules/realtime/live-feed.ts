import { talksToPbx, type LiveCall, type MonitorEvent } from '@tongdai/contracts';
import type { CallEvent, CallStart, CallTracker, LegEnded } from '../cdr/call-tracker';
import { toPbxCallEvent, type Audience, type CallEventHub, type RealtimeEvent } from './call-event-hub';
import { liveExpiry, type LiveEntry } from './live-state';

const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))];
const monitor = (at: number) => ({ kind: 'tongdai.monitor' as const, version: 1 as const, at });

/**
 * The internal listener's side of the live state (ADR 0026): each change the tracker, the media
 * worker (a caller entering a queue) or Kamailio (a REGISTER) reports is written to the live
 * store and then published on the tenant's channel with its audience (who may receive it).
 * Child legs (the media worker ringing agents for a queue or an IVR choice) fold into the call
 * the caller placed: the wall shows one call, with its path IVR → queue → agent.
 */
export class LiveFeed {
  private readonly entries = new Map<string, LiveEntry & { tenantId: number }>();

  constructor(
    private readonly tracker: CallTracker,
    private readonly hub: CallEventHub,
    private readonly now: () => number = Date.now,
    /** Resolves once the ended call's record is written (the "ended" event waits for it). */
    private readonly recorded: () => Promise<void> = () => Promise.resolve(),
  ) {
    tracker.events.on('call', (e: CallEvent) => this.onCall(e));
    tracker.events.on('leg-ended', (e: LegEnded) => this.onLegEnded(e));
  }

  /** The call a leg belongs to: the one the caller placed. */
  private rootOf(callId: string): string {
    let id = callId;
    for (let parent = this.tracker.get(id)?.parentCallId; parent && this.tracker.get(parent); parent = this.tracker.get(parent)?.parentCallId) id = parent;
    return id;
  }

  private put(entry: LiveEntry & { tenantId: number }): void {
    entry.expires_at = liveExpiry(entry, this.now());
    this.entries.set(entry.call_id, entry);
    const { tenantId, ...stored } = entry;
    this.hub.live.putCall(tenantId, stored).catch(() => undefined);
  }

  private publish(tenantId: number, event: RealtimeEvent, audience: Audience): void {
    this.hub.publish(tenantId, event, audience);
  }

  private fresh(call: CallStart, at: number): LiveEntry & { tenantId: number } {
    const entry: LiveCall = {
      call_id: call.callId,
      direction: call.plan.direction,
      caller: call.caller,
      callee: call.callee,
      did: call.plan.did ?? null,
      route: [],
      state: 'ringing',
      queue_id: null,
      ringing: [],
      extension: null,
      caller_extension: call.callerExtension,
      started_at: call.startedAt.getTime() || at,
      queued_at: null,
      answered_at: null,
    };
    return { ...entry, tenantId: call.tenantId, involved: uniq([call.callerExtension]), queue_agents: [], expires_at: 0 };
  }

  /** The path so far with the configured names (the tracker adds each leg's route to its parent's). */
  private routeOf(callId: string): LiveCall['route'] {
    return (this.tracker.get(callId)?.plan.route ?? []).map((n) => ({ type: n.type, id: n.id, name: n.name }));
  }

  private onCall(e: CallEvent): void {
    // An answer at its own time (a call taken over after a restart was answered before it), else now.
    const at = e.type === 'answered' && e.at !== undefined ? Math.min(e.at, this.now()) : this.now();
    const event = toPbxCallEvent(e, at);
    const rootId = this.rootOf(e.callId);
    let entry = this.entries.get(rootId);
    if (e.type === 'ringing') {
      const root = this.tracker.get(rootId);
      if (!entry && root) entry = this.fresh(root, at);
      if (entry) {
        entry.ringing = e.extensions;
        entry.involved = uniq([...entry.involved, ...e.extensions]);
        entry.route = this.routeOf(rootId);
        this.put(entry);
      }
      return this.publish(e.tenantId, event, { extensions: uniq([...e.extensions, ...(rootId === e.callId ? (entry?.involved ?? []) : [])]) });
    }
    if (e.type === 'answered') {
      // The media worker answering (a greeting, an IVR, a queue's music) is no one talking yet:
      // the call stays ringing or queued until an extension answers.
      if (entry && !e.extension) {
        // Talking from this answer: the party a forward step rang (a mobile out through a carrier, a
        // call forwarded outside), or the PBX itself for an agent's own call to it (a supervisor's
        // code, a mailbox).
        if (e.outside || (entry.state === 'ringing' && entry.caller_extension && talksToPbx(entry.callee))) {
          Object.assign(entry, { state: 'talking', answered_at: at, ringing: [], route: this.routeOf(rootId) });
          this.put(entry);
        }
        return this.publish(e.tenantId, event, { extensions: entry.involved });
      }
      if (entry) {
        Object.assign(entry, { state: 'talking', extension: e.extension, answered_at: at, ringing: [], route: this.routeOf(rootId) });
        entry.involved = uniq([...entry.involved, e.extension]);
        this.put(entry);
      }
      return this.publish(e.tenantId, event, { extensions: entry?.involved ?? uniq([e.extension]) });
    }
    this.entries.delete(rootId);
    this.hub.live.removeCall(e.tenantId, rootId).catch(() => undefined);
    // A call refused at once never rang: its caller (an extension dialling) still hears the end.
    const audience = { extensions: uniq([...(entry?.involved ?? []), e.extension, e.callerExtension]), queueAgents: entry?.queue_agents };
    void this.recorded().then(() => this.publish(e.tenantId, event, audience));
  }

  private onLegEnded(e: LegEnded): void {
    // A leg whose parent this process does not follow rang and was answered on the wall as a call of
    // its own (a voice-OTP call: its parent is the verification, "otp-<id>", no call): it leaves the
    // wall as a call ends, though it leaves no record. Left there, it stayed "talking" for good (the
    // tracker sends no "ended" for a leg, and nothing else removes a live call but its 12 h expiry).
    if (this.entries.has(e.callId)) {
      return this.onCall({ type: 'ended', tenantId: e.tenantId, callId: e.callId, disposition: e.disposition, extension: e.extension, callerExtension: null });
    }
    const entry = this.entries.get(this.rootOf(e.parentCallId));
    if (!entry || entry.answered_at || !entry.ringing.length) return;
    entry.ringing = [];
    this.put(entry);
  }

  /** The media worker took the call into a queue (its session for the queue step): it waits from now. */
  queued(callId: string, queueId: number, agents: string[]): void {
    const at = this.now();
    const rootId = this.rootOf(callId);
    const root = this.tracker.get(rootId);
    const entry = this.entries.get(rootId) ?? (root ? this.fresh(root, at) : null);
    if (!entry) return;
    // Back in the same queue (the media worker asks again after a round of agents): still waiting since then.
    const again = entry.state === 'queued' && entry.queue_id === queueId;
    Object.assign(entry, { state: 'queued', queue_id: queueId, queued_at: again ? entry.queued_at : at, ringing: [], queue_agents: agents, route: this.routeOf(rootId) });
    this.put(entry);
    if (again) return;
    const event: MonitorEvent = { ...monitor(at), type: 'queued', callId: rootId, queueId, caller: entry.caller };
    this.publish(entry.tenantId, event, { extensions: entry.involved, queueAgents: agents });
  }

  /**
   * A registration began or ended (the registration store said so, ADR 0038: a REGISTER, an
   * unregister, or a lapse its sweep found); the store already holds the new state.
   */
  registration(tenantId: number, extension: string, registered: boolean): void {
    const event: MonitorEvent = { ...monitor(this.now()), type: 'registration', extension, registered };
    this.publish(tenantId, event, { extensions: [extension] });
  }
}
