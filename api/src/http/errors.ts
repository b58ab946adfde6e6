import { ERROR_CODES, ERROR_MESSAGES, type ApiErrorBody, type ErrorCode, type FieldError } from '@tongdai/contracts';
import { isTransientDbError } from '../db/db';

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  SESSION_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  UNAUTHORIZED_TENANT: 401,
  FORBIDDEN: 403,
  PRIVILEGE_ESCALATION: 403,
  FEATURE_NOT_PURCHASED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PBX_LOOP: 422,
  SWITCHBOARD_HOST_REFUSED: 422,
  CAMPAIGN_STATE: 409,
  TOO_MANY_ATTEMPTS: 429,
  OTP_REFUSED: 422,
  OTP_RATE_LIMITED: 429,
  OTP_NO_CALLER_NUMBER: 409,
  WEBHOOK_HOST_REFUSED: 422,
  CRM_CALL_REFUSED: 422,
  CRM_AGENT_UNAVAILABLE: 409,
  CRM_RATE_LIMITED: 429,
  GOOGLE_SHEET_REFUSED: 422,
  GOOGLE_UNAVAILABLE: 502,
  DATABASE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** An error the API means to answer with: a stable code, its status and Vietnamese message. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: FieldError[],
  ) {
    super(ERROR_MESSAGES[code]);
    this.statusCode = STATUS[code];
  }
  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { status: this.statusCode, code: this.code, message: this.message };
    if (this.details?.length) body.details = this.details;
    return body;
  }
}

/** Codes for errors Fastify or its plugins raise themselves (bad JSON, body too large, …). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return ERROR_CODES.unauthorized;
  if (status === 403) return ERROR_CODES.forbidden;
  if (status === 404) return ERROR_CODES.notFound;
  if (status === 409) return ERROR_CODES.conflict;
  if (status === 429) return ERROR_CODES.tooManyAttempts;
  if (status >= 400 && status < 500) return ERROR_CODES.validation;
  return ERROR_CODES.internal;
}

/**
 * PostgreSQL refusing a value the validation let through: class 22 "data exception" (22P05
 * untranslatable character, 22021 bad byte sequence, 22003 out of range, 22P02 bad number…)
 * and 54000 (a value too large to index). The input was bad, not the server: a 400.
 */
const isBadInputFromDb = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(?:22[0-9A-Z]{3}|54000)$/.test(code);
};

/** Maps anything thrown to the one error body; a 5xx never carries the original message. */
export function toErrorBody(err: unknown): ApiErrorBody {
  if (err instanceof AppError) return err.toBody();
  if (isBadInputFromDb(err)) return new AppError('VALIDATION_FAILED').toBody();
  // The database away (down, restarting, out of connections): say so, and that it passes (issue 41).
  if (isTransientDbError(err)) return new AppError('DATABASE_UNAVAILABLE').toBody();
  const status = (err as { statusCode?: number } | null)?.statusCode;
  const code = typeof status === 'number' && status >= 400 && status < 500 ? codeForStatus(status) : ERROR_CODES.internal;
  return { status: code === ERROR_CODES.internal ? 500 : (status as number), code, message: ERROR_MESSAGES[code] };
}

/**
 * 409 CONFLICT with a message that says what to do (how many users hold a role, the user
 * limit reached…) instead of the generic "Dữ liệu đã tồn tại". The code stays CONFLICT, which
 * is what clients and tests branch on.
 */
export class ConflictError extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super('CONFLICT', details);
    this.message = message;
  }
}

/** 403 PRIVILEGE_ESCALATION with the rule that refused (PRIVILEGE_MSG). */
export class EscalationError extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super('PRIVILEGE_ESCALATION', details);
    this.message = message;
  }
}

const pgCode = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;
/** A unique index refused the row (PostgreSQL 23505), on either engine. */
export const isUniqueViolation = (err: unknown): boolean => pgCode(err) === '23505';
/**
 * A foreign key refused the row or its removal, on either engine: 23503, or 23001 for a key declared
 * ON DELETE RESTRICT on the PostgreSQL inside PGlite (17; the server here, 15, says 23503 for both) —
 * removing a hotline a campaign calls from was a 500 on PGlite only.
 */
export const isForeignKeyViolation = (err: unknown): boolean => pgCode(err) === '23503' || pgCode(err) === '23001';
/** Where a violation was met: the constraint name (pg) and the message naming it (both engines). */
export const violationText = (err: unknown): string => {
  const e = err as { constraint?: string; message?: string } | null;
  return `${e?.constraint ?? ''} ${e?.message ?? ''}`;
};
