import { infoDigit } from '../rtp/dtmf';
import { AudioSource, RtpSession } from '../rtp/session';
import { Dialog, newTag } from '../sip/dialog';
import type { Remote, SipEndpoint } from '../sip/endpoint';
import { cseq, header, randomToken, type SipRequest, type SipResponse } from '../sip/message';
import { buildSdp, parseSdp } from '../sip/sdp';

/** A call the worker places itself (voice-OTP, dialer): what the worker holds it by. */
export interface PlacedCall {
  /** A request inside one of its dialogs (keyed by "Call-ID our-tag", see placedKey). */
  onRequest(req: SipRequest, from: Remote): void;
  /** The worker stops: the call ends from our side. */
  stop(): void;
}

export interface PlacedCallContext {
  ep: SipEndpoint;
  proxy: Remote;
  log(msg: string): void;
  /** Registers / forgets the dialog key ("Call-ID our-tag") under which in-dialog requests reach this call. */
  track(key: string, call: PlacedCall | null): void;
}

/** How an unanswered leg ended. */
export type Unanswered = 'no_answer' | 'busy' | 'failed';

/** What the call placing the leg hears of it. */
export interface LegEvents {
  /** The callee answered (ACKed, RTP pointed at its SDP). */
  answered(): void;
  /** It ended unanswered: rang too long (CANCEL sent), refused, or the INVITE went unanswered. */
  unanswered(outcome: Unanswered, status: number): void;
  /** The callee hung up after answering (the BYE is answered already). */
  hungUp(): void;
  /**
   * A key the callee pressed once answered, by RFC 4733 event or SIP INFO. Only a call that listens
   * (a voice survey) gets telephone-events taken out of the RTP: without it they stay ordinary
   * packets, so a dialer's bridge passes the contact's keys on to the agent as it always did.
   */
  digit?(d: string): void;
}

export interface LegOptions {
  /** The continuation token: the INVITE goes to sip:<token>@proxy with x-tongdai-continue. */
  token: string;
  /** From's user: digits, else 'anonymous'. */
  caller: string;
  /** From's display name (a click-to-call's "Gọi cho 0912…" on the agent's phone); none by default. */
  display?: string;
  ringS: number;
  /** The Call-ID's host part (which kind of call placed it, for a packet capture). */
  callIdHost: string;
  headers?: [string, string][];
}

const BUSY = new Set([486, 600]);
const NO_ANSWER = new Set([408, 480, 487]);

/** A final failure's outcome: busy, not answered (also whatever ends a leg we cancelled), or failed. */
export const unansweredOutcome = (status: number, cancelled: boolean): Unanswered =>
  BUSY.has(status) ? 'busy' : cancelled || NO_ANSWER.has(status) ? 'no_answer' : 'failed';

/** A From display name, quoted (its quotes and backslashes escaped, RFC 3261 quoted-string), with the space before the URI; '' for none. */
export const displayName = (display: string | undefined): string =>
  display ? `"${display.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}" ` : '';

/** Tenths of a second since `t` (0: not answered, null). */
export const secondsSince = (t: number): number | null => (t ? Math.round((Date.now() - t) / 100) / 10 : null);

/**
 * One leg the worker places through Kamailio (an OTP call's only leg, a dialer call's contact and
 * agent legs): the INVITE to a continuation token, at most `ringS` of ringing (then CANCEL), the
 * final status mapped to an outcome, a late answer ACKed and hung up, the callee's BYE, and audio
 * played to the callee.
 */
export class PlacedLeg {
  readonly callId: string;
  readonly tag = newTag();
  rtp: RtpSession | null = null;
  private invite: SipRequest | null = null;
  private dialog: Dialog | null = null;
  private ringTimer: NodeJS.Timeout | null = null;
  private state: 'new' | 'ringing' | 'answered' | 'ended' = 'new';
  /** Ends the current play: 'done' when it was cut short, 'hangup' when the leg ended. */
  private endPlay: ((why: 'done' | 'hangup') => void) | null = null;

  constructor(
    private readonly ctx: PlacedCallContext,
    private readonly owner: PlacedCall,
    private readonly o: LegOptions,
    private readonly events: LegEvents,
    private readonly note: (what: string) => void,
  ) {
    this.callId = `${randomToken(16)}@${o.callIdHost}`;
  }

  get key(): string {
    return `${this.callId} ${this.tag}`;
  }

  get answered(): boolean {
    return this.state === 'answered';
  }

  /** Opens its RTP and sends the INVITE. */
  async start(): Promise<void> {
    const { ep, proxy } = this.ctx;
    this.rtp = await RtpSession.open(ep.bindAddress);
    if (this.state !== 'new') return this.rtp.close();
    const caller = /^[0-9]{1,32}$/.test(this.o.caller) ? this.o.caller : 'anonymous';
    this.invite = {
      kind: 'request',
      method: 'INVITE',
      uri: `sip:${this.o.token}@${proxy.address}:${proxy.port}`,
      headers: [
        ['via', ep.via()],
        ['from', `${displayName(this.o.display)}<sip:${caller}@${ep.address}>;tag=${this.tag}`],
        ['to', `<sip:${this.o.token}@${proxy.address}>`],
        ['call-id', this.callId],
        ['cseq', '1 INVITE'],
        ['contact', `<sip:media@${ep.address}:${ep.port}>`],
        ['max-forwards', '70'],
        ['x-tongdai-continue', this.o.token],
        ...(this.o.headers ?? []),
        ['content-type', 'application/sdp'],
      ],
      // telephone-event offered as the calls the worker answers offer it (101): a survey's contact answers with keys.
      body: buildSdp({ address: ep.address, port: this.rtp.port, dtmf: 101, sessionId: Date.now() }),
    };
    this.state = 'ringing';
    this.ctx.track(this.key, this.owner);
    this.ringTimer = setTimeout(() => this.giveUp(), this.o.ringS * 1000);
    ep.send(this.invite, proxy, { onResponse: (r) => this.onResponse(r), onTimeout: () => this.fail('failed', 408) });
  }

