import type { ClickToCallJob } from './crm-calls';
import type { SpyMode } from './spy';

/**
 * Between the API and the media worker (docs/adr/0012-media-worker.md): what a media step asks
 * the worker to do, and the choices it reports when the caller moves on.
 */

/** Where the caller goes after a media step: the API answers with a plan the worker dials. */
export type MediaChoice =
  | { kind: 'next' }
  | { kind: 'digits'; digits: string }
  | { kind: 'timeout' }
  | { kind: 'invalid' }
  | { kind: 'queue_agents' }
  | { kind: 'queue_timeout' };

/** The worker's part of a routing-plan step (no destinations: those stay in the API). */
export type MediaStep =
  | { kind: 'play'; audioIds: number[] }
  | { kind: 'ivr'; ivrId: number; greetingId: number | null; timeout: number; retries: number; entries: { digit: string }[]; direct_dial: boolean }
  | { kind: 'queue'; queueId: number; join_greeting_id: number | null; moh_audio_ids: number[]; max_wait: number; agent_timeout: number }
  /**
   * Record a message in `mailbox` (an extension's digits, or group-<id>): its greeting (none: the
   * default prompt), a beep, then the caller until they hang up, press # or `max_seconds` pass.
   */
  | { kind: 'voicemail'; mailbox: string; greeting_id: number | null; max_seconds: number }
  /**
   * A call that must be recorded and would not otherwise pass through the worker (issue 16): the
   * worker rings (180) without answering, places leg B to the rest of the plan, answers the caller
   * when B answers and stays between them, recording; B's failure is the caller's.
   */
  | { kind: 'bridge' }
  /**
   * A supervisor's call (ADR 0042): the worker answers it and mixes it into its call `call_id` (one of
   * the Call-IDs it holds); `leg` is the agent's side of that call ('a': the leg that reached the
   * worker, 'b': the leg it placed), who alone hears a whisper.
   */
  | { kind: 'spy'; mode: SpyMode; call_id: string; leg: 'a' | 'b' }
  /**
   * A phone dialled a voicemail feature code (*97 its own mailbox, *98 another, *96<id> a ring group's): the menu. `mailbox`
   * null: ask for it. The API says whether a PIN is needed and checks it (POST media/mailbox).
   */
  | { kind: 'mailbox'; mailbox: string | null };

/** GET /internal/sip/media/session. */
export interface MediaSession {
  call_id: string;
  tenant_id: number;
  domain: string;
  caller: string;
  step: MediaStep;
  /** Steps of the plan after this one (play → go on with them). */
  has_next: boolean;
  /**
   * The call whose record a message left here belongs to: this call, or the call a leg was placed
   * for (a recorded call's callee sent to voicemail, an IVR's choice), so its history shows it (issue 30).
   */
  record_call_id?: string;
  /**
   * Present when the call is recorded once its caller is bridged to whoever answers: a ticket the
   * API signed for this call and tenant, sent back with the recording (POST /internal/sip/media/recording).
   */
  record_ticket?: string | null;
  /** The call's direction: who may pause its recording (the agent: callee of an inbound call, caller of an outbound one, either of an internal one). */
  direction?: 'inbound' | 'outbound' | 'internal';
}

/** POST /internal/sip/media/continue: a token to dial, none (hang up), or digits leading nowhere. */
export interface MediaContinue {
  token: string | null;
  invalid?: boolean;
  /**
   * The leg to `token` is recorded though the call was not (its session had no ticket): after an
   * IVR, the extension or queue reached records (issue 16). The worker records from that leg's answer.
   */
  record_ticket?: string | null;
  /**
   * Post-call CSAT (issue 34, ADR 0056): the leg to `token` rings a queue's agents and the queue asks its
   * callers to rate the call, or it is the rest of a plan (a bridge's) or an IVR's way on to an extension or
   * a number outside, and the inbound route the call came in through asks. Once that leg was answered
   * and the person it reached hangs up, the worker keeps the caller, says
   * CSAT's question ("bấm 1 đến 5"), takes one key, reports it (POST /internal/sip/media/csat), thanks
   * them and hangs up. The caller hanging up first, or no key: nothing is reported.
   */
  csat?: boolean;
}

