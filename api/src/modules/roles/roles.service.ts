import { ROLE_MSG, SUPER_ADMIN_ROLE, type Paged, type RoleDetail, type RoleInput, type RoleListRow, type RolePasswordInput, type RoleSearchQuery } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import type { AuthContext } from '../auth/auth.service';
import { hashPassword } from '../../security/password';
import { assertCanChangePermissions, assertCanEditRole, assertCanTouchUser, privilegesOfUser } from '../auth/auth.service';
import { setUserPassword } from '../accounts/accounts.service';
import { ConflictError, isUniqueViolation } from '../../http/errors';
import type { CallEventHub } from '../realtime/call-event-hub';
import * as repo from './roles.repository';

const nameTaken = () => new ConflictError(ROLE_MSG.nameTaken, [{ field: 'name', message: ROLE_MSG.nameTaken }]);

/** super-admin keeps its name and every permission: it is how a tenant stays administrable. */
async function guardSuperAdmin(tx: Queryable, role: RoleDetail, input: RoleInput): Promise<void> {
  if (role.name !== SUPER_ADMIN_ROLE) return;
  const all = await repo.allPermissionNames(tx);
  if (input.name !== SUPER_ADMIN_ROLE || all.some((p) => !input.permissions.includes(p as never))) throw new ConflictError(ROLE_MSG.superAdminLocked);
}

/** `sessions` closes the sockets of sessions a password change ended (app.deps.hub). */
export function createRolesService(db: Db, sessions: Pick<CallEventHub, 'endSessions'>) {
  const found = async (tx: Queryable, id: number) => {
    const role = await repo.getRole(tx, id);
    if (!role) throw new AppError('NOT_FOUND');
    return role;
  };
  /** The unique index is the real guard; the look-up first gives the nicer per-field answer. */
  const checkName = async (tx: Queryable, name: string, selfId?: number) => {
    const other = await repo.findRoleByName(tx, name);
    if (other && other.id !== selfId) throw nameTaken();
  };
  const mapUnique = (err: unknown): never => {
    throw isUniqueViolation(err) ? nameTaken() : err;
  };

  return {
    async list(tenantId: number, q: RoleSearchQuery): Promise<Paged<RoleListRow>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listRoles(tx, q.page, q.per_page, q.search));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    get: (tenantId: number, id: number) => db.withTenant(tenantId, (tx) => found(tx, id)),
    create: (auth: AuthContext, input: RoleInput) =>
      db
        .withTenant(auth.tenantId, async (tx) => {
          assertCanChangePermissions(await privilegesOfUser(tx, auth.userId), [], input.permissions);
          await checkName(tx, input.name);
          return found(tx, await repo.insertRole(tx, auth.tenantId, input));
        })
        .catch(mapUnique),
    update: (auth: AuthContext, id: number, input: RoleInput) =>
      db
        .withTenant(auth.tenantId, async (tx) => {
          const role = await found(tx, id);
          const actor = await privilegesOfUser(tx, auth.userId);
          assertCanEditRole(actor, role.name);
          assertCanChangePermissions(actor, role.permissions.map((p) => p.name), input.permissions);
          await guardSuperAdmin(tx, role, input);
          await checkName(tx, input.name, id);
          await repo.updateRole(tx, auth.tenantId, id, input);
          return found(tx, id);
        })
        .catch(mapUnique),
    remove: (tenantId: number, id: number) =>
      db.withTenant(tenantId, async (tx) => {
        const role = await found(tx, id);
        if (role.name === SUPER_ADMIN_ROLE) throw new ConflictError(ROLE_MSG.superAdminLocked);
        if (role.users_count > 0) throw new ConflictError(ROLE_MSG.inUse(role.users_count));
        await repo.deleteRole(tx, id);
      }),
    /** Role screen action: a new password for one of the role's users. */
    async changePassword(auth: AuthContext, id: number, input: RolePasswordInput): Promise<void> {
      const hash = await hashPassword(input.password);
      await db.withTenant(auth.tenantId, async (tx) => {
        const role = await found(tx, id);
        if (!role.users.some((u) => u.id === input.user_id)) throw new AppError('VALIDATION_FAILED', [{ field: 'user_id', message: ROLE_MSG.userNotInRole }]);
        await assertCanTouchUser(tx, await privilegesOfUser(tx, auth.userId), input.user_id);
        await setUserPassword(tx, input.user_id, hash, auth.sessionId);
      });
      sessions.endSessions(auth.tenantId, { userId: input.user_id, exceptSessionId: auth.sessionId });
    },
  };
}