  /**
   * Rang long enough: CANCEL, and the leg ends as not answered. (The endpoint keys the CANCEL's
   * transaction by the INVITE's branch, as it must be sent, so the 487 that follows reaches no
   * handler here: the outcome is decided now.)
   */
  private giveUp(): void {
    if (this.state !== 'ringing' || !this.invite) return;
    this.note(`rang ${this.o.ringS} s: CANCEL`);
    this.ctx.ep.cancel(this.invite, this.ctx.proxy);
    this.fail('no_answer', 487);
  }

  private onResponse(res: SipResponse): void {
    if (res.status < 200 || !this.invite) return;
    if (this.dialog) {
      // A retransmitted 2xx: its ACK was lost.
      if (res.status < 300) this.dialog.ack(cseq(this.invite).seq);
      return;
    }
    if (this.state !== 'ringing') {
      // An answer that crossed the CANCEL (or came after the call was stopped): acknowledged and
      // hung up, so the callee is not left holding a silent line.
      if (res.status < 300) {
        const late = Dialog.asUac(this.ctx.ep, this.invite, res);
        late.ack(cseq(this.invite).seq);
        late.send('BYE');
        this.note(`answered after it ended (${res.status}): ACK and BYE`);
      }
      return;
    }
    if (res.status >= 300) return this.fail(unansweredOutcome(res.status, false), res.status);
    this.dialog = Dialog.asUac(this.ctx.ep, this.invite, res);
    this.dialog.ack(cseq(this.invite).seq);
    this.clearRing();
    this.state = 'answered';
    const answer = parseSdp(res.body);
    if (answer) this.rtp!.peer = answer.peer;
    if (answer && this.events.digit) {
      this.rtp!.dtmfPayloadType = answer.dtmf;
      this.rtp!.on('dtmf', (d: string) => this.state === 'answered' && this.events.digit?.(d));
    }
    this.note(`answered, audio to ${answer ? `${answer.peer.address}:${answer.peer.port}` : 'nowhere (no SDP)'}`);
    this.events.answered();
  }

  /** A request inside the leg's dialog: the callee's BYE ends it; an INFO may carry a key. */
  onRequest(req: SipRequest, from: Remote): void {
    if (req.method === 'ACK') return;
    this.ctx.ep.respond(req, from, 200, 'OK');
    if (req.method === 'INFO') {
      const digit = this.state === 'answered' ? infoDigit(header(req, 'content-type') ?? '', req.body) : null;
      if (digit) this.events.digit?.(digit);
      return;
    }
    if (req.method !== 'BYE' || this.state === 'ended') return;
    const wasAnswered = this.state === 'answered';
    this.close();
    if (wasAnswered) this.events.hungUp();
    else this.events.unanswered('failed', 0);
  }

  /**
   * Plays `samples` to the callee. The clock paces it (its 'ended' comes after the samples' own
   * length); a session that stops ticking (its socket failed, no address to send to) ends the play
   * 3 s after that length all the same, so the call ends and says so.
   */
  play(samples: Int16Array): Promise<'done' | 'hangup'> {
    const rtp = this.rtp;
    if (!rtp || this.state !== 'answered') return Promise.resolve('hangup');
    // One play at a time: a play started over another ends that one as if it were cut short.
    this.endPlay?.('done');
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
        // Cut short: the session sends no more of it (nothing, until the next play).
        rtp.stop(source);
        if (this.endPlay === finish) this.endPlay = null;
        resolve(why);
      };
      rtp.on('ended', onEnd);
      this.endPlay = finish;
    });
  }

  /**
   * Cuts the current play short (a key pressed during a survey's prompt): its promise resolves
   * 'done' at once, the leg stays up. Nothing playing: nothing to do.
   */
  stopPlaying(): void {
    this.endPlay?.('done');
  }

  /** Ends the leg from our side, quietly: BYE once answered, CANCEL while ringing. */
  hangUp(): void {
    if (this.state === 'answered') this.dialog!.send('BYE');
    else if (this.state === 'ringing') this.ctx.ep.cancel(this.invite!, this.ctx.proxy);
    this.close();
  }

  private fail(outcome: Unanswered, status: number): void {
    if (this.state !== 'ringing') return;
    this.close();
    this.events.unanswered(outcome, status);
  }

  private clearRing(): void {
    if (this.ringTimer) clearTimeout(this.ringTimer);
    this.ringTimer = null;
  }

  private close(): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.clearRing();
    this.endPlay?.('hangup');
    this.rtp?.close();
    this.ctx.track(this.key, null);
  }
}

/** The "Call-ID tag" key of a request sent to us in a dialog we started (our tag is its To tag). */
export const placedKey = (req: SipRequest): string => `${header(req, 'call-id') ?? ''} ${/tag=([^;>\s]+)/.exec(header(req, 'to') ?? '')?.[1] ?? ''}`;

/**
 * A placed call's reports in order (a dialer's, a voice survey's): each is sent once the one before it
 * was answered (or given up); a report the API never took is noted and answers null.
 */
export function orderedReports<R extends { outcome: string }, A>(report: (r: R) => Promise<A | null>, note: (what: string) => void): (r: R) => Promise<A | null> {
  let last: Promise<unknown> = Promise.resolve();
  return (r) => {
    const sent = last.then(() => report(r)).catch((e: unknown) => {
      note(`report ${r.outcome} lost: ${e instanceof Error ? e.message : e}`);
      return null;
    });
    last = sent;
    return sent;
  };
}
