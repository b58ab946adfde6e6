import { SIGNUP_MSG, storedForm, type SignupInput, type SignupResult } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError, isUniqueViolation } from '../../http/errors';
import { hashPassword } from '../../security/password';
import { findTenantByMaDn } from '../tenants/tenants.service';
import { createTenantWithAdmin } from './signup.repository';

const taken = () => new AppError('CONFLICT', [{ field: 'ma_dn', message: SIGNUP_MSG.maDnTaken }]);

export function createSignupService(db: Db) {
  return {
    async signup(input: SignupInput): Promise<SignupResult> {
      // Early answer for the common case; the unique index decides a race between two sign-ups.
      if (await findTenantByMaDn(db, input.ma_dn)) throw taken();
      const hash = await hashPassword(input.password);
      try {
        // A new tenant has no id to scope by yet: tenant-less by nature, hence withSystem.
        // The admin's phone is stored 84… like every number (ADR 0016).
        return await db.withSystem((tx) => createTenantWithAdmin(tx, { ...input, phone: storedForm(input.phone) }, hash));
      } catch (e) {
        if (isUniqueViolation(e)) throw taken();
        throw e;
      }
    },
  };
}
