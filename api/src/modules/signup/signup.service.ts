import { SIGNUP_MSG, type SignupInput, type SignupResult } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError, isUniqueViolation } from '../../http/errors';
import { hashPassword } from '../auth/password';
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
        return await db.withSystem((tx) => createTenantWithAdmin(tx, input, hash));
      } catch (e) {
        if (isUniqueViolation(e)) throw taken();
        throw e;
      }
    },
  };
}
