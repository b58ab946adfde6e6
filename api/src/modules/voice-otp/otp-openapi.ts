/**
 * OpenAPI shapes of the applications' voice-OTP surface (/otp/v1, an API key as the bearer). The
 * response shapes also serialize the answers, so nothing outside them (the code!) can leave here.
 */
import { OTP_CHECK_RESULTS, OTP_LIMITS, OTP_REFUSALS, OTP_STATUSES, OTP_WEBHOOK_HEADERS, OTP_WEBHOOK_RETRY_S } from '@tongdai/contracts';

const str = { type: 'string' } as const;
const status = { type: 'string', enum: [...OTP_STATUSES] };
const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
const error = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    code: str,
    message: { type: 'string', description: 'Vietnamese, for people' },
    details: { type: 'array', items: { type: 'object', properties: { field: str, rule: str, message: str } } },
  },
};

export const OTP_DOCS = {
  start: {
    summary: 'Start a verification: call the number and read a code',
    description: [
      'Body (JSON): `phone` (0…, 84… or +84…; stored 84…), `code_length` (4–8, default 6), `code` (digits; drawn when absent),',
      `\`ttl_s\` (${OTP_LIMITS.ttlS.min}–${OTP_LIMITS.ttlS.max}, default ${OTP_LIMITS.ttlS.default}), \`template\` (must contain {code}; default "Mã xác thực của bạn là {code}").`,
      'The server calls the number through one of the tenant\'s hotlines enabled for OTP and reads the code twice, digit by digit.',
      `Refusals: 422 OTP_REFUSED and 429 OTP_RATE_LIMITED, with details[0].rule one of ${OTP_REFUSALS.join(', ')}`,
      `(per number ${OTP_LIMITS.perNumber} in ${OTP_LIMITS.perNumberWindowMin} minutes, per key and per tenant per Vietnam day);`,
      '409 OTP_NO_CALLER_NUMBER when no hotline is enabled for OTP; 400 VALIDATION_FAILED for a wrong field; 403 FORBIDDEN for a key without the verify.start scope.',
      'Webhook: when the key has a webhook URL (set on /voice-otp/number), each status change (queued, calling, answered, completed, no_answer, busy, failed, approved)',
      'is POSTed to it as JSON `{ type: "verification.status", event_id, verification_id, status, detail, at, phone }` with the headers',
      `\`${OTP_WEBHOOK_HEADERS.event}\` (the same on every try) and \`${OTP_WEBHOOK_HEADERS.signature}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the key's signing secret>\`.`,
      `Answer 2xx within 10 s; anything else is tried again after ${OTP_WEBHOOK_RETRY_S.join(', ')} seconds, then given up.`,
    ].join(' '),
    response: { 201: obj({ id: str, status, expires_at: str }), 422: error, 429: error },
  },
  get: {
    summary: 'A verification: its status and timeline',
    description: 'Only verifications started with the same key are found (404 otherwise). Scope verify.read.',
    response: {
      200: obj({
        id: str, status, phone: str, expires_at: str, created_at: str, checks: { type: 'integer' },
        timeline: { type: 'array', items: obj({ status: str, at: str, detail: str }) },
      }),
    },
  },
  check: {
    summary: 'Check the code the user typed',
    description: `Body: \`code\`. Compared in constant time; at most ${OTP_LIMITS.maxChecks} checks count, then too_many_attempts. Scope verify.check.`,
    response: { 200: obj({ status: { type: 'string', enum: [...OTP_CHECK_RESULTS] } }) },
  },
};
