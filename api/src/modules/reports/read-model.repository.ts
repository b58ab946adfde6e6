import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';

/**
 * SQL over the rollups only (migration 0022): never the raw cdrs. Every query runs inside
 * withTenant, so RLS supplies the tenant. $1/$2 are the range's instants (whole hours): a range
 * of whole Vietnam days reads cdr_daily, any other cdr_hourly (same columns, same sums).
 */
const DAY_MS = 86_400_000;
const VN_OFFSET_MS = 7 * 3_600_000;
const isVnMidnight = (d: Date) => (d.getTime() + VN_OFFSET_MS) % DAY_MS === 0;

/** `from <rollup> h where <time in range>` at the coarsest grain that answers the range exactly. */
function grain(q: RangeParams, hourly = false): { table: string; time: string } {
  return !hourly && isVnMidnight(q.from) && isVnMidnight(q.to) ? { table: 'cdr_daily', time: 'day' } : { table: 'cdr_hourly', time: 'hour' };
}
function rollupIn(q: RangeParams, hourly = false): string {
  const { table, time } = grain(q, hourly);
  return `${table} h where h.${time} >= $1 and h.${time} < $2`;
}

/** The sums every figure is made of, as the database adds them up. */
export interface Sums {
  calls: number;
  calls_in: number;
  calls_out: number;
  calls_internal: number;
  answered: number;
  no_answer: number;
  busy: number;
  failed: number;
  blocked: number;
  billsec: number;
  wait_sec: number;
  /** Answered within their queue's sla_seconds (migration 0027). */
  answered_sla: number;
}

/**
 * The select list of Sums over `a`: over rollup rows (`raw`), or re-added over rows that are
 * already Sums (the outer level of a two-step aggregate).
 */
function sums(a: string, raw: boolean): string {
  const dir = (d: string, col: string) => (raw ? `sum(${a}.calls) filter (where ${a}.direction = '${d}')` : `sum(${a}.${col})`);
  const int: [string, string][] = [
    ['calls', `sum(${a}.calls)`], ['calls_in', dir('inbound', 'calls_in')], ['calls_out', dir('outbound', 'calls_out')],
    ['calls_internal', dir('internal', 'calls_internal')], ['answered', `sum(${a}.answered)`], ['no_answer', `sum(${a}.no_answer)`],
    ['busy', `sum(${a}.busy)`], ['failed', `sum(${a}.failed)`], ['blocked', `sum(${a}.blocked)`], ['answered_sla', `sum(${a}.answered_sla)`],
  ];
  // Second sums can pass int4 at scale; float8 keeps them exact up to 2^53 and reaches JS as a number.
  const big: [string, string][] = [['billsec', `sum(${a}.billsec)`], ['wait_sec', `sum(${a}.wait_sec)`]];
  return [...int.map(([n, e]) => `coalesce(${e}, 0)::int as ${n}`), ...big.map(([n, e]) => `coalesce(${e}, 0)::float8 as ${n}`)].join(', ');
}
const SUMS = sums('h', true);

/** Each call once: an internal call's 'in' leg repeats its 'out' leg (cdr-rollup.ts). */
const ONCE = `not (h.direction = 'internal' and h.leg = 'in')`;

/** Optional scope: only these extensions' legs (an agent's own, a department's). */
function scope(params: unknown[], extensions?: readonly string[]): string {
  if (!extensions) return '';
  params.push(extensions);
  return `and h.extension = any($${params.length}::text[])`;
}

export interface RangeParams {
  from: Date;
  to: Date;
  extensions?: readonly string[];
}

export type ExtensionSums = Sums & { extension: string; user_id: number | null; full_name: string | null; department_id: number | null; team_id: number | null };

