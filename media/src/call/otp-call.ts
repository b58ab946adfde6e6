import type { OriginateJob } from '@tongdai/contracts';
import { OTP_PROMPTS } from '../audio/otp-prompts';
import type { Remote } from '../sip/endpoint';
import type { SipRequest } from '../sip/message';
import { PlacedLeg, secondsSince, type PlacedCallContext } from './placed-leg';
import { sayDigits } from './steps/say-digits';

export type { OriginateJob, PlacedCallContext };

export type OriginateReport = { outcome: 'answered' } | { outcome: 'completed' | 'no_answer' | 'busy' | 'failed'; duration_s: number | null; status?: number };

export class OtpCall {
  private readonly leg: PlacedLeg;
  private answeredAt = 0;
  private finished = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly ctx: PlacedCallContext,
    private readonly job: OriginateJob,
    private readonly report: (r: OriginateReport) => void,
  ) {
    this.leg = new PlacedLeg(
      ctx,
      this,
      { token: job.token, caller: job.caller, ringS: job.ring_s, callIdHost: 'tongdai-media-otp' },
      {
        answered: () => this.onAnswer(),
        unanswered: (outcome, status) => this.end(outcome, status),
        hungUp: () => {
          this.note('the callee hung up');
          this.end('completed');
        },
      },
      (what) => this.note(what),
    );
  }

  get key(): string {
    return this.leg.key;
  }

  start(): Promise<void> {
    return this.leg.start();
  }

  private onAnswer(): void {
    this.answeredAt = Date.now();
    this.report({ outcome: 'answered' });
    sayDigits({ play: (s) => this.leg.play(s), hangUp: () => this.leg.hangUp() }, OTP_PROMPTS, this.job.code).then(
      (r) => {
        this.note(`said (${r})`);
        if (r === 'completed') this.end('completed');
      },
      (e: unknown) => {
        // The call must still end, and say so: never left answered for good.
        this.note(`could not say the code: ${e instanceof Error ? e.message : e}`);
        this.leg.hangUp();
        this.end('failed');
      },
    );
  }

  /** The worker's log, with the time since the INVITE (what a stuck call's log must show). */
  private note(what: string): void {
    this.ctx.log(`otp ${this.job.id} #${this.job.attempt} +${Date.now() - this.startedAt} ms: ${what}`);
  }

  /** A request inside the call's dialog: the callee's BYE ends it (the code was not heard through). */
  onRequest(req: SipRequest, from: Remote): void {
    this.leg.onRequest(req, from);
  }

  private end(outcome: 'completed' | 'no_answer' | 'busy' | 'failed', status?: number): void {
    if (this.finished) return;
    this.finished = true;
    this.leg.hangUp();
    this.note(`${outcome}${status ? ` (${status})` : ''}`);
    this.report({ outcome, duration_s: secondsSince(this.answeredAt), ...(status ? { status } : {}) });
  }

  /** The worker stops: the call ends from our side. */
  stop(): void {
    if (this.finished) return;
    this.leg.hangUp();
    this.end('failed');
  }
}
