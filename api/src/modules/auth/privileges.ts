import { PRIVILEGE_MSG, SUPER_ADMIN_ROLE } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { EscalationError } from '../../http/errors';
import { allPermissionNames, rolePermissions, userRoles } from './access.repository';

/**
 * The escalation rules of docs/adr/0018, in one place for the roles and accounts services: a
 * delegated permission (role.edit, account.edit, *.changePassword …) never reaches further than
 * what its holder already has. Every function runs inside the caller's withTenant transaction.
 */
export interface Privileges {
  superAdmin: boolean;
  permissions: ReadonlySet<string>;
}

const NONE: Privileges = { superAdmin: false, permissions: new Set() };

async function fromRoles(tx: Queryable, roles: { name: string; permissions: string[] }[]): Promise<Privileges> {
  if (roles.some((r) => r.name === SUPER_ADMIN_ROLE)) return { superAdmin: true, permissions: new Set(await allPermissionNames(tx)) };
  return { superAdmin: false, permissions: new Set(roles.flatMap((r) => r.permissions)) };
}

/** What a user holds through all of their roles (super-admin: everything). */
export const privilegesOfUser = async (tx: Queryable, userId: number): Promise<Privileges> => fromRoles(tx, await userRoles(tx, userId));

/** What holding one role gives; a role that does not exist gives nothing (the caller answers 404/400). */
export async function privilegesOfRole(tx: Queryable, roleId: number): Promise<Privileges> {
  const role = await rolePermissions(tx, roleId);
  return role ? fromRoles(tx, [role]) : NONE;
}

/** Does `actor` hold everything `target` holds? Only a super-admin covers a super-admin. */
export function covers(actor: Privileges, target: Privileges): boolean {
  if (actor.superAdmin) return true;
  return !target.superAdmin && [...target.permissions].every((p) => actor.permissions.has(p));
}

/** Role editor: every permission added or taken away must be one the caller holds. */
export function assertCanChangePermissions(actor: Privileges, before: readonly string[], after: readonly string[]): void {
  if (actor.superAdmin) return;
  const changed = [...after.filter((p) => !before.includes(p)), ...before.filter((p) => !after.includes(p))];
  const notHeld = changed.filter((p) => !actor.permissions.has(p));
  if (notHeld.length) throw new EscalationError(PRIVILEGE_MSG.grantNotHeld, [{ field: 'permissions', message: `${PRIVILEGE_MSG.grantNotHeld}: ${notHeld.join(', ')}` }]);
}

/** The super-admin role itself: only a super-admin edits it. */
export function assertCanEditRole(actor: Privileges, roleName: string): void {
  if (roleName === SUPER_ADMIN_ROLE && !actor.superAdmin) throw new EscalationError(PRIVILEGE_MSG.superAdminOnly);
}

/** Giving an account a role: super-admin only by a super-admin, any other role only if the caller holds all of it. */
export async function assertCanAssignRole(tx: Queryable, actor: Privileges, roleId: number): Promise<void> {
  const role = await privilegesOfRole(tx, roleId);
  if (role.superAdmin && !actor.superAdmin) throw new EscalationError(PRIVILEGE_MSG.superAdminOnly, [{ field: 'role_id', message: PRIVILEGE_MSG.superAdminOnly }]);
  if (!covers(actor, role)) throw new EscalationError(PRIVILEGE_MSG.grantNotHeld, [{ field: 'role_id', message: PRIVILEGE_MSG.grantNotHeld }]);
}

/**
 * Editing, locking, deleting or setting the password of an account: its holder must not have
 * more than the caller (whoever sets a password can log in as that account).
 */
export async function assertCanTouchUser(tx: Queryable, actor: Privileges, userId: number): Promise<void> {
  const target = await privilegesOfUser(tx, userId);
  if (target.superAdmin && !actor.superAdmin) throw new EscalationError(PRIVILEGE_MSG.superAdminOnly);
  if (!covers(actor, target)) throw new EscalationError(PRIVILEGE_MSG.strongerAccount);
}
