import type { Choice, MediaApi, MediaSession, MediaStep } from '../api';
import type { AudioLibrary } from '../audio/library';
import { BEEP, concat, DEFAULT_MOH, DEFAULT_PROMPT, GOODBYE, RINGBACK, INVALID_TONE } from '../audio/tones';
import { encodeWav, RATE } from '../audio/wav';
import type { RecordingSpool } from '../audio/recording-spool';
import { MAILBOX_PROMPTS as SAY, VOICEMAIL_PROMPT, type MailboxPrompt } from '../audio/prompts';
import { CSAT_PROMPTS, CSAT_WAIT_MS } from '../audio/csat-prompts';
import { decodeWav } from '../audio/wav';
import { decodeAlaw, decodeUlaw } from '../rtp/g711';
import { infoDigit } from '../rtp/dtmf';
import { AudioSource, PT_PCMA, RtpSession } from '../rtp/session';
import { Dialog, newTag } from '../sip/dialog';
import type { Remote, SipEndpoint } from '../sip/endpoint';
import { cseq, header, param, randomToken, type SipRequest, type SipResponse } from '../sip/message';
import { CSAT_SCORE, SPY_KEYS, type SpyMode } from '@tongdai/contracts';
import { BridgeRecording, recordingInfo, recordingMark } from './bridge-recording';
import { Mixer } from './mixer';
import { buildSdp, parseSdp } from '../sip/sdp';

export interface CallContext {
  ep: SipEndpoint;
  api: MediaApi;
  audio: AudioLibrary;
  /** Kamailio's UDP address: where the worker sends the calls it places (the next destination). */
  proxy: Remote;
  /**
   * Registers / forgets a dialog of this call. Requests are routed by Call-ID and our tag (the To
   * tag of a request sent to us), not by Call-ID alone: a leg this worker places may come back to
   * it through Kamailio as a new call with the same Call-ID (a recorded call's callee sent to
   * voicemail, one worker up). `remoteTag`: the caller's tag of a call we took, for what comes
   * before our answer (its CANCEL, a resent INVITE).
   */
  track(dialog: DialogKey, call: MediaCall | null): void;
  /** The call this worker holds under a Call-ID (either of its legs'), for a supervisor joining it. */
  find(callId: string): MediaCall | undefined;
  /** Recordings on disk until the API has them (issue 41). */
  spool: RecordingSpool;
  /** This worker's SIP address as Kamailio's dispatcher names it ("host:port"), told to the API with each session. */
  self: string;
  log(msg: string): void;
}

type Outcome = 'answered' | 'failed' | 'cancelled';

/** One dialog of a call as the worker routes requests to it (ADR 0012). */
export interface DialogKey {
  callId: string;
  localTag: string;
  remoteTag?: string;
}

/**
 * Post-call CSAT asks only after a person's answer (ADR 0056). The worker's own answer (200) to a call it takes
 * as a media step says which (X-Tongdai-Media: voicemail, ivr, play, queue…), and so does its BYE to that caller
 * when it ends the call without having put it through to a person (a message left, an announcement over). A
 * worker whose leg was so answered and so ended does not ask its caller to rate the call; an unmarked BYE on such
 * a leg (a queue or IVR further on reached an agent, who hung up) still leads to the question. A bridge answers
 * for its callee: it passes its leg's mark on, if any. Kamailio forwards the header as is.
 */
export const MEDIA_ANSWER_HEADER = 'x-tongdai-media';

/** Inter-digit wait when an IVR lets callers dial extensions directly. */
const INTER_DIGIT_MS = 1500;
/** Pause between two rounds of a queue's agents (app_queue's "retry"). */
const QUEUE_RETRY_MS = 2000;

interface OutLeg {
  invite: SipRequest;
  /** Our From tag: requests from the callee carry it as their To tag. */
  tag: string;
  rtp: RtpSession;
  dialog: Dialog | null;
  state: 'calling' | 'answered' | 'ended';
  /** The final answer that ended it unanswered (486, 480…), for a bridge to pass on to the caller. */
  status?: number;
  /** Its continuation rings a queue that asks for a rating: once answered, its callee's hang-up leads the caller to CSAT (issue 34). */
  csat: boolean;
  /** Answered by a worker's media step, not a person (its 200's X-Tongdai-Media: "voicemail"…): not rated if its BYE says so too. */
  media?: string;
  done: (o: Outcome) => void;
}

/**
 * One call the worker answers: the caller's leg (A) from Kamailio with the plan step it must
 * run (X-Tongdai-Step), and at most one leg (B) it places to the next destination. When B
 * answers, the two legs' RTP is bridged as is (both PCMU): the worker stays in the path as a
 * B2BUA, so any caller, browser or carrier, can be moved on without REFER.
 */