/** Post-call CSAT's one question is answered with a key from 1 (very unhappy) to 5 (very happy). */
export const CSAT_SCORE = { min: 1, max: 5 } as const;

/** POST /internal/sip/media/csat: the score the caller of this media session (its Call-ID and step) gave the call. */
export interface CsatReport {
  call_id: string;
  step: number;
  score: number;
}

/** POST /internal/sip/media/mailbox: open a mailbox for the call (the PIN when asked). */
export interface MailboxOpen {
  call_id: string;
  step: number;
  mailbox: string;
  pin: string | null;
}

/** The opened mailbox's messages, new ones first (newest first in each), or why not. */
export type MailboxOpened = { messages: { id: number; heard: boolean }[] } | { error: 'PIN_REQUIRED' | 'WRONG' };

/**
 * A call the worker places itself (issue 35, ADR 0052): the API handed it a continuation token for
 * the plan "out through the hotline's switchboard to this number"; the INVITE goes to Kamailio like
 * any leg the worker places, rings for at most `ringS` (then CANCEL: no answer), and on the answer
 * the say-digits step speaks the code twice and hangs up. What happens is reported as it happens.
 */
export interface OriginateJob {
  /** Absent or 'otp': a voice-OTP call (a dialer's call says 'dialer', DialerJob). */
  kind?: 'otp';
  /** The verification's id (the API's), echoed in each report. */
  id: string;
  tenant_id: number;
  /** Which call of the verification this is (1, then 2 for the retry), echoed in each report. */
  attempt: number;
  /** sip:<token>@proxy: the plan the API prepared. */
  token: string;
  /** The hotline shown as the caller (From's user; the plan sets the caller ID the carrier sees). */
  caller: string;
  code: string;
  ring_s: number;
}

/**
 * A campaign call the dialer places (issue 34, ADR 0055): out through the campaign's hotline to the
 * contact (`token`, planned like an OTP call), rung at most `ring_s`; on the answer the worker reports
 * `answered` with leg A's Call-ID and is told where to bridge it (DialerBridge: the agent's extension),
 * or that nobody is there (it plays the "we will call you back" message and hangs up: `abandoned`).
 */
export interface DialerJob {
  kind: 'dialer';
  /** The campaign attempt's id (campaign_attempts.id), echoed in each report. */
  id: string;
  tenant_id: number;
  /** Always 1: an attempt is one call (a retry is a new attempt). */
  attempt: number;
  token: string;
  /** The campaign's hotline (From's user; the plan sets the caller ID the carrier sees). */
  caller: string;
  ring_s: number;
  campaign_id: number;
  contact_id: number;
}

/** The question kinds an automated voice survey can ask: each is answered with the phone's keys. */
export const VOICE_QUESTION_KINDS = ['rating', 'yes_no', 'single', 'number'] as const;
export type VoiceQuestionKind = (typeof VOICE_QUESTION_KINDS)[number];
/** A single-choice question said on the phone offers at most this many options (keys 1–9). */
export const VOICE_MAX_OPTIONS = 9;

/** One question as an automated voice survey asks it (issue 34): what is said, and which keys answer it. */
export interface VoiceQuestion {
  question_id: number;
  kind: VoiceQuestionKind;
  /** The question's text followed by how to answer it, in Vietnamese (voiceQuestionPrompt). */
  say: string;
  /** `single`: its options' count (keys 1…options); 0 for the other kinds. */
  options: number;
  /**
   * The question's recording (survey_questions.voice_audio_id, one of the tenant's greetings): played as the
   * prompt instead of `say`, fetched like an IVR's greeting before the call is placed; null, or a file the
   * worker cannot fetch or decode: `say` is spoken.
   */
  audio_id: number | null;
}

/**
 * An automated voice survey's call (issue 34): no agent. The worker prepares every prompt before it
 * places the call (speech prepared ahead, never during the call; a question's uploaded recording fetched), rings the contact like a dialer call
 * (its reports are a dialer call's, DialerReport with kind 'dialer': `answered` with leg A's Call-ID, answered with no bridge), says `intro`, then asks
 * each question — the prompt, up to VOICE_INPUT_S for a key (a key during the prompt cuts it short),
 * said again once on no or a wrong input, else unanswered — says `thanks` and hangs up. The last report,
 * `completed` (also when the contact hung up before the end: the questions not reached have keys null),
 * carries the keys pressed.
 */
