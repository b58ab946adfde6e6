import type { Queryable } from '../../db/db';
import type { UserRoleRow } from '../../security/session';

export type { UserRoleRow };

/** The user's roles with permission names, in role id order (the first is the session user). */
export async function userRoles(tx: Queryable, userId: number): Promise<UserRoleRow[]> {
  const { rows } = await tx.query<UserRoleRow>(
    `select r.id, r.name,
            coalesce(array_agg(p.name order by p.id) filter (where p.name is not null), '{}') as permissions
       from user_roles ur
       join roles r on r.id = ur.role_id
       left join role_permissions rp on rp.role_id = r.id
       left join permissions p on p.id = rp.permission_id
      where ur.user_id = $1
      group by r.id, r.name
      order by r.id`,
    [userId],
  );
  return rows;
}

export async function allPermissionNames(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>('select name from permissions order by id');
  return rows.map((r) => r.name);
}

export interface ProfileRow {
  id: number;
  username: string;
  full_name: string;
  email: string | null;
}

export async function userProfile(tx: Queryable, userId: number): Promise<ProfileRow | null> {
  const { rows } = await tx.query<ProfileRow>('select id, username, full_name, email from users where id = $1', [userId]);
  return rows[0] ?? null;
}

/** One role's name and permission names, or null when it does not exist in this tenant. */
export async function rolePermissions(tx: Queryable, roleId: number): Promise<Omit<UserRoleRow, 'id'> | null> {
  const { rows } = await tx.query<Omit<UserRoleRow, 'id'>>(
    `select r.name, coalesce(array_agg(p.name order by p.id) filter (where p.name is not null), '{}') as permissions
       from roles r
       left join role_permissions rp on rp.role_id = r.id
       left join permissions p on p.id = rp.permission_id
      where r.id = $1
      group by r.id, r.name`,
    [roleId],
  );
  return rows[0] ?? null;
}
