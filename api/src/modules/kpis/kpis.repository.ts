import type { KpiAssigneeType, KpiInput, KpiListQuery, KpiMeasure, KpiPeriod } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';

/** SQL of the kpis table (migration 0029). Runs inside withTenant: RLS supplies the tenant. */

export interface KpiRow {
  id: number;
  name: string;
  measure: KpiMeasure;
  target: number;
  period: KpiPeriod;
  start_date: string;
  assignee: { type: KpiAssigneeType; id: number };
  assignee_name: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Whose KPIs a viewer without kpi.view sees (ADR 0028): those assigned to these accounts, teams
 * and departments (kpisScope builds them).
 */
export interface KpiScope {
  userIds: number[];
  teamIds: number[];
  departmentIds: number[];
}

const SELECT = `select k.id, k.name, k.measure, k.target::float8 as target, k.period, to_char(k.start_date, 'YYYY-MM-DD') as start_date,
    k.assignee_type, k.assignee_id, k.created_at, k.updated_at,
    case k.assignee_type when 'user' then (select nullif(u.full_name, '') from users u where u.id = k.assignee_id)
      when 'team' then (select t.name from teams t where t.id = k.assignee_id)
      else (select d.name from departments d where d.id = k.assignee_id) end as assignee_name
  from kpis k`;

type Raw = Omit<KpiRow, 'assignee' | 'created_at' | 'updated_at'> & { assignee_type: KpiAssigneeType; assignee_id: number; created_at: unknown; updated_at: unknown };
const shape = ({ assignee_type, assignee_id, ...r }: Raw): KpiRow => ({
  ...r, assignee: { type: assignee_type, id: assignee_id }, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});

function conditions(q: Partial<KpiListQuery>, scope: KpiScope | null, params: unknown[]): string {
  const where = ['true'];
  if (q.search) where.push(searchAny(['k.name'], `$${params.push(likePattern(q.search))}`));
  if (q.period) where.push(`k.period = $${params.push(q.period)}`);
  if (q.assignee_type) where.push(`k.assignee_type = $${params.push(q.assignee_type)}`);
  if (scope) {
    where.push(`((k.assignee_type = 'user' and k.assignee_id = any($${params.push(scope.userIds)}::int[]))
      or (k.assignee_type = 'team' and k.assignee_id = any($${params.push(scope.teamIds)}::int[]))
      or (k.assignee_type = 'department' and k.assignee_id = any($${params.push(scope.departmentIds)}::int[])))`);
  }
  return where.join(' and ');
}

/** A page of KPIs, newest first; `scope` limits them to what a viewer may see (null: the whole tenant). */
export async function listKpis(tx: Queryable, q: KpiListQuery, scope: KpiScope | null): Promise<{ rows: KpiRow[]; total: number }> {
  const params: unknown[] = [];
  const where = conditions(q, scope, params);
  const total = await tx.query<{ n: number }>(`select count(*)::int as n from kpis k where ${where}`, params);
  const { rows } = await tx.query<Raw>(
    `${SELECT} where ${where} order by k.id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.per_page, (q.page - 1) * q.per_page],
  );
  return { rows: rows.map(shape), total: total.rows[0].n };
}

/** Every KPI assigned to a department, for /kpi-by-department. */
export async function departmentKpis(tx: Queryable, scope: KpiScope | null): Promise<KpiRow[]> {
  const params: unknown[] = [];
  const where = conditions({ assignee_type: 'department' }, scope, params);
  const { rows } = await tx.query<Raw>(`${SELECT} where ${where} order by k.assignee_id, k.id`, params);
  return rows.map(shape);
}

export async function getKpi(tx: Queryable, id: number, scope: KpiScope | null = null): Promise<KpiRow | null> {
  const params: unknown[] = [id];
  const { rows } = await tx.query<Raw>(`${SELECT} where k.id = $1 and ${conditions({}, scope, params)}`, params);
  return rows[0] ? shape(rows[0]) : null;
}

const values = (k: KpiInput) => [k.name, k.measure, k.target, k.period, k.start_date, k.assignee.type, k.assignee.id];

export async function insertKpi(tx: Queryable, tenantId: number, userId: number, k: KpiInput): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into kpis (tenant_id, created_by, name, measure, target, period, start_date, assignee_type, assignee_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [tenantId, userId, ...values(k)],
  );
  return rows[0].id;
}

export async function updateKpi(tx: Queryable, id: number, k: KpiInput): Promise<boolean> {
  const { rows } = await tx.query(
    `update kpis set name = $2, measure = $3, target = $4, period = $5, start_date = $6, assignee_type = $7, assignee_id = $8, updated_at = now()
     where id = $1 returning id`,
    [id, ...values(k)],
  );
  return rows.length > 0;
}

export async function deleteKpi(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('delete from kpis where id = $1 returning id', [id]);
  return rows.length > 0;
}

const TABLES: Record<KpiAssigneeType, string> = { user: 'users', team: 'teams', department: 'departments' };

/** Whether the assignee is a row of the tenant (RLS hides the others). */
export async function assigneeExists(tx: Queryable, a: { type: KpiAssigneeType; id: number }): Promise<boolean> {
  const { rows } = await tx.query<{ found: boolean }>(`select exists(select 1 from ${TABLES[a.type]} where id = $1) as found`, [a.id]);
  return rows[0].found;
}

/** The extensions whose calls are the assignee's: the agent's, or those of the team's or department's accounts now. */
export async function assigneeExtensions(tx: Queryable, a: { type: KpiAssigneeType; id: number }): Promise<string[]> {
  const column = a.type === 'user' ? 'u.id' : a.type === 'team' ? 'u.team_id' : 'u.department_id';
  const { rows } = await tx.query<{ extension: string }>(
    `select s.extension from subscribers s join users u on u.id = s.user_id where ${column} = $1 order by s.extension`,
    [a.id],
  );
  return rows.map((r) => r.extension);
}

/** The accounts whose work is the assignee's: the agent, or the team's or department's accounts now. */
export async function assigneeUsers(tx: Queryable, a: { type: KpiAssigneeType; id: number }): Promise<number[]> {
  const column = a.type === 'user' ? 'u.id' : a.type === 'team' ? 'u.team_id' : 'u.department_id';
  const { rows } = await tx.query<{ id: number }>(`select u.id from users u where ${column} = $1 order by u.id`, [a.id]);
  return rows.map((r) => r.id);
}

/** The viewer's own team and department (the KPIs assigned to them concern the viewer too). */
export async function ownPlace(tx: Queryable, userId: number): Promise<{ teamId: number | null; departmentId: number | null }> {
  const { rows } = await tx.query<{ team_id: number | null; department_id: number | null }>('select team_id, department_id from users where id = $1', [userId]);
  return { teamId: rows[0]?.team_id ?? null, departmentId: rows[0]?.department_id ?? null };
}

export async function departmentNames(tx: Queryable, ids: number[]): Promise<Map<number, string>> {
  const { rows } = await tx.query<{ id: number; name: string }>('select id, name from departments where id = any($1::int[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.name]));
}
