import { timingSafeEqual } from 'node:crypto';
import {
  INTERNATIONAL_PREFIXES, OTP_LIMITS, cleanNumber, phoneKind, significantNumber, storedForm,
  type OtpCheckResult, type OtpRefusal, type OtpStatus,
} from '@tongdai/contracts';

/**
 * Voice-OTP's decisions as pure functions of the facts and a given time (ADR 0052, STYLE "outbound
 * work is a job, its decisions pure"): which number may be called, which limit a start hits, what a
 * check answers, what status a verification shows. No clock, no database: tested with dates built.
 */

export type CallStatus = Extract<OtpStatus, 'queued' | 'calling' | 'answered' | 'completed' | 'no_answer' | 'busy' | 'failed'>;

export interface VerificationState {
  call_status: CallStatus;
  checks: number;
  approved_at: Date | null;
  expires_at: Date;
}

/** approved wins; then expired (its time passed, or its checks are spent); else the call's state. */
export function verificationStatus(v: VerificationState, now: Date): OtpStatus {
  if (v.approved_at) return 'approved';
  if (now.getTime() >= v.expires_at.getTime() || v.checks >= OTP_LIMITS.maxChecks) return 'expired';
  return v.call_status;
}

/** What a check answers, and whether it counts as one of the at most five. */
export interface CheckDecision {
  result: OtpCheckResult;
  /** The check is counted (a wrong or right code while checks remain and the code lives). */
  counted: boolean;
  approve: boolean;
}

/** Same length and same digits, compared in constant time (the length of a code is no secret: the app chose it). */
export function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A check of `given` against the verification at `now`: an approved verification stays approved
 * (an app retrying its check is told so, nothing is counted); a spent or expired one refuses before
 * comparing anything.
 */
export function decideCheck(v: VerificationState & { code: string }, given: string, now: Date): CheckDecision {
  if (v.approved_at) return { result: 'approved', counted: false, approve: false };
  if (v.checks >= OTP_LIMITS.maxChecks) return { result: 'too_many_attempts', counted: false, approve: false };
  if (now.getTime() >= v.expires_at.getTime()) return { result: 'expired', counted: false, approve: false };
  const right = sameCode(given, v.code);
  if (right) return { result: 'approved', counted: true, approve: true };
  // The fifth wrong code is told as wrong; the sixth check hears too_many_attempts.
  return { result: 'wrong_code', counted: true, approve: false };
}

/** The number an OTP call may go to, in its stored form, or why not (before any list or limit is read). */
export function callableNumber(phone: string): { number: string } | { refusal: OtpRefusal } {
  const c = cleanNumber(phone);
  const vn = significantNumber(c);
  // +… or 00… that is not +84/0084: a call abroad, off by default (ADR 0052).
  if (vn === null && INTERNATIONAL_PREFIXES.some((p) => c.startsWith(p)) && /^\+?\d{6,}$/.test(c)) return { refusal: 'international' };
  if (vn === null) return { refusal: 'invalid_number' };
  if (phoneKind(c) === 'service') return { refusal: 'not_callable' };
  return { number: storedForm(c) };
}

/** What the limits read, counted by the repository in the starting transaction (under the tenant's lock). */
export interface LimitCounts {
  /** This number's verifications in the last perNumberWindowMin minutes (every key of the tenant). */
  numberRecent: number;
  /** The key's verifications since the Vietnam day began. */
  keyToday: number;
  tenantToday: number;
  keyDailyLimit: number;
}

/** The first limit a new verification would pass, or null: the number first (what the callee feels), then the key, then the tenant. */
export function limitRefusal(c: LimitCounts): OtpRefusal | null {
  if (c.numberRecent >= OTP_LIMITS.perNumber) return 'number_limit';
  if (c.keyToday >= c.keyDailyLimit) return 'key_day_limit';
  if (c.tenantToday >= OTP_LIMITS.perTenantDay) return 'tenant_day_limit';
  return null;
}

/** A code of `length` digits from `randomInt` (crypto.randomInt in the service), uniform per digit. */
export function drawCode(length: number, randomInt: (max: number) => number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

/** How a call placed for a verification ended (the media worker's report, slice 2). */
export type CallOutcome = 'answered' | 'completed' | 'no_answer' | 'busy' | 'failed';

export interface CallState {
  call_status: CallStatus;
  call_attempts: number;
  expires_at: Date;
}

/** The verification after an outcome: its call status and, for a retry, when the next call is due. */
export interface AfterCall {
  call_status: CallStatus;
  next_call_at: Date | null;
}

/**
 * How long a call may go without a report from its media worker before it counts as lost (ADR 0052):
 * longer than the longest ring (OTP_RING_SECONDS ≤ 120) and the longest code said twice, with room.
 */
export const OTP_LOST_CALL_S = 180;

/** How long a webhook delivery is kept once delivered or given up (days): what a tenant's support looks back on. */
export const OTP_WEBHOOK_KEEP_DAYS = 30;

/** One retry at most (issue 35): the first call and one more. */
export const MAX_CALL_ATTEMPTS = 2;

/**
 * Which status a call may be in for an outcome to apply: the worker reports "answered" then how the
 * call ended, each retried until the API takes it, so a report can come twice (its answer was lost)
 * or late (a retry's call is already under way). Only the first report of each step counts.
 */
const APPLIES_IN: Record<CallOutcome, readonly CallStatus[]> = {
  answered: ['calling'],
  completed: ['calling', 'answered'],
  failed: ['calling', 'answered'],
  no_answer: ['calling'],
  busy: ['calling'],
};

/**
 * The retry policy (ADR 0052), a pure function of the state, the outcome, the time it came and the
 * key's retry delay: an unanswered first call is tried once more `retryAfterS` later (0: never), if
 * that is before the code expires; busy, failed and answered calls are not tried again.
 * null: the report changes nothing — it is about an earlier attempt than the call under way
 * (`attempt`, when the worker says it), or its step was already taken (a report sent again).
 */
export function afterCall(s: CallState, outcome: CallOutcome, at: Date, retryAfterS: number, attempt?: number): AfterCall | null {
  if (attempt !== undefined && attempt !== s.call_attempts) return null;
  if (!APPLIES_IN[outcome].includes(s.call_status)) return null;
  if (outcome !== 'no_answer') return { call_status: outcome, next_call_at: null };
  const next = new Date(at.getTime() + retryAfterS * 1000);
  const retry = retryAfterS > 0 && s.call_attempts < MAX_CALL_ATTEMPTS && next.getTime() < s.expires_at.getTime();
  return { call_status: 'no_answer', next_call_at: retry ? next : null };
}
