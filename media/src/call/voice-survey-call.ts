import { VOICE_INPUT_S, type DialerReportAnswer, type VoiceAnswer, type VoiceQuestion, type VoiceSurveyJob } from '@tongdai/contracts';
import type { AudioLibrary } from '../audio/library';
import { prepareSpeech, REPEAT_TEXT } from '../audio/speech';
import type { Remote } from '../sip/endpoint';
import type { SipRequest } from '../sip/message';
import type { DialerCallReport } from './dialer-call';
import { PlacedLeg, secondsSince, type PlacedCallContext, type Unanswered, orderedReports } from './placed-leg';

export type { VoiceSurveyJob };

/** A number question's answer is at most this many digits (a phone number, an amount). */
export const VOICE_NUMBER_MAX_DIGITS = 15;

interface Prompts {
  intro: Int16Array;
  questions: Int16Array[];
  thanks: Int16Array;
  repeat: Int16Array;
}

/** Whether `keys` answer `q` (a number's digits without the "#"). */
export function validAnswer(q: VoiceQuestion, keys: string): boolean {
  switch (q.kind) {
    case 'rating':
      return /^[1-5]$/.test(keys);
    case 'yes_no':
      return keys === '1' || keys === '2';
    case 'single':
      return /^[1-9]$/.test(keys) && Number(keys) <= q.options;
    case 'number':
      return /^[0-9]+$/.test(keys) && keys.length <= VOICE_NUMBER_MAX_DIGITS;
  }
}

/** Where a question's recording comes from: the worker's greetings (AudioLibrary: fetched once, kept a minute). */
export type Recordings = Pick<AudioLibrary, 'get'>;

/**
 * An automated voice survey's call (issue 34): no agent. Every prompt is prepared before the call is
 * placed (a contact who answers must not wait on espeak-ng nor on a download): a question with a
 * recording (`audio_id`) plays that uploaded file, fetched and decoded as an IVR's greeting is (a file
 * that cannot be fetched or played: its text is spoken, and logged); the others, the intro, the repeat
 * phrase and the thanks are spoken. Then leg A rings the contact like a
 * dialer call and reports like one (`answered` with its Call-ID, the API's bridge ignored). The
 * contact hears the intro, each question (a key during its prompt cuts it short; after it,
 * VOICE_INPUT_S to press one; no key or a wrong one: the repeat phrase and the prompt once more,
 * then the question is left unanswered), the thanks, and is hung up on. The last report is
 * `completed` with every question's keys, also when the contact hangs up first (the rest null).
 */
export class VoiceSurveyCall {
  private readonly a: PlacedLeg;
  private state: 'preparing' | 'ringing' | 'answered' | 'ended' = 'preparing';
  private answeredAt = 0;
  /** The job's arrival, then the INVITE's time once sent (what the log's times count from). */
  private startedAt = Date.now();
  /** Reports in order: each is sent once the one before it was answered (or given up). */
  private readonly send = orderedReports((r: DialerCallReport) => this.report(r), (what) => this.note(what));
  /** Spoken before the INVITE. */
  private prompts: Prompts | null = null;
  private readonly answers: (string | null)[];
  /** Keys pressed while a question listens, not yet read. */
  private keys: string[] = [];
  /** Whether a question is being asked: keys at any other time (intro, thanks) belong to nobody. */
  private listening = false;
  /** Wakes whoever waits on the next key (also on the call's end). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly ctx: PlacedCallContext,
    private readonly job: VoiceSurveyJob,
    private readonly report: (r: DialerCallReport) => Promise<DialerReportAnswer | null>,
    private readonly recordings: Recordings,
  ) {
    this.answers = job.questions.map(() => null);
    this.a = new PlacedLeg(
      ctx,
      this,
      { token: job.token, caller: job.caller, ringS: job.ring_s, callIdHost: 'tongdai-media-voice' },
      {
        answered: () => void this.onAnswer(),
        unanswered: (outcome, status) => this.end(outcome, status),
        hungUp: () => {
          this.note('the contact hung up');
          this.end('completed');
        },
        digit: (d) => this.onDigit(d),
      },
      (what) => this.note(what),
    );
  }

  /** Leg A's "Call-ID our-tag". */
  get key(): string {
    return this.a.key;
  }

  /** Prepares every prompt (speech, or a question's recording), then places the call (unless the worker stopped it meanwhile). */
  async start(): Promise<void> {
    const log = (m: string) => this.ctx.log(m);
    const [[intro, thanks, repeat], questions] = await Promise.all([
      Promise.all([this.job.intro, this.job.thanks, REPEAT_TEXT].map((t) => prepareSpeech(t, log))),
      Promise.all(this.job.questions.map((q) => this.questionPrompt(q, log))),
    ]);
    if (this.state !== 'preparing') return;
    this.prompts = { intro, thanks, repeat, questions };
    this.note(`${questions.length} questions prepared: INVITE`);
    this.startedAt = Date.now();
    this.state = 'ringing';
    try {
      await this.a.start();
    } catch (e) {
      // The attempt must still end, and say so: never left claimed with no report.
      this.end('failed');
      throw e;
    }
  }

  /**
   * A question's prompt: its recording when it has one the worker can play, else speech of `say`. A call
   * never fails for a recording: one missing, refused or undecodable is logged and the text is spoken.
   */
  private async questionPrompt(q: VoiceQuestion, log: (m: string) => void): Promise<Int16Array> {
    // (A job from an API before recordings has no audio_id: spoken.)
    if (q.audio_id != null) {
      const clip = await this.recordings.get(this.job.tenant_id, q.audio_id).catch(() => null);
      if (clip?.length) return clip;
      this.note(`question ${q.question_id}: recording ${q.audio_id} could not be fetched or played: its text is spoken`);
    }
    return prepareSpeech(q.say, log);
  }

