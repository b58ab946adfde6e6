import type { OriginateJob } from '@tongdai/contracts';
import { OTP_PROMPTS } from '../audio/otp-prompts';
import { AudioSource, RtpSession } from '../rtp/session';
import { Dialog, newTag } from '../sip/dialog';
import type { Remote, SipEndpoint } from '../sip/endpoint';
import { cseq, header, randomToken, type SipRequest, type SipResponse } from '../sip/message';
import { buildSdp, parseSdp } from '../sip/sdp';
import { sayDigits } from './steps/say-digits';

export type { OriginateJob };

export type OriginateReport = { outcome: 'answered' } | { outcome: 'completed' | 'no_answer' | 'busy' | 'failed'; duration_s: number | null; status?: number };

export interface PlacedCallContext {
  ep: SipEndpoint;
  proxy: Remote;
  log(msg: string): void;
  /** Registers / forgets the dialog key ("Call-ID our-tag") under which in-dialog requests reach this call. */
  track(key: string, call: OtpCall | null): void;
}

const BUSY = new Set([486, 600]);

export class OtpCall {
  private readonly callId = `${randomToken(16)}@tongdai-media-otp`;
  private readonly tag = newTag();
  private invite: SipRequest | null = null;
  private rtp: RtpSession | null = null;
  private dialog: Dialog | null = null;
  private answeredAt = 0;
  private ringTimer: NodeJS.Timeout | null = null;
  private finished = false;
  private cancelled = false;
  private stopPlaying: (() => void) | null = null;
  private readonly startedAt = Date.now();

  constructor(
    private readonly ctx: PlacedCallContext,
    private readonly job: OriginateJob,
    private readonly report: (r: OriginateReport) => void,
  ) {}

  get key(): string {
    return `${this.callId} ${this.tag}`;
  }

  async start(): Promise<void> {
    const { ep, proxy } = this.ctx;
    this.rtp = await RtpSession.open(ep.bindAddress);
    const caller = /^[0-9]{1,32}$/.test(this.job.caller) ? this.job.caller : 'anonymous';
    this.invite = {
      kind: 'request',
      method: 'INVITE',
      uri: `sip:${this.job.token}@${proxy.address}:${proxy.port}`,
      headers: [
        ['via', ep.via()],
        ['from', `<sip:${caller}@${ep.address}>;tag=${this.tag}`],
        ['to', `<sip:${this.job.token}@${proxy.address}>`],
        ['call-id', this.callId],
        ['cseq', '1 INVITE'],
        ['contact', `<sip:media@${ep.address}:${ep.port}>`],
        ['max-forwards', '70'],
        ['x-tongdai-continue', this.job.token],
        ['content-type', 'application/sdp'],
      ],
      body: buildSdp({ address: ep.address, port: this.rtp.port, sessionId: Date.now() }),
    };
    this.ctx.track(this.key, this);
    this.ringTimer = setTimeout(() => this.giveUp(), this.job.ring_s * 1000);
    ep.send(this.invite, proxy, { onResponse: (r) => this.onResponse(r), onTimeout: () => this.end('failed', 408) });
  }

  /**
   * Rang long enough: CANCEL, and the call ends as not answered. (The endpoint keys the CANCEL's
   * transaction by the INVITE's branch, as it must be sent, so the 487 that follows reaches no
   * handler here: the outcome is decided now.)
   */
  private giveUp(): void {
    if (this.dialog || this.finished || !this.invite) return;
    this.note(`rang ${this.job.ring_s} s: CANCEL`);
    this.cancelled = true;
    this.ctx.ep.cancel(this.invite, this.ctx.proxy);
    this.end('no_answer', 487);
  }

