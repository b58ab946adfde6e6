import {
  ACCOUNT_MSG, PRIVILEGE_MSG, SUPER_ADMIN_ROLE, displayForm, storedForm, storedSearchForm, userLimitMessage,
  type Account, type AccountCreateInput, type AccountListQuery, type AccountUpdateInput, type FieldError, type Paged, type PasswordChangeInput,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import type { CallEventHub } from '../realtime/call-event-hub';
import { hashPassword } from '../../security/password';
import { assertCanAssignRole, assertCanTouchUser, endUserSessions, privilegesOfUser, type AuthContext } from '../auth/auth.service';
import { ConflictError, EscalationError, isUniqueViolation } from '../../http/errors';
import * as repo from './accounts.repository';
import { sipCredentialsChanged } from '../../security/sip-credentials-changed';

const usernameTaken = () => new ConflictError(ACCOUNT_MSG.usernameTaken, [{ field: 'username', message: ACCOUNT_MSG.usernameTaken }]);

/** One phone rule (ADR 0016): the phone is stored 84… (typed 0… or +84…), answered 0…. */
const stored = <T extends AccountUpdateInput>(input: T): T => ({ ...input, phone: storedForm(input.phone) });
const shown = (a: Account): Account => ({ ...a, phone: displayForm(a.phone) });

async function found(tx: Queryable, id: number): Promise<Account> {
  const account = await repo.getAccount(tx, id);
  if (!account) throw new AppError('NOT_FOUND');
  return shown(account);
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

/** Nobody changes their own role: not even a super-admin demotes itself by mistake. */
function guardOwnRole(auth: AuthContext, account: Account, next: AccountUpdateInput): void {
  if (account.id === auth.userId && next.role_id !== account.role_id) throw new EscalationError(PRIVILEGE_MSG.ownRole, [{ field: 'role_id', message: PRIVILEGE_MSG.ownRole }]);
}

const mapUnique = (err: unknown): never => {
  throw isUniqueViolation(err) ? usernameTaken() : err;
};

/** `sessions` closes the sockets of sessions this service ended (app.deps.hub). */
export function createAccountsService(db: Db, sessions: Pick<CallEventHub, 'endSessions'>) {
  return {
    async list(tenantId: number, q: AccountListQuery): Promise<Paged<Account>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listAccounts(tx, q, storedSearchForm(q.search ?? '')));
      return { data: rows.map(shown), meta: { page: q.page, per_page: q.per_page, total } };
    },
    get: (tenantId: number, id: number) => db.withTenant(tenantId, (tx) => found(tx, id)),
    async create(auth: AuthContext, input: AccountCreateInput): Promise<Account> {
      const { tenantId } = auth;
      const hash = await hashPassword(input.password);
      return db
        .withTenant(tenantId, async (tx) => {
          // The browser checks the limit first (control panel); this is the check that holds.
          const seats = await repo.lockTenantUsers(tx, tenantId);
          if (seats.current >= seats.max) throw new ConflictError(userLimitMessage(seats.current, seats.max));
          await checkRefs(tx, input);
          await assertCanAssignRole(tx, await privilegesOfUser(tx, auth.userId), input.role_id);
          await checkUsername(tx, input.username);
          return found(tx, await repo.insertAccount(tx, tenantId, stored(input), hash));
        })
        .catch(mapUnique);
    },
    update: (auth: AuthContext, id: number, input: AccountUpdateInput) =>
      db
        .withTenant(auth.tenantId, async (tx) => {
          const account = await found(tx, id);
          await checkRefs(tx, input);
          await checkUsername(tx, input.username, id);
          const actor = await privilegesOfUser(tx, auth.userId);
          await assertCanTouchUser(tx, actor, id);
          if (input.role_id !== account.role_id) await assertCanAssignRole(tx, actor, input.role_id);
          await guardLastSuperAdmin(tx, account, input);
          guardOwnRole(auth, account, input);
          await repo.updateAccount(tx, auth.tenantId, id, stored(input));
          // A lock ends the sessions for good: unlocking must not bring them back.
          if (input.status !== 'active') await endUserSessions(tx, id);
          return found(tx, id);
        })
        .then((saved) => {
          if (saved.status !== 'active') sessions.endSessions(auth.tenantId, { userId: id });
          // A locked account's extension may not register or call any more (sip-credentials.ts).
          sipCredentialsChanged(auth.tenantId);
          return saved;
        })
        .catch(mapUnique),
    remove: (auth: AuthContext, id: number) =>
      db.withTenant(auth.tenantId, async (tx) => {
        const account = await found(tx, id);
        if (account.id === auth.userId) throw new ConflictError(ACCOUNT_MSG.deleteSelf);
        await guardLastSuperAdmin(tx, account);
        await assertCanTouchUser(tx, await privilegesOfUser(tx, auth.userId), id);
        await repo.deleteAccount(tx, id);
      }).then(() => {
        sessions.endSessions(auth.tenantId, { userId: id });
        sipCredentialsChanged(auth.tenantId);
      }),
    async changePassword(auth: AuthContext, id: number, input: PasswordChangeInput): Promise<void> {
      const hash = await hashPassword(input.password);
      await db.withTenant(auth.tenantId, async (tx) => {
        await found(tx, id);
        await assertCanTouchUser(tx, await privilegesOfUser(tx, auth.userId), id);
        await repo.setUserPassword(tx, id, hash, auth.sessionId);
      });
      sessions.endSessions(auth.tenantId, { userId: id, exceptSessionId: auth.sessionId });
    },
  };
}

/** For other modules (roles' change-password): a new password hash, the account's other sessions end. */
export { setUserPassword } from './accounts.repository';