export class MediaCall {
  private dialogA: Dialog | null = null;
  private rtpA: RtpSession | null = null;
  private b: OutLeg | null = null;
  private ended = false;
  private session: MediaSession | null = null;
  private digitWaiter: ((d: string) => void) | null = null;
  private interruptPlayback: ((why: 'digit' | 'hangup') => void) | null = null;
  private readonly digits: string[] = [];
  private stepNo = 0;
  /** Ends the recording in progress (a voicemail message): the caller pressed # or hung up. */
  private stopRecording: (() => void) | null = null;
  /** Leg A's to-tag (sent with 180 before the 200 of a bridge, and with every final answer). */
  private readonly tagA = newTag();
  /** Leg A's SDP session id: the same in a bridge's 183 (early media) and its 200. */
  private readonly sdpSessionA = Date.now();
  /** A bridge relays its callee's early media (183) to the caller. */
  private earlyBridged = false;
  /** Checks the bridged parties still send (watchParties). */
  private watchdog: NodeJS.Timeout | null = null;
  /** The call's recording once the parties are bridged, when the session carries a ticket. */
  private recording: BridgeRecording | null = null;
  /** Supervisors in this call (ADR 0042) and the mix that replaced the plain bridge for them. */
  private readonly spies = new Set<MediaCall>();
  /** Each supervisor's mode here, and what stops their voice going into the recording (a barge is recorded). */
  private readonly spyModes = new Map<RtpSession, { mode: SpyMode; off: () => void }>();
  private mixer: Mixer | null = null;
  /** A supervisor's call: the call it joined. */
  private spying: MediaCall | null = null;
  /** A recording ticket the API gave with a continuation (an IVR leading to an extension that records). */
  private legTicket: string | null = null;
  /** What our 200 said took the call (MEDIA_ANSWER_HEADER), said again in our BYE unless a person was reached. */
  private answeredAs: string | undefined;
  /** A person took a leg this call placed (or one a worker further on placed): our BYE to the caller is unmarked. */
  private reachedPerson = false;

  constructor(
    private readonly ctx: CallContext,
    private readonly invite: SipRequest,
    private readonly from: Remote,
  ) {}

  get callId(): string {
    return header(this.invite, 'call-id')!;
  }

  private get dialogKeyA(): DialogKey {
    return { callId: this.callId, localTag: this.tagA, remoteTag: param(header(this.invite, 'from') ?? '', 'tag') ?? '' };
  }

  async start(): Promise<void> {
    const { ep } = this.ctx;
    this.ctx.track(this.dialogKeyA, this);
    ep.respond(this.invite, this.from, 100, 'Trying');
    this.stepNo = Number(header(this.invite, 'x-tongdai-step') ?? '');
    try {
      this.session = Number.isInteger(this.stepNo) ? await this.ctx.api.session(this.callId, this.stepNo, this.ctx.self) : null;
    } catch (e) {
      this.ctx.log(`session ${this.callId}: ${e instanceof Error ? e.message : e}`);
    }
    if (this.ended) return;
    if (!this.session) return this.refuse(480, 'No Media Session');
    const offer = parseSdp(this.invite.body);
    if (!offer || !offer.pcmu) return this.refuse(488, 'Not Acceptable Here');
    this.rtpA = await RtpSession.open(ep.bindAddress);
    this.rtpA.peer = offer.peer;
    this.rtpA.dtmfPayloadType = offer.dtmf;
    this.rtpA.on('dtmf', (d: string) => this.onDigit(d));
    if (this.session.step.kind === 'bridge') {
      // Not answered until the other side answers: the caller's phone rings as for a direct call.
      ep.respond(this.invite, this.from, 180, 'Ringing', [['x-to-tag', this.tagA], ['contact', `<sip:media@${ep.address}:${ep.port}>`]]);
    } else if (this.session.step.kind !== 'spy') this.answerA(offer.dtmf);
    this.run(this.session.step).catch((e) => {
      this.ctx.log(`call ${this.callId}: ${e instanceof Error ? e.stack : e}`);
      this.hangup();
    });
  }

  /** Where the caller goes after `choice`; a ticket that comes with it records the leg to there (issue 16). */
  private async next(choice: Choice): Promise<Awaited<ReturnType<MediaApi['next']>>> {
    const r = await this.ctx.api.next(this.callId, this.stepNo, choice);
    if (r.record_ticket && !this.session?.record_ticket) this.legTicket = r.record_ticket;
    return r;
  }

  /** The ticket the call's recording goes with: its session's, or the one its next leg brought. */
  private get ticket(): string | null {
    return this.session?.record_ticket ?? this.legTicket;
  }

  /**
   * Who may pause the recording (ADR 0041): the agent — the callee of an inbound call, the caller
   * of an outbound one, either party of an internal one. Their leg is marked with RECORDING_HEADER.
   */
  private mayPause(leg: 'a' | 'b'): boolean {
    const s = this.session;
    if (!s || !this.ticket) return false;
    return s.direction === 'internal' || (leg === 'a' ? s.direction === 'outbound' : s.direction === 'inbound');
  }

