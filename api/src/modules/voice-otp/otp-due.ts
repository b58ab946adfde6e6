import { DueSignal, placedCallsDue } from '../../db/due-signal';

/**
 * "An OTP call may be due now", inside one API process (ADR 0052). The media workers' asks for calls
 * to place (POST /internal/sip/media/originate) wait on it instead of asking the database every second
 * or so: a verification just started, or a retry whose time came, wakes them, and the call is claimed
 * and placed at once (the goal: placed within 1 s of the start, p99). Idle, a worker's ask
 * costs one claim query per wait (OTP_ORIGINATE_WAIT_MS), not one every poll, on PGlite's single
 * connection that the calls' own events need.
 *
 * A start on another API instance is not seen here: the wait's end finds it (at most a wait later).
 */
export { DueSignal } from '../../db/due-signal';

/** The API process's one signal: the service wakes it, the originate route waits on it (the dialer's too). */
export const otpCallsDue = placedCallsDue;

/**
 * "A status changed, a webhook delivery may be due": the API's voice-OTP round (webhooks, the lost-call
 * sweep) waits on it instead of asking the database every 2 s; a retry's time wakes it too.
 */
export const otpEventsDue = new DueSignal();
