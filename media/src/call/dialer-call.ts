import { DIALER_CAMPAIGN_HEADER, type DialerBridge, type DialerJob, type DialerReport, type DialerReportAnswer } from '@tongdai/contracts';
import { DIALER_ABANDON_PROMPT } from '../audio/dialer-prompts';
import type { RecordingSpool } from '../audio/recording-spool';
import type { Remote } from '../sip/endpoint';
import type { SipRequest } from '../sip/message';
import { BridgeRecording, recordingInfo, recordingMark } from './bridge-recording';
import { PlacedLeg, placedKey, secondsSince, type LegEvents, type PlacedCallContext, type Unanswered, orderedReports } from './placed-leg';
import { sayMessage } from './steps/say-message';

export type { DialerJob };

/** A report as the call makes it; the worker adds the job's id, tenant and attempt. */
export type DialerCallReport = Omit<DialerReport, 'kind' | 'id' | 'tenant_id' | 'attempt'>;

/**
 * How long the contact who answered may wait on the API's `answered` answer (tries included) before
 * the call is abandoned as if nobody were there: they hear silence meanwhile.
 */
export const ANSWERED_REPORT_MS = 3000;

type Ending = 'abandoned' | 'completed' | Unanswered;

/** What a dialer call needs of the worker: a placed call's, and where its recording waits until the API has it (issue 41). */
export interface DialerCallContext extends PlacedCallContext {
  spool: RecordingSpool;
}

/**
 * A progressive dialer's call (issue 34, ADR 0055): leg A rings the contact through Kamailio like a
 * voice-OTP call; once the contact answers, the API is asked where to bridge them (`answered`, which
 * is awaited) and leg B rings that agent with the campaign header, the two legs' RTP bridged on
 * B's answer (`bridged`). Nobody to bridge to, or the agent not answering: the contact hears the
 * abandon message and is hung up on (`abandoned`). Reports go in order, each after the last is sent.
 * A bridge with a `record_ticket` (the agent's or the tenant's recording mode records outbound calls) is
 * recorded as a queue call is (ADR 0041): the agent's INVITE is marked X-Tongdai-Recording, the contact on
 * the left channel and the agent on the right from the bridge to the first hang-up, the agent's pause /
 * resume INFO obeyed (the contact's not), the file uploaded with the ticket under leg A's Call-ID.
 */
export class DialerCall {
  private readonly a: PlacedLeg;
  private b: PlacedLeg | null = null;
  private state: 'ringing' | 'asking' | 'agent' | 'bridged' | 'abandoning' | 'ended' = 'ringing';
  private answeredAt = 0;
  private readonly startedAt = Date.now();
  /** The API's ticket for this call's recording (DialerBridge.record_ticket); null: not recorded. */
  private ticket: string | null = null;
  /** The conversation's recording, from the bridge to the first hang-up. */
  private recording: BridgeRecording | null = null;
  /** Reports in order: each is sent once the one before it was answered (or given up). */
  private readonly send = orderedReports((r: DialerCallReport) => this.report(r), (what) => this.note(what));

  constructor(
    private readonly ctx: DialerCallContext,
    private readonly job: DialerJob,
    private readonly report: (r: DialerCallReport) => Promise<DialerReportAnswer | null>,
  ) {
    this.a = this.leg('A', { token: job.token, caller: job.caller, ringS: job.ring_s }, {
      answered: () => void this.onAnswerA(),
      unanswered: (outcome, status) => this.end(outcome, status),
      hungUp: () => this.onHangUp('A'),
    });
  }

  /** Leg A's "Call-ID our-tag" (leg B's is tracked as it is placed). */
  get key(): string {
    return this.a.key;
  }

  start(): Promise<void> {
    return this.a.start();
  }

  private leg(name: 'A' | 'B', o: { token: string; caller: string; ringS: number; headers?: [string, string][] }, events: LegEvents): PlacedLeg {
    return new PlacedLeg(this.ctx, this, { ...o, callIdHost: 'tongdai-media-dialer' }, events, (what) => this.note(`${name} ${what}`));
  }

  /** The contact answered: the API says where to bridge them (answered even if the API is away: then nobody). */
  private async onAnswerA(): Promise<void> {
    this.answeredAt = Date.now();
    this.state = 'asking';
    const answer = await this.send({ outcome: 'answered', call_id: this.a.callId });
    if (this.state !== 'asking') return;
    const bridge = answer?.bridge ?? null;
    if (!bridge) return this.abandon(answer ? 'no agent to bridge to' : 'the API did not answer');
    this.placeB(bridge);
  }

