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
  | { kind: 'voicemail'; mailbox: string; greeting_id: number | null; max_seconds: number };

/** GET /internal/sip/media/session. */
export interface MediaSession {
  call_id: string;
  tenant_id: number;
  domain: string;
  caller: string;
  step: MediaStep;
  /** Steps of the plan after this one (play → go on with them). */
  has_next: boolean;
}

/** POST /internal/sip/media/continue: a token to dial, none (hang up), or digits leading nowhere. */
export interface MediaContinue {
  token: string | null;
  invalid?: boolean;
}