  private answerA(dtmf: number | null): void {
    const { ep } = this.ctx;
    const sdp = buildSdp({ address: ep.address, port: this.rtpA!.port, dtmf, sessionId: this.sdpSessionA });
    const mark: [string, string][] = this.mayPause('a') ? [recordingMark()] : [];
    const kind = this.session?.step.kind;
    const media = kind === 'bridge' ? this.b?.media : kind;
    if (media) mark.push([MEDIA_ANSWER_HEADER, media]);
    this.answeredAs = media;
    ep.respond(this.invite, this.from, 200, 'OK', [['x-to-tag', this.tagA], ['contact', `<sip:media@${ep.address}:${ep.port}>`], ...mark, ['content-type', 'application/sdp']], sdp);
    this.dialogA = Dialog.asUas(ep, this.invite, this.tagA);
  }

  private refuse(code: number, reason: string): void {
    this.ctx.ep.respond(this.invite, this.from, code, reason, [['x-to-tag', this.tagA]]);
    this.cleanup();
  }

  // --- Bridge (a recorded call) ---

  /**
   * The rest of the plan as one continuation; the caller is answered when it answers (onBResponse),
   * else gets its final answer: busy stays busy, a server error or timeout is "unavailable" (a 5xx
   * would make Kamailio try the step on another worker).
   */
  private async bridge(): Promise<void> {
    const r = await this.next({ kind: 'next' });
    if (this.ended) return;
    if (!r.token) return this.refuse(480, 'Temporarily Unavailable');
    let status = 0;
    const outcome = await this.dial(r.token, false, { csat: r.csat, onFailure: (s) => (status = s) });
    if (outcome === 'answered' || this.ended) return;
    if (status >= 400 && status < 500 && status !== 408) return this.refuse(status, REASONS[status] ?? 'Request Failed');
    if (status >= 600) return this.refuse(status, REASONS[status] ?? 'Decline');
    this.refuse(480, 'Temporarily Unavailable');
  }

  /** Records the bridged parties when the session carries a ticket (ADR 0041): the caller left, the other party right. */
  private startRecording(b: RtpSession): void {
    if (!this.ticket || this.recording || !this.rtpA) return;
    this.recording = BridgeRecording.start(this.ctx.spool, { callId: this.callId, ticket: this.ticket, left: this.rtpA, right: b }, this.ctx.log);
  }

  /** Ends the recording and hands it to the spool, which sends it to the API until stored (bridge-recording.ts). */
  private finishRecording(): void {
    this.recording?.finish();
    this.recording = null;
  }

  private async run(step: MediaStep): Promise<void> {
    switch (step.kind) {
      case 'play':
        await this.playAll(step.audioIds);
        return this.moveOn({ kind: 'next' }, true);
      case 'ivr':
        return this.ivr(step);
      case 'queue':
        return this.queue(step);
      case 'voicemail':
        return this.voicemail(step);
      case 'bridge':
        return this.bridge();
      case 'spy':
        return this.spy(step);
      case 'mailbox':
        return this.mailboxMenu(step);
    }
  }

  // --- Voicemail by phone (*97 / *98) ---

  /**
   * The mailbox (asked for when the step has none) and its PIN when the API asks for one, three
   * tries; then each message, new ones first: a beep, the message (a key stops it), and the menu —
   * 5 again, 7 delete, # (or nothing) the next one. A message played is heard.
   */
  private async mailboxMenu(step: Extract<MediaStep, { kind: 'mailbox' }>): Promise<void> {
    const api = this.ctx.api;
    for (let attempt = 0; !this.ended; attempt++) {
      const box = step.mailbox ?? (await this.ask('mailbox'));
      if (box === null) return this.hangup();
      let r = await api.mailbox(this.callId, this.stepNo, box, null);
      if (r && 'error' in r && r.error === 'PIN_REQUIRED') {
        const pin = await this.ask('pin');
        if (pin === null) return this.hangup();
        r = await api.mailbox(this.callId, this.stepNo, box, pin);
      }
      if (this.ended) return;
      if (r && 'messages' in r) return this.playMailbox(r.messages);
      await this.playClips([SAY.wrong]);
      if (attempt >= 2) break;
    }
    if (!this.ended) await this.playClips([SAY.end]);
    this.hangup();
  }

  /** Says `prompt` (a key cuts it short) and collects the digits typed up to # (5 s between keys); null: nothing typed or hung up. */
  private async ask(prompt: MailboxPrompt): Promise<string | null> {
    this.digits.length = 0;
    if ((await this.playClips([SAY[prompt]], true)) === 'hangup') return null;
    let typed = '';
    for (let d = await this.nextDigit(5000); d !== null && d !== '#' && !this.ended; d = await this.nextDigit(5000)) typed += d;
    return typed && !this.ended ? typed.replace(/\D/g, '') || null : null;
  }

