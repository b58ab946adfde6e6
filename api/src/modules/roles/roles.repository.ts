import type { PermissionRow, RoleRow } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

export async function listRoles(tx: Queryable, page: number, perPage: number): Promise<{ rows: RoleRow[]; total: number }> {
  const { rows } = await tx.query<RoleRow>(
    `select r.id, r.name,
            coalesce(json_agg(json_build_object('id', p.id, 'name', p.name) order by p.id) filter (where p.id is not null), '[]') as permissions
       from roles r
       left join role_permissions rp on rp.role_id = r.id
       left join permissions p on p.id = rp.permission_id
      group by r.id, r.name
      order by r.id
      limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  const count = await tx.query<{ total: number }>('select count(*)::int as total from roles');
  return { rows, total: count.rows[0].total };
}

export async function listPermissions(tx: Queryable): Promise<PermissionRow[]> {
  const { rows } = await tx.query<PermissionRow>('select id, name, "group", label from permissions order by id');
  return rows;
}