  private placeB(bridge: DialerBridge): void {
    this.state = 'agent';
    this.note(`agent leg to ${bridge.token} for ${bridge.ring_s} s`);
    this.ticket = bridge.record_ticket ?? null;
    // The agent may pause a recorded call (payment details): their softphone shows it and offers the button.
    const headers: [string, string][] = [[DIALER_CAMPAIGN_HEADER.toLowerCase(), bridge.campaign], ...(this.ticket ? [recordingMark()] : [])];
    this.b = this.leg('B', { token: bridge.token, caller: bridge.caller, ringS: bridge.ring_s, headers }, {
      answered: () => this.onAnswerB(),
      // Its status goes with the report: the agent did not take the call (the API pauses them).
      unanswered: (outcome, status) => this.abandon(`the agent's leg ended: ${outcome} (${status})`, status),
      hungUp: () => this.onHangUp('B'),
    });
    this.b.start().catch((e: unknown) => this.abandon(`the agent's leg could not be placed: ${e instanceof Error ? e.message : e}`));
  }

  private onAnswerB(): void {
    if (this.state !== 'agent') return this.b?.hangUp();
    this.state = 'bridged';
    // Both ways: each session forwards its peer's packets to the other's peer.
    this.a.rtp!.bridge(this.b!.rtp!);
    this.note('bridged');
    // Filed under leg A's Call-ID: the call's record, which the agent's leg joins (ADR 0055).
    if (this.ticket) this.recording = BridgeRecording.start(this.ctx.spool, { callId: this.a.callId, ticket: this.ticket, left: this.a.rtp!, right: this.b!.rtp! }, (m) => this.note(m));
    void this.send({ outcome: 'bridged' });
  }

  /** No agent for the contact: the message, then hang up. The contact hanging up first ends it too. */
  private abandon(why: string, agentStatus?: number): void {
    if (this.state === 'ended' || this.state === 'abandoning') return;
    this.note(`abandon: ${why}`);
    this.state = 'abandoning';
    this.b?.hangUp();
    sayMessage({ play: (s) => this.a.play(s), hangUp: () => this.a.hangUp() }, DIALER_ABANDON_PROMPT).then(
      (r) => this.note(`abandon message ${r === 'completed' ? 'said' : 'cut short by the contact'}`),
      (e: unknown) => this.note(`could not say the abandon message: ${e instanceof Error ? e.message : e}`),
    ).finally(() => this.end('abandoned', agentStatus));
  }

  /** A party's BYE: the other is hung up (or, the agent still ringing, cancelled). */
  private onHangUp(who: 'A' | 'B'): void {
    this.note(`${who === 'A' ? 'the contact' : 'the agent'} hung up`);
    if (this.state === 'abandoning') return; // the message's play ends with 'hangup' and ends the call
    this.end(this.state === 'bridged' ? 'completed' : 'abandoned');
  }

  /**
   * A request inside one of the call's dialogs. An INFO pausing or resuming the recording is answered
   * (never passed on) and obeyed from the agent's leg alone, the one marked X-Tongdai-Recording.
   */
  onRequest(req: SipRequest, from: Remote): void {
    const key = placedKey(req);
    const leg = this.b?.key === key ? this.b : this.a;
    leg.onRequest(req, from);
    const asked = req.method === 'INFO' ? recordingInfo(req) : null;
    if (leg === this.b && (asked === 'pause' || asked === 'resume')) this.recording?.pause(asked === 'pause');
  }

  private end(outcome: Ending, status?: number): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    // The conversation's end (the first hang-up) is the recording's.
    this.recording?.finish();
    this.recording = null;
    this.a.hangUp();
    this.b?.hangUp();
    this.note(`${outcome}${status ? ` (${status})` : ''}`);
    void this.send({ outcome, duration_s: secondsSince(this.answeredAt), ...(status ? { status } : {}) });
  }

  /**
   * The worker stops: whatever is up is hung up. Not answered yet: `failed`; bridged: `completed`;
   * answered but not bridged: `abandoned` (the contact was never connected).
   */
  stop(): void {
    this.end(!this.answeredAt ? 'failed' : this.state === 'bridged' ? 'completed' : 'abandoned');
  }


  /** The worker's log, with the time since the INVITE (what a stuck call's log must show). */
  private note(what: string): void {
    this.ctx.log(`dialer ${this.job.id} +${Date.now() - this.startedAt} ms: ${what}`);
  }
}