  private async playMailbox(messages: { id: number; heard: boolean }[]): Promise<void> {
    const api = this.ctx.api;
    if ((await this.playClips([messages.some((m) => !m.heard) ? SAY.new : SAY.none])) === 'hangup') return;
    for (const m of messages) {
      for (let again = true; again && !this.ended; ) {
        again = false;
        const wav = await api.mailboxMessage(this.callId, this.stepNo, m.id);
        if (!wav) break;
        this.digits.length = 0;
        const played = await this.playClips([BEEP, decodeWav(wav)], true);
        if (played === 'hangup') return;
        if (!m.heard) {
          await api.mailboxAction(this.callId, this.stepNo, m.id, 'heard').catch((e) => this.ctx.log(`mailbox ${this.callId}: ${e instanceof Error ? e.message : e}`));
          m.heard = true;
        }
        let key = played === 'digit' ? (this.digits.shift() ?? null) : null;
        if (key === null) {
          if ((await this.playClips([SAY.menu], true)) === 'hangup') return;
          key = await this.nextDigit(5000);
        }
        if (key === '5') again = true;
        else if (key === '7') {
          await api.mailboxAction(this.callId, this.stepNo, m.id, 'delete').catch((e) => this.ctx.log(`mailbox ${this.callId}: ${e instanceof Error ? e.message : e}`));
          if ((await this.playClips([SAY.deleted])) === 'hangup') return;
        }
      }
    }
    if (this.ended) return;
    await this.playClips([SAY.end]);
    this.hangup();
  }

  // --- Supervisor (ADR 0042) ---

  /** A supervisor's call: answered only if the call it names is here and its parties are talking. */
  private spy(step: Extract<MediaStep, { kind: 'spy' }>): void {
    const target = this.ctx.find(step.call_id);
    if (!target || target === this || !target.joinable() || !this.rtpA) return this.refuse(404, 'Not Found');
    this.answerA(this.rtpA.dtmfPayloadType);
    this.spying = target;
    target.join(this, this.rtpA, step.mode, step.leg);
  }

  private joinable(): boolean {
    return !this.ended && !!this.rtpA && this.b?.state === 'answered' && !this.spying;
  }

  private join(spy: MediaCall, rtp: RtpSession, mode: SpyMode, leg: 'a' | 'b'): void {
    this.mixer ??= new Mixer(this.rtpA!, this.b!.rtp);
    this.mixer.add(rtp, mode, leg);
    this.spies.add(spy);
    // Both parties hear a barging supervisor: so does the recording (listening and whispering are not in it).
    const onAudio = (pt: number, payload: Buffer, ts: number, ssrc: number) => {
      if (this.spyModes.get(rtp)?.mode === 'barge') this.recording?.recorder.packet('joined', pt, payload, ts, ssrc);
    };
    rtp.on('audio', onAudio);
    this.spyModes.set(rtp, { mode, off: () => rtp.off('audio', onAudio) });
  }

  private setSpyMode(rtp: RtpSession, mode: SpyMode): void {
    this.mixer?.setMode(rtp, mode);
    const s = this.spyModes.get(rtp);
    if (s) s.mode = mode;
  }

  private leave(spy: MediaCall, rtp: RtpSession | null): void {
    if (!this.spies.delete(spy)) return;
    if (rtp) {
      this.mixer?.remove(rtp);
      this.spyModes.get(rtp)?.off();
      this.spyModes.delete(rtp);
    }
    // The last supervisor gone: the parties' packets cross as they are again.
    if (!this.spies.size && this.mixer && !this.ended) {
      this.mixer.close();
      this.mixer = null;
    }
  }

  // --- Voicemail ---

  /**
   * The mailbox's greeting (or the default Vietnamese prompt), a beep, then the caller's message until they
   * hang up, press # or the mailbox's longest message is reached; the recording goes to the API
   * (a message under half a second is a hang-up, not a message). Then a goodbye and BYE.
   */
  private async voicemail(step: Extract<MediaStep, { kind: 'voicemail' }>): Promise<void> {
    const greeting = await this.clipsOf([step.greeting_id]);
    const played = await this.playClips([...(greeting.length ? greeting : [VOICEMAIL_PROMPT]), BEEP]);
    if (played === 'hangup' || this.ended) return;
    this.digits.length = 0;
    const pcm = await this.record(step.max_seconds * 1000);
    if (pcm.length >= RATE / 2) {
      const { tenant_id: tenantId, caller, record_call_id: callId = this.callId } = this.session!;
      await this.ctx.api.voicemail({ tenantId, mailbox: step.mailbox, caller, callId }, encodeWav(pcm)).catch((e) => this.ctx.log(`voicemail ${this.callId}: ${e instanceof Error ? e.message : e}`));
    }
    if (this.ended) return;
    await this.playClips([GOODBYE]);
    this.hangup();
  }