export interface VoiceSurveyJob extends Omit<DialerJob, 'kind'> {
  kind: 'voice';
  intro: string;
  questions: VoiceQuestion[];
  thanks: string;
}
/** How long the survey waits for a key after a question's prompt (and between a number's digits). */
export const VOICE_INPUT_S = 6;

/** One question's keys as the contact pressed them ("4"; a number's digits without the "#"); null: no valid input. */
export interface VoiceAnswer {
  question_id: number;
  keys: string | null;
}

/** What is said for a question: its text, then the keys that answer it. */
export function voiceQuestionPrompt(q: { kind: VoiceQuestionKind; text: string; options: readonly string[] }): string {
  const text = q.text.trim().replace(/[.?!:;,\s]*$/, '');
  switch (q.kind) {
    case 'rating':
      return `${text}? Xin bấm một phím từ 1 đến 5.`;
    case 'yes_no':
      return `${text}? Bấm phím 1 nếu có, phím 2 nếu không.`;
    case 'single':
      return `${text}? ${q.options.map((o, i) => `Bấm phím ${i + 1} cho ${o}`).join(', ')}.`;
    case 'number':
      return `${text}? Xin nhập số, rồi bấm phím thăng.`;
  }
}

/** Either kind of call the worker places itself. */
export type PlacedJob = OriginateJob | DialerJob | VoiceSurveyJob | ClickToCallJob;

/**
 * What a dialer call reports, in order: `answered` (the contact picked up), then `bridged` (the agent
 * answered too) or `abandoned` (no agent took it: the contact heard the message, or hung up first),
 * then `completed` once a bridged call ends; or, unanswered, `no_answer` / `busy` / `failed`.
 */
export const DIALER_OUTCOMES = ['answered', 'bridged', 'abandoned', 'completed', 'no_answer', 'busy', 'failed'] as const;
export type DialerOutcome = (typeof DIALER_OUTCOMES)[number];

/** The API's answer to `answered`: ring this continuation (the agent's extension) and bridge it, for at most `ring_s`. */
export interface DialerBridge {
  token: string;
  ring_s: number;
  /** The contact's number as the agent may see it (masked when the tenant hides numbers): the agent leg's From. */
  caller: string;
  /** Sent on the agent's leg as X-Tongdai-Campaign: "<campaign id>;contact=<contact id>" (the softphone opens the contact). */
  campaign: string;
  /**
   * Present (not null) when the call is recorded (issue 16, ADR 0041 "The dialer's calls"): the agent's
   * extension's own recording mode, else the tenant's, records outbound calls (a dialer call is the agent's
   * outbound call). A ticket the API signed for the call's record — leg A's Call-ID, the `answered` report's
   * `call_id` — and tenant, sent back with the recording (POST /internal/sip/media/recording). The worker
   * then records from the bridge to the first hang-up (the contact on the left channel, the agent on the
   * right), marks the agent's INVITE X-Tongdai-Recording: on and obeys the agent's pause / resume INFO.
   */
  record_ticket?: string | null;
}

/** The header a dialer call's agent leg carries (the softphone answers it at once and shows the contact). */
export const DIALER_CAMPAIGN_HEADER = 'X-Tongdai-Campaign';

/** A dialer call's report (POST /internal/sip/media/originated with kind 'dialer'). */
export interface DialerReport {
  kind: 'dialer';
  id: string;
  tenant_id: number;
  attempt: number;
  outcome: DialerOutcome;
  /** With `answered`: leg A's Call-ID (the call record the agent's leg joins). */
  call_id?: string;
  /** With the last report: seconds since the contact answered (tenths; the API keeps whole seconds). */
  duration_s?: number | null;
  /** The SIP status that ended an unanswered call. */
  status?: number;
  /** A voice survey's last report (`completed`): every question's keys, in the job's order. */
  answers?: VoiceAnswer[];
}
/** The API's answer to a dialer report; `bridge` only for `answered` (null: nobody to connect, abandon). */
export interface DialerReportAnswer {
  ok: boolean;
  applied: boolean;
  bridge?: DialerBridge | null;
}