  /** The contact answered: `answered` is reported (and awaited: the API records the call first), then the survey. */
  private async onAnswer(): Promise<void> {
    if (this.state !== 'ringing') return;
    this.state = 'answered';
    this.answeredAt = Date.now();
    const answer = await this.send({ outcome: 'answered', call_id: this.a.callId });
    if (this.state !== 'answered') return;
    // No bridge for a survey: whatever the API said (or did not say in time), the questions follow.
    if (!answer) this.note('the API did not answer `answered`: the survey goes on');
    try {
      await this.run();
    } catch (e) {
      // The call must still end, and say so: never left answered for good.
      this.note(`survey failed: ${e instanceof Error ? e.message : e}`);
      this.end('completed');
    }
  }

  private async run(): Promise<void> {
    const p = this.prompts!;
    this.note('intro');
    if (!(await this.say(p.intro))) return;
    for (const [i, q] of this.job.questions.entries()) {
      const keys = await this.ask(q, p.questions[i], p.repeat);
      if (this.state !== 'answered') return;
      this.answers[i] = keys;
      this.note(`question ${q.question_id}: ${keys === null ? 'no valid answer' : `answered ${keys}`}`);
    }
    this.note('thanks');
    if (!(await this.say(p.thanks))) return;
    this.end('completed');
  }

  /** Plays a clip nobody can cut short; false when the call ended meanwhile. */
  private async say(clip: Int16Array): Promise<boolean> {
    if (clip.length) await this.a.play(clip);
    return this.state === 'answered';
  }

  /**
   * One question: its prompt and the wait for a key; no valid answer, the repeat phrase and both once
   * more. Keys pressed before it starts belong to nobody. null: left unanswered (or the call ended).
   */
  private async ask(q: VoiceQuestion, prompt: Int16Array, repeat: Int16Array): Promise<string | null> {
    for (const clips of [[prompt], [repeat, prompt]]) {
      this.keys = [];
      this.listening = true;
      this.note(`question ${q.question_id}: ${clips.length > 1 ? 'asked again' : 'asked'}`);
      const keys = await this.listen(q, clips);
      this.listening = false;
      if (this.state !== 'answered') return null;
      if (keys !== null && validAnswer(q, keys)) return keys;
      this.note(`question ${q.question_id}: ${keys === null ? 'no key' : `invalid input ${keys}`}`);
    }
    return null;
  }

  /**
   * The clips (cut short by a key), then the keys: one for a choice, digits up to "#" or a pause of
   * VOICE_INPUT_S for a number. null: no key at all.
   */
  private async listen(q: VoiceQuestion, clips: Int16Array[]): Promise<string | null> {
    for (const clip of clips) {
      if (this.keys.length || this.state !== 'answered') break;
      if (clip.length) await this.a.play(clip);
    }
    if (this.state !== 'answered') return null;
    this.note(`question ${q.question_id}: waiting for a key`);
    const first = await this.nextKey();
    if (first === null || q.kind !== 'number') return first;
    let digits = '';
    for (let k: string | null = first; k !== null; k = await this.nextKey()) {
      if (k === '#') return digits || '#';
      // Returned as typed: validAnswer turns away a "*" or a number too long.
      if (!/^[0-9]$/.test(k) || digits.length === VOICE_NUMBER_MAX_DIGITS) return digits + k;
      digits += k;
    }
    // A pause after the digits ends the number as "#" would.
    return this.state === 'answered' ? digits : null;
  }

  /** The next key pressed, waiting at most VOICE_INPUT_S; null when none came (or the call ended). */
  private async nextKey(): Promise<string | null> {
    if (!this.keys.length && this.state === 'answered') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), VOICE_INPUT_S * 1000);
        const done = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
        this.wake = done;
      });
    }
    return this.state === 'answered' ? (this.keys.shift() ?? null) : null;
  }

  private onDigit(d: string): void {
    if (this.state !== 'answered' || !this.listening) return this.note(`key ${d} ignored: no question asked`);
    this.note(`key ${d}`);
    this.keys.push(d);
    // A key during the prompt: the contact knows the answer, the prompt stops there.
    this.a.stopPlaying();
    this.wake?.();
  }

  /** A request inside the call's dialog: the contact's BYE, or a key by SIP INFO. */
  onRequest(req: SipRequest, from: Remote): void {
    this.a.onRequest(req, from);
  }

  private end(outcome: 'completed' | Unanswered, status?: number): void {
    if (this.state === 'ended') return;
    const wasAnswered = this.state === 'answered';
    this.state = 'ended';
    this.a.hangUp();
    this.wake?.();
    this.note(`${outcome}${status ? ` (${status})` : ''}`);
    const answers: VoiceAnswer[] = this.job.questions.map((q, i) => ({ question_id: q.question_id, keys: this.answers[i] }));
    void this.send({ outcome, duration_s: secondsSince(this.answeredAt), ...(status ? { status } : {}), ...(wasAnswered ? { answers } : {}) });
  }

  /** The worker stops: answered, `completed` with the answers so far; not yet, `failed`. */
  stop(): void {
    this.end(this.state === 'answered' ? 'completed' : 'failed');
  }


  /** The worker's log, with the time since the INVITE (what a stuck call's log must show). */
  private note(what: string): void {
    this.ctx.log(`voice ${this.job.id} +${Date.now() - this.startedAt} ms: ${what}`);
  }
}
