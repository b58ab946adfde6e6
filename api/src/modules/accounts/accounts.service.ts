import {
  ACCOUNT_MSG, SUPER_ADMIN_ROLE, userLimitMessage,
  type Account, type AccountCreateInput, type AccountListQuery, type AccountUpdateInput, type FieldError, type Paged, type PasswordChangeInput,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import type { AuthContext } from '../auth/auth.service';
import { hashPassword } from '../auth/password';
import { ConflictError, isUniqueViolation } from '../../http/errors';
import * as repo from './accounts.repository';

const usernameTaken = () => new ConflictError(ACCOUNT_MSG.usernameTaken, [{ field: 'username', message: ACCOUNT_MSG.usernameTaken }]);

async function found(tx: Queryable, id: number): Promise<Account> {
  const account = await repo.getAccount(tx, id);
  if (!account) throw new AppError('NOT_FOUND');
  return account;
}

/** Role, department, team and branch must exist in this tenant, and the team sit in the department. */
async function checkRefs(tx: Queryable, input: AccountUpdateInput): Promise<void> {
  const errors: FieldError[] = [];
  if (!(await repo.roleName(tx, input.role_id))) errors.push({ field: 'role_id', message: ACCOUNT_MSG.notFoundRef });
  const refs = await repo.orgRefs(tx, input);
  if (refs.department === undefined) errors.push({ field: 'department_id', message: ACCOUNT_MSG.notFoundRef });
  if (refs.team === undefined) errors.push({ field: 'team_id', message: ACCOUNT_MSG.notFoundRef });
  else if (refs.team && refs.team.department_id !== input.department_id) errors.push({ field: 'team_id', message: ACCOUNT_MSG.teamNotInDepartment });
  if (refs.branch === undefined) errors.push({ field: 'branch_id', message: ACCOUNT_MSG.notFoundRef });
  if (errors.length) throw new AppError('VALIDATION_FAILED', errors);
}

async function checkUsername(tx: Queryable, username: string, selfId?: number): Promise<void> {
  const other = await repo.findUserId(tx, username);
  if (other !== null && other !== selfId) throw usernameTaken();
}

/** The last active super-admin may not be deleted, locked or moved to another role. */
async function guardLastSuperAdmin(tx: Queryable, account: Account, next?: AccountUpdateInput): Promise<void> {
  if (account.role_name !== SUPER_ADMIN_ROLE || account.status !== 'active') return;
  if (next && next.status === 'active' && (await repo.roleName(tx, next.role_id)) === SUPER_ADMIN_ROLE) return;
  const admins = await repo.activeSuperAdmins(tx);
  if (admins.length <= 1) throw new ConflictError(ACCOUNT_MSG.lastSuperAdmin);
}

const mapUnique = (err: unknown): never => {
  throw isUniqueViolation(err) ? usernameTaken() : err;
};

export function createAccountsService(db: Db) {
  return {
    async list(tenantId: number, q: AccountListQuery): Promise<Paged<Account>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listAccounts(tx, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    get: (tenantId: number, id: number) => db.withTenant(tenantId, (tx) => found(tx, id)),
    async create(tenantId: number, input: AccountCreateInput): Promise<Account> {
      const hash = await hashPassword(input.password);
      return db
        .withTenant(tenantId, async (tx) => {
          // The browser checks the limit first (control panel); this is the check that holds.
          const seats = await repo.lockTenantUsers(tx, tenantId);
          if (seats.current >= seats.max) throw new ConflictError(userLimitMessage(seats.current, seats.max));
          await checkRefs(tx, input);
          await checkUsername(tx, input.username);
          return found(tx, await repo.insertAccount(tx, tenantId, input, hash));
        })
        .catch(mapUnique);
    },
    update: (tenantId: number, id: number, input: AccountUpdateInput) =>
      db
        .withTenant(tenantId, async (tx) => {
          const account = await found(tx, id);
          await checkRefs(tx, input);
          await checkUsername(tx, input.username, id);
          await guardLastSuperAdmin(tx, account, input);
          await repo.updateAccount(tx, tenantId, id, input);
          return found(tx, id);
        })
        .catch(mapUnique),
    remove: (auth: AuthContext, id: number) =>
      db.withTenant(auth.tenantId, async (tx) => {
        const account = await found(tx, id);
        if (account.id === auth.userId) throw new ConflictError(ACCOUNT_MSG.deleteSelf);
        await guardLastSuperAdmin(tx, account);
        await repo.deleteAccount(tx, id);
      }),
    async changePassword(auth: AuthContext, id: number, input: PasswordChangeInput): Promise<void> {
      const hash = await hashPassword(input.password);
      await db.withTenant(auth.tenantId, async (tx) => {
        await found(tx, id);
        await repo.setUserPassword(tx, id, hash, auth.sessionId);
      });
    },
  };
}

/** For other modules (roles' change-password): a new password hash, the account's other sessions end. */
export { setUserPassword } from './accounts.repository';
