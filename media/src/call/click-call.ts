import type { ClickToCallJob, CrmCallReport, CrmCallReportAnswer, CrmCustomerLeg } from '@tongdai/contracts';
import type { Remote } from '../sip/endpoint';
import type { SipRequest } from '../sip/message';
import { PlacedLeg, orderedReports, placedKey, secondsSince, type LegEvents, type PlacedCallContext, type Unanswered } from './placed-leg';

export type { ClickToCallJob };

/** A report as the call makes it; the worker adds the job's id, tenant and attempt. */
export type ClickCallReport = Omit<CrmCallReport, 'kind' | 'id' | 'tenant_id' | 'attempt'>;

/** How long the agent who answered may wait on the API's answer to `agent_answered` before the call is given up. */
export const AGENT_ANSWERED_REPORT_MS = 3000;

const AGENT: Record<Unanswered, ClickCallReport['outcome']> = { no_answer: 'agent_no_answer', busy: 'agent_busy', failed: 'agent_failed' };
const CUSTOMER: Record<Unanswered, ClickCallReport['outcome']> = { no_answer: 'customer_no_answer', busy: 'customer_busy', failed: 'customer_failed' };

/**
 * A CRM's click-to-call (issue 39, ADR 0066): the dialer's call in the other order. Leg A rings the agent's
 * extension (`job.token`; the agent's phone shows `display` and the customer's number); on the agent's answer
 * the API is asked for the customer's leg (`agent_answered`, awaited), placed as the agent's own call out
 * (its Call-ID is the call record's), and on the customer's answer the two legs' RTP are bridged (`answered`).
 * Either side hanging up ends both (`completed`); the agent hanging up while the customer still rings ends it
 * as `agent_hung_up`. Reports go in order, each after the last is sent.
 */
export class ClickCall {
  private readonly a: PlacedLeg;
  private b: PlacedLeg | null = null;
  private state: 'agent' | 'asking' | 'customer' | 'bridged' | 'ended' = 'agent';
  private answeredAt = 0;
  private readonly startedAt = Date.now();
  private readonly send = orderedReports((r: ClickCallReport) => this.report(r), (what) => this.note(what));

  constructor(
    private readonly ctx: PlacedCallContext,
    private readonly job: ClickToCallJob,
    private readonly report: (r: ClickCallReport) => Promise<CrmCallReportAnswer | null>,
  ) {
    this.a = this.leg('A', { token: job.token, caller: job.caller, display: job.display, ringS: job.ring_s }, {
      answered: () => void this.onAnswerA(),
      unanswered: (outcome, status) => this.end(AGENT[outcome], status),
      hungUp: () => this.onHangUp('A'),
    });
  }

  get key(): string {
    return this.a.key;
  }

  start(): Promise<void> {
    return this.a.start();
  }

  private leg(name: 'A' | 'B', o: { token: string; caller: string; display?: string; ringS: number }, events: LegEvents): PlacedLeg {
    return new PlacedLeg(this.ctx, this, { ...o, callIdHost: 'tongdai-media-click' }, events, (what) => this.note(`${name} ${what}`));
  }

  /** The agent answered: the API says how to call the customer (nothing: the agent is hung up on). */
  private async onAnswerA(): Promise<void> {
    this.state = 'asking';
    const answer = await this.send({ outcome: 'agent_answered', call_id: this.a.callId });
    if (this.state !== 'asking') return;
    const customer = answer?.customer ?? null;
    if (!customer) {
      this.note(answer ? 'the customer may not be called now' : 'the API did not answer');
      this.state = 'ended';
      this.a.hangUp();
      return;
    }
    this.placeB(customer);
  }

  private placeB(leg: CrmCustomerLeg): void {
    this.state = 'customer';
    this.note(`customer leg to ${leg.token} for ${leg.ring_s} s`);
    this.b = this.leg('B', { token: leg.token, caller: leg.caller, ringS: leg.ring_s }, {
      answered: () => this.onAnswerB(),
      unanswered: (outcome, status) => this.end(CUSTOMER[outcome], status),
      hungUp: () => this.onHangUp('B'),
    });
    this.b.start().catch((e: unknown) => {
      this.note(`the customer's leg could not be placed: ${e instanceof Error ? e.message : e}`);
      this.end('customer_failed');
    });
  }

  private onAnswerB(): void {
    if (this.state !== 'customer') return this.b?.hangUp();
    this.state = 'bridged';
    this.answeredAt = Date.now();
    this.a.rtp!.bridge(this.b!.rtp!);
    this.note('bridged');
    void this.send({ outcome: 'answered', call_id: this.b!.callId });
  }

  private onHangUp(who: 'A' | 'B'): void {
    this.note(`${who === 'A' ? 'the agent' : 'the customer'} hung up`);
    if (this.state === 'bridged') return this.end('completed');
    // The agent left before the customer answered (or while the API was asked).
    if (who === 'A') return this.end('agent_hung_up');
    this.end('completed');
  }

  onRequest(req: SipRequest, from: Remote): void {
    const leg = this.b?.key === placedKey(req) ? this.b : this.a;
    leg.onRequest(req, from);
  }

  private end(outcome: ClickCallReport['outcome'], status?: number): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.a.hangUp();
    this.b?.hangUp();
    this.note(`${outcome}${status ? ` (${status})` : ''}`);
    void this.send({ outcome, duration_s: secondsSince(this.answeredAt), ...(status ? { status } : {}) });
  }

  /** The worker stops: bridged → completed; the agent still ringing → agent_failed; else agent_hung_up. */
  stop(): void {
    this.end(this.state === 'bridged' ? 'completed' : this.state === 'agent' ? 'agent_failed' : 'agent_hung_up');
  }

  private note(what: string): void {
    this.ctx.log(`click ${this.job.id} +${Date.now() - this.startedAt} ms: ${what}`);
  }
}