/** Per extension that had a call in the range (nobody's '' excluded), with its account's place. */
export async function sumsByExtension(tx: Queryable, q: RangeParams): Promise<ExtensionSums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = scope(params, q.extensions);
  const { rows } = await tx.query<ExtensionSums>(
    `with e as (
       select h.extension, ${SUMS} from ${rollupIn(q)}
       and h.extension <> '' ${where}
       group by h.extension)
     select e.*, u.id as user_id, u.full_name, u.department_id, u.team_id
     from e left join subscribers s on s.extension = e.extension left join users u on u.id = s.user_id
     order by length(e.extension), e.extension`,
    params,
  );
  return rows;
}

export type OrgSums = Sums & { department_id: number | null; department: string | null; team_id: number | null; team: string | null; level: 'department' | 'team' };

/**
 * Per department, and per team inside it: the sums of their accounts' extensions (accounts as
 * they are placed now). Extensions without a department are under department_id null.
 */
export async function sumsByDepartmentTeam(tx: Queryable, q: RangeParams): Promise<OrgSums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = scope(params, q.extensions);
  const { rows } = await tx.query<OrgSums & { g: number }>(
    `with x as (
       select h.extension, ${SUMS} from ${rollupIn(q)}
       and h.extension <> '' ${where}
       group by h.extension),
     e as (
       select x.*, u.department_id, u.team_id from x
       join subscribers s on s.extension = x.extension join users u on u.id = s.user_id)
     select e.department_id, d.name as department, e.team_id, t.name as team, grouping(e.team_id, t.name) as g, ${sums('e', false)}
     from e left join departments d on d.id = e.department_id left join teams t on t.id = e.team_id
     group by grouping sets ((e.department_id, d.name), (e.department_id, d.name, e.team_id, t.name))
     order by d.name nulls last, e.department_id nulls last, g desc, t.name nulls last`,
    params,
  );
  return rows.map(({ g, ...r }) => ({ ...r, level: g ? 'department' : 'team' }));
}

/** The whole tenant's sums in the range, each call once. */
export async function sumsTotal(tx: Queryable, q: RangeParams): Promise<Sums> {
  const params: unknown[] = [q.from, q.to];
  const where = scope(params, q.extensions);
  const once = q.extensions ? '' : `and ${ONCE}`;
  const { rows } = await tx.query<Sums>(`select ${SUMS} from ${rollupIn(q)} ${once} ${where}`, params);
  return rows[0];
}

export type BucketSums = Sums & { at: string };

/** One row per hour or per Vietnam day of the range, empty buckets included, each call once. */
export async function sumsSeries(tx: Queryable, q: RangeParams & { bucket: 'hour' | 'day' }): Promise<BucketSums[]> {
  const params: unknown[] = [q.from, q.to, q.bucket];
  const where = scope(params, q.extensions);
  const once = q.extensions ? '' : `and ${ONCE}`;
  const from = rollupIn(q, q.bucket === 'hour');
  const { time } = grain(q, q.bucket === 'hour');
  const { rows } = await tx.query<BucketSums & { at: unknown }>(
    `with b as (
       select generate_series(date_trunc($3, $1::timestamptz, 'Asia/Ho_Chi_Minh'), $2::timestamptz - interval '1 second', ('1 ' || $3)::interval) as at),
     s as (
       select date_trunc($3, h.${time}, 'Asia/Ho_Chi_Minh') as at, ${SUMS} from ${from}
       ${once} ${where} group by 1)
     select b.at, ${sums('s', false)}
     from b left join s on s.at = b.at group by b.at order by b.at`,
    params,
  );
  return rows.map((r) => ({ ...r, at: iso(r.at) }));
}

export type QueueSums = Sums & { queue_id: number };

/** Per queue that had a call in the range (hourly grain: the daily one has no queue), each call once. */
export async function sumsByQueue(tx: Queryable, q: RangeParams): Promise<QueueSums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = scope(params, q.extensions);
  const { rows } = await tx.query<QueueSums>(
    `select h.queue_id, ${SUMS} from ${rollupIn(q, true)} and h.queue_id <> 0 and ${ONCE} ${where} group by h.queue_id order by h.queue_id`,
    params,
  );
  return rows;
}