  private onResponse(res: SipResponse): void {
    if (res.status < 200) return;
    if (this.finished) {
      // An answer that crossed the CANCEL (or came after the worker stopped the call): acknowledged
      // and hung up, so the callee is not left holding a silent line.
      if (res.status < 300 && this.invite) {
        const late = Dialog.asUac(this.ctx.ep, this.invite, res);
        late.ack(cseq(this.invite).seq);
        late.send('BYE');
        this.note(`answered after it ended (${res.status}): ACK and BYE`);
      }
      return;
    }
    if (res.status >= 300) {
      const outcome = BUSY.has(res.status) ? 'busy' : this.cancelled || res.status === 408 || res.status === 480 || res.status === 487 ? 'no_answer' : 'failed';
      return this.end(outcome, res.status);
    }
    const first = !this.dialog;
    this.dialog ??= Dialog.asUac(this.ctx.ep, this.invite!, res);
    this.dialog.ack(cseq(this.invite!).seq);
    if (!first) return;
    if (this.ringTimer) clearTimeout(this.ringTimer);
    if (this.cancelled) {
      // Answered as the CANCEL crossed it: nobody is listening for the code any more.
      this.dialog.send('BYE');
      return this.end('no_answer', res.status);
    }
    const answer = parseSdp(res.body);
    if (answer) this.rtp!.peer = answer.peer;
    this.answeredAt = Date.now();
    this.note(`answered, audio to ${answer ? `${answer.peer.address}:${answer.peer.port}` : 'nowhere (no SDP)'}`);
    this.report({ outcome: 'answered' });
    sayDigits({ play: (s) => this.play(s), hangUp: () => this.hangUp() }, OTP_PROMPTS, this.job.code).then(
      (r) => {
        this.note(`said (${r})`);
        if (r === 'completed') this.end('completed');
      },
      (e: unknown) => {
        // The call must still end, and say so: never left answered for good.
        this.note(`could not say the code: ${e instanceof Error ? e.message : e}`);
        this.hangUp();
        this.end('failed');
      },
    );
  }

  /** The worker's log, with the time since the INVITE (what a stuck call's log must show). */
  private note(what: string): void {
    this.ctx.log(`otp ${this.job.id} #${this.job.attempt} +${Date.now() - this.startedAt} ms: ${what}`);
  }

  /**
   * Plays `samples` to the callee. The clock paces it (its 'ended' comes after the samples' own
   * length); a session that stops ticking (its socket failed, no address to send to) ends the play
   * 3 s after that length all the same, so the call ends and says so.
   */
  private play(samples: Int16Array): Promise<'done' | 'hangup'> {
    const rtp = this.rtp;
    if (!rtp || this.finished) return Promise.resolve('hangup');
    const source = new AudioSource([samples]);
    rtp.play(source);
    return new Promise((resolve) => {
      const onEnd = (s: AudioSource) => s === source && finish('done');
      const lengthMs = (samples.length / 8000) * 1000;
      const late = setTimeout(() => {
        this.note(`the audio did not end in ${Math.round(lengthMs)} ms + 3 s (${rtp.sent} packets sent)`);
        finish('done');
      }, lengthMs + 3000);
      const finish = (why: 'done' | 'hangup') => {
        clearTimeout(late);
        rtp.off('ended', onEnd);
        this.stopPlaying = null;
        resolve(why);
      };
      rtp.on('ended', onEnd);
      this.stopPlaying = () => finish('hangup');
    });
  }

  private hangUp(): void {
    this.dialog?.send('BYE');
  }

  /** A request inside the call's dialog: the callee's BYE ends it (the code was not heard through). */
  onRequest(req: SipRequest, from: Remote): void {
    if (req.method === 'ACK') return;
    this.ctx.ep.respond(req, from, 200, 'OK');
    if (req.method === 'BYE') {
      this.note('the callee hung up');
      this.stopPlaying?.();
      this.end(this.answeredAt ? 'completed' : 'failed');
    }
  }

  private end(outcome: 'completed' | 'no_answer' | 'busy' | 'failed', status?: number): void {
    if (this.finished) return;
    this.finished = true;
    if (this.ringTimer) clearTimeout(this.ringTimer);
    this.rtp?.close();
    this.ctx.track(this.key, null);
    const duration = this.answeredAt ? Math.round((Date.now() - this.answeredAt) / 100) / 10 : null;
    this.note(`${outcome}${status ? ` (${status})` : ''}`);
    this.report({ outcome, duration_s: duration, ...(status ? { status } : {}) });
  }

  /** The worker stops: the call ends from our side. */
  stop(): void {
    if (this.finished) return;
    if (this.dialog) this.hangUp();
    else if (this.invite) this.ctx.ep.cancel(this.invite, this.ctx.proxy);
    this.end('failed');
  }
}

/** The "Call-ID tag" key of a request sent to us in a dialog we started (our tag is its To tag). */
export const placedKey = (req: SipRequest): string => `${header(req, 'call-id') ?? ''} ${/tag=([^;>\s]+)/.exec(header(req, 'to') ?? '')?.[1] ?? ''}`;
