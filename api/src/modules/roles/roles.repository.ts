import type { PermissionRow, RoleDetail, RoleInput, RoleListRow, RoleRow } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { likePattern, searchAny } from '../../db/sql';

/** Runs inside withTenant: no query here names a tenant, RLS supplies it. */

const ROW = `select r.id, r.name, r.display_name, r.description,
       coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.id)
                   from role_permissions rp join permissions p on p.id = rp.permission_id
                  where rp.role_id = r.id), '[]') as permissions,
       (select count(*)::int from user_roles ur where ur.role_id = r.id) as users_count
  from roles r`;

export async function listRoles(tx: Queryable, page: number, perPage: number, search = ''): Promise<{ rows: RoleListRow[]; total: number }> {
  const params: unknown[] = search ? [likePattern(search)] : [];
  const where = search ? `where ${searchAny(['r.name', 'r.display_name', 'r.description'], '$1')}` : '';
  const { rows } = await tx.query<RoleListRow>(`${ROW} ${where} order by r.id limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params,
    perPage,
    (page - 1) * perPage,
  ]);
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from roles r ${where}`, params);
  return { rows, total: count.rows[0].total };
}

export async function getRole(tx: Queryable, id: number): Promise<RoleDetail | null> {
  const { rows } = await tx.query<RoleListRow>(`${ROW} where r.id = $1`, [id]);
  if (!rows[0]) return null;
  const users = await tx.query<RoleDetail['users'][number]>(
    'select u.id, u.username, u.full_name from user_roles ur join users u on u.id = ur.user_id where ur.role_id = $1 order by u.username',
    [id],
  );
  return { ...rows[0], users: users.rows };
}

export async function findRoleByName(tx: Queryable, name: string): Promise<RoleRow | null> {
  const { rows } = await tx.query<RoleRow>('select id, name from roles where lower(name) = lower($1)', [name]);
  return rows[0] ?? null;
}

/** Replaces the role's permission set with the named ones. */
async function setPermissions(tx: Queryable, tenantId: number, roleId: number, names: string[]): Promise<void> {
  await tx.query('delete from role_permissions where role_id = $1', [roleId]);
  await tx.query('insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions where name = any($3)', [
    tenantId,
    roleId,
    names,
  ]);
}

export async function insertRole(tx: Queryable, tenantId: number, input: RoleInput): Promise<number> {
  const { rows } = await tx.query<{ id: number }>('insert into roles (tenant_id, name, display_name, description) values ($1, $2, $3, $4) returning id', [
    tenantId,
    input.name,
    input.display_name ?? '',
    input.description,
  ]);
  await setPermissions(tx, tenantId, rows[0].id, input.permissions);
  return rows[0].id;
}

export async function updateRole(tx: Queryable, tenantId: number, id: number, input: RoleInput): Promise<boolean> {
  const { rows } = await tx.query('update roles set name = $2, display_name = $3, description = $4 where id = $1 returning id', [
    id,
    input.name,
    input.display_name ?? '',
    input.description,
  ]);
  if (!rows.length) return false;
  await setPermissions(tx, tenantId, id, input.permissions);
  return true;
}

export async function deleteRole(tx: Queryable, id: number): Promise<void> {
  await tx.query('delete from roles where id = $1', [id]);
}

export async function listPermissions(tx: Queryable): Promise<PermissionRow[]> {
  const { rows } = await tx.query<PermissionRow>('select id, name, "group", label from permissions order by id');
  return rows;
}

export async function allPermissionNames(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>('select name from permissions order by id');
  return rows.map((r) => r.name);
}
