import type { FieldError } from '@tongdai/contracts';
import { AppError } from '../../http/errors';

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

/** A unique index refused the row (PostgreSQL 23505), on either engine. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === '23505';
