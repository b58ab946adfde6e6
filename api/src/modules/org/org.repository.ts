import type { DataFilter, OrgListQuery, OrgOption } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import type { EntityDef } from './org.entities';

/** Runs inside withTenant: no query here names a tenant, RLS supplies it. */

type Row = Record<string, unknown> & { id: number };

/** Timestamps as ISO strings; a group's member_ids derived from its members. */
function toEntity(r: Row): Row {
  const out: Row = { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
  if (Array.isArray(r.members)) out.member_ids = (r.members as { id: number }[]).map((m) => m.id);
  return out;
}

export async function listRows(tx: Queryable, def: EntityDef, q: OrgListQuery): Promise<{ rows: Row[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    where.push(searchAny(def.search, `$${params.length}`));
  }
  if (q.department_id && def.fields.includes('department_id')) {
    params.push(q.department_id);
    where.push(`x.department_id = $${params.length}`);
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from (${def.select} ${filter}) c`, params);
  const { rows } = await tx.query<Row>(`${def.select} ${filter} order by x.id desc limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params,
    q.per_page,
    (q.page - 1) * q.per_page,
  ]);
  return { rows: rows.map(toEntity), total: count.rows[0].total };
}

export async function getRow(tx: Queryable, def: EntityDef, id: number): Promise<Row | null> {
  const { rows } = await tx.query<Row>(`${def.select} where x.id = $1`, [id]);
  return rows[0] ? toEntity(rows[0]) : null;
}

export async function insertRow(tx: Queryable, def: EntityDef, tenantId: number, input: Record<string, unknown>): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into ${def.table} (tenant_id, ${def.fields.join(', ')}) values ($1, ${def.fields.map((_, i) => `$${i + 2}`).join(', ')}) returning id`,
    [tenantId, ...def.fields.map((f) => input[f])],
  );
  return rows[0].id;
}

export async function updateRow(tx: Queryable, def: EntityDef, id: number, input: Record<string, unknown>): Promise<boolean> {
  const sets = def.fields.map((f, i) => `${f} = $${i + 2}`).join(', ');
  const { rows } = await tx.query(`update ${def.table} set ${sets}, updated_at = now() where id = $1 returning id`, [id, ...def.fields.map((f) => input[f])]);
  return rows.length > 0;
}

export async function deleteRow(tx: Queryable, def: EntityDef, id: number): Promise<boolean> {
  const { rows } = await tx.query(`delete from ${def.table} where id = $1 returning id`, [id]);
  return rows.length > 0;
}

/** Whether another row of the tenant (in the same scope) already has this name, any case. */
export async function nameTaken(tx: Queryable, def: EntityDef, name: string, exceptId: number, scopeValue?: unknown): Promise<boolean> {
  const params: unknown[] = [name, exceptId];
  let scope = '';
  if (def.uniqueScope) {
    params.push(scopeValue);
    scope = ` and ${def.uniqueScope} = $3`;
  }
  const { rows } = await tx.query(`select 1 from ${def.table} where lower(name) = lower($1) and id <> $2${scope} limit 1`, params);
  return rows.length > 0;
}

/** Ids among `ids` that are not visible rows of `table` (another tenant's rows are invisible). */
export async function missingIds(tx: Queryable, table: 'users' | 'departments' | 'projects' | 'data_sources' | 'profile_statuses', ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const { rows } = await tx.query<{ id: number }>(`select id from ${table} where id = any($1::int[])`, [ids]);
  const seen = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !seen.has(id));
}

export async function setGroupMembers(tx: Queryable, tenantId: number, groupId: number, userIds: number[]): Promise<void> {
  await tx.query('delete from user_group_members where group_id = $1', [groupId]);
  if (userIds.length) {
    await tx.query(
      'insert into user_group_members (tenant_id, group_id, user_id) select $1, $2, unnest($3::int[]) on conflict do nothing',
      [tenantId, groupId, userIds],
    );
  }
}

export async function departmentUsage(tx: Queryable, id: number): Promise<{ teams: number; users: number }> {
  const { rows } = await tx.query<{ teams: number; users: number }>(
    `select (select count(*)::int from teams where department_id = $1) as teams,
            (select count(*)::int from users where department_id = $1) as users`,
    [id],
  );
  return rows[0];
}

export async function allDepartments(tx: Queryable): Promise<(OrgOption & { code: string; active: boolean })[]> {
  return (await tx.query<OrgOption & { code: string; active: boolean }>('select id, name, code, active from departments order by name, id')).rows;
}

export async function allTeams(tx: Queryable, departmentId?: number | ''): Promise<(OrgOption & { department_id: number })[]> {
  const byDept = departmentId ? 'where department_id = $1' : '';
  return (await tx.query<OrgOption & { department_id: number }>(`select id, name, department_id from teams ${byDept} order by name, id`, departmentId ? [departmentId] : [])).rows;
}

/** Every dropdown of filters and org forms in one round trip. */
export async function dataFilter(tx: Queryable): Promise<DataFilter> {
  const options = async (sql: string) => (await tx.query<OrgOption>(sql)).rows;
  return {
    projects: await options('select id, name from projects order by name, id'),
    data_sources: await options('select id, name from data_sources order by name, id'),
    profile_statuses: (await tx.query<OrgOption & { color: string }>('select id, name, color from profile_statuses order by name, id')).rows,
    departments: await options('select id, name from departments order by name, id'),
    teams: await allTeams(tx),
    branches: await options('select id, name from branches order by name, id'),
    users: await options(`select id, full_name as name from users where status = 'active' order by full_name, id`),
  };
}