  /**
   * The caller's audio from now until # (or any stop), hang-up or `maxMs`, on the clock: a pause
   * in the caller's packets (silence suppression, a network gap) is silence in the message, so the
   * message lasts as long as the caller was recorded.
   */
  private record(maxMs: number): Promise<Int16Array> {
    const rtp = this.rtpA;
    if (!rtp || this.ended) return Promise.resolve(new Int16Array(0));
    const chunks: Int16Array[] = [];
    const start = Date.now();
    let samples = 0;
    /** Silence up to `now` when the packets are more than 40 ms (jitter) behind the clock. */
    const catchUp = (lead: number) => {
      const due = Math.floor(((Date.now() - start) * RATE) / 1000) - lead;
      if (due > samples + 320) {
        chunks.push(new Int16Array(due - samples));
        samples = due;
      }
    };
    const onAudio = (pt: number, payload: Buffer) => {
      const pcm = pt === PT_PCMA ? decodeAlaw(payload) : decodeUlaw(payload);
      catchUp(pcm.length);
      chunks.push(pcm);
      samples += pcm.length;
    };
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        rtp.off('audio', onAudio);
        this.stopRecording = null;
        catchUp(0);
        resolve(concat(chunks));
      };
      const timer = setTimeout(finish, maxMs);
      rtp.on('audio', onAudio);
      this.stopRecording = finish;
    });
  }

  // --- Playing ---

  private async clipsOf(ids: (number | null | undefined)[]): Promise<Int16Array[]> {
    const tenant = this.session!.tenant_id;
    const clips = await Promise.all(ids.filter((id): id is number => typeof id === 'number').map((id) => this.ctx.audio.get(tenant, id)));
    return clips.filter((c): c is Int16Array => !!c);
  }

  private async playAll(ids: number[]): Promise<void> {
    const clips = await this.clipsOf(ids);
    await this.playClips(clips.length ? clips : [DEFAULT_PROMPT]);
  }

  /** Plays to the caller; resolves when the clips end, the caller hangs up or presses a key (when `bargeIn`). */
  private playClips(clips: Int16Array[], bargeIn = false): Promise<'ended' | 'digit' | 'hangup'> {
    const rtp = this.rtpA;
    if (!rtp || this.ended) return Promise.resolve('hangup');
    const source = new AudioSource(clips);
    rtp.play(source);
    return new Promise((resolve) => {
      const finish = (why: 'ended' | 'digit' | 'hangup') => {
        rtp.off('ended', onEnd);
        this.interruptPlayback = null;
        if (why !== 'ended') rtp.play(null);
        resolve(why);
      };
      const onEnd = (s: AudioSource) => s === source && finish('ended');
      rtp.on('ended', onEnd);
      // A key (with barge-in) or the end of the call stops the clip where it is.
      this.interruptPlayback = (why) => (why === 'hangup' || bargeIn) && finish(why);
      if (bargeIn && this.digits.length) finish('digit');
    });
  }

  // --- IVR ---

  private onDigit(d: string): void {
    // A supervisor's 4 / 5 / 6: listen, whisper, barge.
    if (this.spying) {
      const mode = SPY_KEYS[d];
      if (mode && this.rtpA) this.spying.setSpyMode(this.rtpA, mode);
      return;
    }
    if (this.stopRecording) {
      if (d === '#') this.stopRecording();
      return;
    }
    this.digits.push(d);
    this.interruptPlayback?.('digit');
    const w = this.digitWaiter;
    this.digitWaiter = null;
    w?.(d);
  }

  /** The next digit within `ms`, or null. */
  private nextDigit(ms: number): Promise<string | null> {
    if (this.digits.length) return Promise.resolve(this.digits.shift()!);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.digitWaiter = null;
        resolve(null);
      }, ms);
      this.digitWaiter = () => {
        clearTimeout(timer);
        resolve(this.digits.shift() ?? null);
      };
    });
  }

  private async ivr(step: Extract<MediaStep, { kind: 'ivr' }>): Promise<void> {
    const greeting = await this.clipsOf([step.greetingId]);
    const prompt = greeting.length ? greeting : [DEFAULT_PROMPT];
    for (let attempt = 0; !this.ended; attempt++) {
      this.digits.length = 0;
      const played = await this.playClips(prompt, true);
      if (played === 'hangup') return;
      let typed = await this.nextDigit(step.timeout * 1000);
      if (typed !== null && step.direct_dial) {
        for (let more = await this.nextDigit(INTER_DIGIT_MS); more !== null; more = await this.nextDigit(INTER_DIGIT_MS)) typed += more;
      }
      if (this.ended) return;
      if (typed === null) {
        if (attempt >= step.retries) return this.moveOn({ kind: 'timeout' }, true);
        continue;
      }
      const r = await this.next({ kind: 'digits', digits: typed });
      if (r.token) return this.dial(r.token, true, { csat: r.csat }).then((o) => (o === 'answered' ? undefined : this.hangup()));
      if (!r.invalid) return this.hangup();
      this.ctx.log(`call ${this.callId}: IVR ${step.ivrId} invalid choice ${typed}`);
      if (attempt >= step.retries) return this.moveOn({ kind: 'invalid' }, true);
      await this.playClips([INVALID_TONE]);
    }
  }

  // --- Queue ---

  private async queue(step: Extract<MediaStep, { kind: 'queue' }>): Promise<void> {
    const [join, moh] = await Promise.all([this.clipsOf([step.join_greeting_id]), this.clipsOf(step.moh_audio_ids)]);
    this.rtpA?.play(new AudioSource(moh.length ? moh : [DEFAULT_MOH], true, join));
    const deadline = Date.now() + step.max_wait * 1000;
    const timer = setTimeout(() => this.b?.state === 'calling' && this.cancelB(), Math.max(0, deadline - Date.now()));
    try {
      while (!this.ended && Date.now() < deadline) {
        const r = await this.next({ kind: 'queue_agents' });
        if (r.token) {
          const outcome = await this.dial(r.token, false, { csat: r.csat });
          if (outcome === 'answered') return;
        }
        await sleep(Math.min(QUEUE_RETRY_MS, Math.max(0, deadline - Date.now())));
      }
    } finally {
      clearTimeout(timer);
    }
    if (!this.ended) return this.moveOn({ kind: 'queue_timeout' }, true);
  }

  // --- Moving the caller on ---

  /** Asks where the caller goes now and calls it; hangs up when the plan ends there. */
  private async moveOn(choice: Choice, ringback: boolean): Promise<void> {
    if (this.ended) return;
    const r = await this.next(choice);
    if (!r.token) return this.hangup();
    const outcome = await this.dial(r.token, ringback, { csat: r.csat });
    if (outcome !== 'answered') this.hangup();
  }

  /**
   * Places leg B through Kamailio to a continuation the API prepared; bridges it on answer. `csat`:
   * the continuation's (MediaContinue.csat), kept with the leg for when its callee hangs up.
   */
  private async dial(token: string, ringback: boolean, o: { csat?: boolean; onFailure?: (status: number) => void } = {}): Promise<Outcome> {
    const { ep, proxy } = this.ctx;
    if (this.ended) return 'cancelled';
    const rtp = await RtpSession.open(ep.bindAddress);
    const callId = `${randomToken(16)}@tongdai-media`;
    const tag = newTag();
    const caller = /^[+0-9A-Za-z._-]{1,64}$/.test(this.session!.caller) ? this.session!.caller : 'anonymous';
    const invite: SipRequest = {
      kind: 'request',
      method: 'INVITE',
      uri: `sip:${token}@${proxy.address}:${proxy.port}`,
      headers: [
        ['via', ep.via()],
        ['from', `<sip:${caller}@${ep.address}>;tag=${tag}`],
        ['to', `<sip:${token}@${proxy.address}>`],
        ['call-id', callId],
        ['cseq', '1 INVITE'],
        ['contact', `<sip:media@${ep.address}:${ep.port}>`],
        ['max-forwards', '70'],
        ['x-tongdai-continue', token],
        ...(this.mayPause('b') ? [recordingMark()] : []),
        ['content-type', 'application/sdp'],
      ],
      body: buildSdp({ address: ep.address, port: rtp.port, sessionId: Date.now() }),
    };
    this.ctx.track({ callId, localTag: tag }, this);
    return new Promise<Outcome>((resolve) => {
      const leg: OutLeg = { invite, tag, rtp, dialog: null, state: 'calling', csat: o.csat === true, done: (outcome) => {
        if (outcome !== 'answered') o.onFailure?.(leg.status ?? 0);
        resolve(outcome);
      } };
      this.b = leg;
      if (ringback) this.rtpA?.play(new AudioSource([RINGBACK], true));
      ep.send(invite, proxy, {
        onResponse: (res) => this.onBResponse(leg, res),
        onTimeout: () => this.endB(leg, 'failed'),
      });
    });
  }

  private onBResponse(leg: OutLeg, res: SipResponse): void {
    if (res.status < 200) return this.earlyMedia(leg, res);
    if (res.status >= 300) {
      leg.status = res.status;
      return this.endB(leg, leg.state === 'ended' ? 'cancelled' : 'failed');
    }
    const first = !leg.dialog;
    leg.dialog ??= Dialog.asUac(this.ctx.ep, leg.invite, res);
    leg.dialog.ack(cseq(leg.invite).seq);
    if (!first) return;
    if (this.ended || leg.state === 'ended' || this.b !== leg) {
      leg.dialog.send('BYE');
      return this.endB(leg, 'cancelled');
    }
    const answer = parseSdp(res.body);
    if (answer) {
      leg.rtp.peer = answer.peer;
      leg.rtp.dtmfPayloadType = answer.dtmf;
    }
    leg.state = 'answered';
    leg.media = header(res, MEDIA_ANSWER_HEADER);
    if (!leg.media) this.reachedPerson = true;
    // From the answer on, each party must keep sending (a queue's caller may have waited minutes).
    leg.rtp.lastPacketAt = Date.now();
    if (this.rtpA) this.rtpA.lastPacketAt = Math.max(this.rtpA.lastPacketAt, Date.now() - 5000);
    this.watchParties();
    // A bridge answers its caller only now.
    if (!this.dialogA) this.answerA(this.rtpA?.dtmfPayloadType ?? null);
    if (this.rtpA) this.rtpA.bridge(leg.rtp);
    this.startRecording(leg.rtp);
    leg.done('answered');
  }

  /**
   * A bridge still ringing its callee: the callee's early media (a carrier's ringback, "the number
   * you called is not available") reaches the caller — 183 with our SDP, the legs' packets crossing
   * from now on. The call is answered (and recorded, and billed) only on the callee's 200.
   */
  private earlyMedia(leg: OutLeg, res: SipResponse): void {
    if (this.earlyBridged || this.dialogA || this.session?.step.kind !== 'bridge' || this.b !== leg || leg.state !== 'calling' || !this.rtpA) return;
    const sdp = res.status === 183 || res.status === 180 ? parseSdp(res.body) : null;
    if (!sdp) return;
    this.earlyBridged = true;
    leg.rtp.peer = sdp.peer;
    leg.rtp.dtmfPayloadType = sdp.dtmf;
    const { ep } = this.ctx;
    const body = buildSdp({ address: ep.address, port: this.rtpA.port, dtmf: this.rtpA.dtmfPayloadType, sessionId: this.sdpSessionA });
    ep.respond(this.invite, this.from, 183, 'Session Progress', [['x-to-tag', this.tagA], ['contact', `<sip:media@${ep.address}:${ep.port}>`], ['content-type', 'application/sdp']], body);
    this.rtpA.bridge(leg.rtp);
  }

  /**
   * A party that sends nothing for RTP_TIMEOUT_MS (a browser closed, a phone unplugged, a network
   * gone: no BYE will ever come) ends the call, as Asterisk's rtptimeout does — the other party
   * and any supervisor are not left in a dead call. A party on hold is not expected to send.
   */
  private watchParties(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      const legs = [this.rtpA, this.b?.state === 'answered' ? this.b.rtp : null];
      if (this.ended || !legs[1]) return;
      if (silentLeg(legs, Date.now(), RTP_TIMEOUT_MS)) {
        this.ctx.log(`call ${this.callId}: no RTP for ${RTP_TIMEOUT_MS / 1000} s from a party: hung up`);
        this.hangup();
      }
    }, 5000);
    this.watchdog.unref();
  }

  private endB(leg: OutLeg, outcome: Outcome): void {
    const wasAnswered = leg.state === 'answered';
    leg.state = 'ended';
    leg.rtp.close();
    this.ctx.track({ callId: header(leg.invite, 'call-id')!, localTag: leg.tag }, null);
    if (this.b === leg) this.b = null;
    leg.done(outcome);
    // The callee hung up after talking: the call is over for the caller too.
    if (wasAnswered) this.hangup();
  }

  private cancelB(): void {
    const leg = this.b;
    if (!leg) return;
    if (leg.state === 'calling') {
      leg.state = 'ended';
      this.ctx.ep.cancel(leg.invite, this.ctx.proxy);
    } else if (leg.state === 'answered' && leg.dialog) {
      leg.dialog.send('BYE');
      this.endB(leg, 'cancelled');
    }
  }

  // --- Post-call CSAT (issue 34) ---

  /**
   * The agent hung up a queue call whose queue asks its callers to rate the call: instead of the
   * caller's BYE, the question (a key cuts it short) and CSAT_WAIT_MS for a key from 1 to 5, the
   * question once more when none came; the score goes to the API, the caller hears the thanks and
   * the call ends. A caller who hangs up first, or never presses a valid key, gives no score.
   */
  private async rateCall(): Promise<void> {
    if (this.ended || !this.dialogA || !this.rtpA) return this.hangup();
    // What is recorded is the caller with the agent: the recording ends with the agent's leg, as when the call ended there.
    this.finishRecording();
    // Supervisors listened to a conversation that is over; the caller is bridged to nobody now.
    for (const spy of [...this.spies]) spy.hangup();
    this.mixer?.close();
    this.mixer = null;
    this.rtpA.unbridge();
    // Keys pressed while talking to the agent (an account number…) are not a rating.
    this.digits.length = 0;
    let score: number | null = null;
    for (let round = 0; round < 2 && score === null; round++) {
      if ((await this.playClips([CSAT_PROMPTS.ask], true)) === 'hangup') return;
      score = await this.csatKey();
      if (this.ended) return;
    }
    // Not awaited: the thanks need not wait on the API, and a failure is the log's, not the caller's.
    if (score !== null) this.ctx.api.csat(this.callId, this.stepNo, score).catch((e) => this.ctx.log(`csat ${this.callId}: ${e instanceof Error ? e.message : e}`));
    if ((await this.playClips([CSAT_PROMPTS.thanks])) === 'hangup') return;
    this.hangup();
  }

  /** The first key from CSAT_SCORE.min to .max within CSAT_WAIT_MS (other keys are passed over), or null. */
  private async csatKey(): Promise<number | null> {
    const until = Date.now() + CSAT_WAIT_MS;
    for (let d = await this.nextDigit(CSAT_WAIT_MS); d !== null && !this.ended; d = await this.nextDigit(until - Date.now())) {
      const score = Number(d);
      if (/^\d$/.test(d) && score >= CSAT_SCORE.min && score <= CSAT_SCORE.max) return score;
    }
    return null;
  }

  // --- Requests inside the call's dialogs ---

  onRequest(req: SipRequest, from: Remote): void {
    const { ep } = this.ctx;
    const isA = header(req, 'call-id') === this.callId;
    switch (req.method) {
      case 'ACK':
        return;
      case 'CANCEL':
        ep.respond(req, from, 200, 'OK');
        if (isA && !this.dialogA) {
          ep.respond(this.invite, this.from, 487, 'Request Terminated', [['x-to-tag', this.tagA]]);
          this.ended = true;
          // A bridge still ringing the other side: that ringing stops too.
          this.cancelB();
          this.cleanup();
        }
        return;
      case 'BYE':
        ep.respond(req, from, 200, 'OK');
        if (isA) {
          this.ended = true;
          this.cancelB();
          this.cleanup();
        } else if (this.b) {
          const leg = this.b;
          // Only a callee who answered and talked has a call to rate (a BYE is never the answer to a ringing leg);
          // a worker's voicemail, IVR or announcement that took the leg and reached nobody is nobody to rate (ADR 0056).
          const byNobody = leg.media !== undefined && header(req, MEDIA_ANSWER_HEADER) !== undefined;
          if (leg.state === 'answered' && !byNobody) this.reachedPerson = true;
          const rate = leg.csat && leg.state === 'answered' && !byNobody;
          leg.state = 'ended';
          this.endB(leg, 'cancelled');
          if (!rate) this.hangup();
          else
            this.rateCall().catch((e) => {
              this.ctx.log(`csat ${this.callId}: ${e instanceof Error ? e.stack : e}`);
              this.hangup();
            });
        }
        return;
      case 'INFO': {
        ep.respond(req, from, 200, 'OK');
        // An agent pausing or resuming the recording (payment details): never passed on.
        const asked = recordingInfo(req);
        if (asked) {
          if (asked !== 'other' && this.mayPause(isA ? 'a' : 'b')) this.recording?.pause(asked === 'pause');
          return;
        }
        const digit = infoDigit(header(req, 'content-type') ?? '', req.body);
        if (!digit) return;
        // Bridged: the other side gets the key as it was sent (an agent's IVR, a carrier's menu).
        if (this.b?.state === 'answered' && this.b.dialog && isA) this.b.dialog.send('INFO', [['content-type', header(req, 'content-type')!]], req.body);
        else if (isA) this.onDigit(digit);
        return;
      }
      case 'INVITE': {
        // Re-INVITE (hold/resume, session refresh): same media, same answer.
        const rtp = isA ? this.rtpA : this.b?.rtp;
        const offer = parseSdp(req.body);
        if (rtp && offer) rtp.peer = offer.peer;
        if (rtp && offer) rtp.held = /^a=(sendonly|inactive)\s*$/m.test(req.body);
        if (!rtp) return void ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
        const dialog = isA ? this.dialogA : this.b?.dialog;
        const localTag = dialog ? /tag=([^;>\s]+)/.exec(dialog.local)?.[1] : undefined;
        ep.respond(req, from, 200, 'OK', [...(localTag ? [['x-to-tag', localTag] as [string, string]] : []), ['contact', `<sip:media@${ep.address}:${ep.port}>`], ['content-type', 'application/sdp']], buildSdp({ address: ep.address, port: rtp.port, sessionId: Date.now() }));
        return;
      }
      case 'UPDATE':
      case 'OPTIONS':
        return void ep.respond(req, from, 200, 'OK');
      default:
        ep.respond(req, from, 405, 'Method Not Allowed');
    }
  }

  /** Ends the call from our side: BYE to whoever is connected. */
  hangup(): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelB();
    this.dialogA?.send('BYE', this.answeredAs && !this.reachedPerson ? [[MEDIA_ANSWER_HEADER, this.answeredAs]] : []);
    this.cleanup();
  }

  private cleanup(): void {
    this.ended = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.spying?.leave(this, this.rtpA);
    this.spying = null;
    // The call ends for its supervisors too.
    for (const spy of [...this.spies]) spy.hangup();
    this.spies.clear();
    this.mixer = null;
    this.interruptPlayback?.('hangup');
    // A wait for a key ends with the call, not at its timeout (nothing is queued: a key would have ended it).
    const waiter = this.digitWaiter;
    this.digitWaiter = null;
    this.digits.length = 0;
    waiter?.('');
    this.stopRecording?.();
    this.finishRecording();
    this.rtpA?.close();
    this.ctx.track(this.dialogKeyA, null);
  }
}

/** A bridged party silent this long (no packet at all, not on hold) is gone (MEDIA_RTP_TIMEOUT_S, default 60 s). */
const RTP_TIMEOUT_MS = (Number(process.env.MEDIA_RTP_TIMEOUT_S) || 60) * 1000;

/** Whether one of the bridged legs has sent nothing for `timeoutMs` without being on hold. */
export function silentLeg(legs: readonly (Pick<RtpSession, 'lastPacketAt' | 'held'> | null | undefined)[], now: number, timeoutMs: number): boolean {
  return legs.some((l) => !!l && !l.held && now - l.lastPacketAt > timeoutMs);
}

const REASONS: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 480: 'Temporarily Unavailable', 486: 'Busy Here', 487: 'Request Terminated', 603: 'Decline' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
