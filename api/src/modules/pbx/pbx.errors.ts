import { FEATURES, PBX_MSG, type FieldError } from '@tongdai/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../../http/errors';
import { requireAuthWithPayment, requireFeature, requirePermission, tenantGuard } from '../../http/guards';
import { SHEET_MSG } from '../../http/sheet';

/** Messages only the PBX API produces (the browser shows them from the error details). */
export const PBX_API_MSG = {
  greetingMissing: 'Lời chào không tồn tại',
  mohMissing: 'Lớp nhạc chờ không tồn tại',
  timeGroupMissing: 'Nhóm thời gian không tồn tại',
  blockedTaken: 'Số này đã có trong danh sách chặn',
  importColumns: (columns: string[]) => `Thiếu cột: ${columns.join(', ')}`,
  importTooLarge: (mb: number) => `Tệp nhập tối đa ${mb} MB`,
  importUnpackedTooLarge: SHEET_MSG.unpackedTooLarge,
  importTooSlow: SHEET_MSG.tooSlow,
} as const;

export const invalid = (details: FieldError[]) => new AppError('VALIDATION_FAILED', details);

/**
 * The partner API answers a tenant code that is not the caller's with 403 (the contract of
 * issue 6): on this surface a 401 would log the user out (ADR 0004), and the session is fine —
 * only the request is not allowed.
 */
export class TenantMismatchError extends AppError {
  override readonly statusCode = 403;
  constructor() {
    super('UNAUTHORIZED_TENANT');
  }
}

/** 422 PBX_LOOP naming every object of the loop. */
export class LoopError extends AppError {
  constructor(path: string) {
    super('PBX_LOOP');
    this.message = PBX_MSG.loop(path);
  }
}

async function pbxTenantGuard(request: FastifyRequest): Promise<void> {
  try {
    await tenantGuard(request);
  } catch (e) {
    if (e instanceof AppError && e.code === 'UNAUTHORIZED_TENANT') throw new TenantMismatchError();
    throw e;
  }
}

/** Token, tenant code (403), permission, purchased PBX: the chain of every /pbx route. */
export function pbxGuarded(permission: string): preHandlerAsyncHookHandler[] {
  return [requireAuthWithPayment as preHandlerAsyncHookHandler, pbxTenantGuard as preHandlerAsyncHookHandler, requirePermission(permission), requireFeature(FEATURES.pbx)];
}

/** Tenant codes named in a multipart form (the guard only sees JSON bodies). */
export function checkFormTenant(fields: Record<string, string>, maDn: string): void {
  for (const key of ['ma_dn', 'CodeCompany']) {
    if (fields[key] !== undefined && fields[key] !== maDn) throw new TenantMismatchError();
  }
}
