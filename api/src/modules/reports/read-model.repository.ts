import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import type { CallResult } from '@tongdai/contracts';

/**
 * SQL over the rollups only (migrations 0022, 0025): never the raw cdrs. Every query runs inside
 * withTenant, so RLS supplies the tenant. $1/$2 are the range's instants (whole hours): a range
 * of whole Vietnam days reads cdr_daily (cdr_daily_queue for a queue or result), any other cdr_hourly
 * (same sums).
 */
const DAY_MS = 86_400_000;
const VN_OFFSET_MS = 7 * 3_600_000;
const isVnMidnight = (d: Date) => (d.getTime() + VN_OFFSET_MS) % DAY_MS === 0;

/**
 * `from <rollup> h where <time in range>` at the coarsest grain that answers the range exactly:
 * whole Vietnam days read cdr_daily, or cdr_daily_queue for one queue or one result (it holds the
 * queue and the per-result waits, migration 0025).
 */
function grain(q: RangeParams, hourly = false): { table: string; time: string } {
  if (hourly || !isVnMidnight(q.from) || !isVnMidnight(q.to)) return { table: 'cdr_hourly', time: 'hour' };
  return { table: q.queueId === undefined && !q.result ? 'cdr_daily' : 'cdr_daily_queue', time: 'day' };
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
  voicemail: number;
  auto: number;
  no_answer: number;
  busy: number;
  failed: number;
  blocked: number;
  billsec: number;
  wait_sec: number;
  /** Answered within their queue's sla_seconds (migration 0027). */
  answered_sla: number;
  /** Post-call CSAT (migration 0062): calls their caller rated, and the sum of the scores. */
  csat_count: number;
  csat_sum: number;
}

type Result = CallResult;
/** Every result but a person's answer: each has its own wait column (migrations 0025, 0043). */
const UNANSWERED = ['voicemail', 'auto', 'no_answer', 'busy', 'failed', 'blocked'] as const;

/**
 * The select list of Sums over `a`: over rollup rows (`raw`), or re-added over rows that are
 * already Sums (the outer level of a two-step aggregate). Over rollup rows with a `result`, only
 * the calls of that result count: its count column is the calls, the other outcomes are 0, talk
 * time is an answered call's, the wait that result's own (migration 0025).
 */
function sums(a: string, raw: boolean, result?: Result): string {
  const calls = result ? `${a}.${result}` : `${a}.calls`;
  const dir = (d: string, col: string) => (raw ? `sum(${calls}) filter (where ${a}.direction = '${d}')` : `sum(${a}.${col})`);
  const outcome = (col: Result) => (!raw || !result || result === col ? `sum(${a}.${col})` : '0');
  const wait = !raw || !result ? `sum(${a}.wait_sec)`
    : result === 'answered' ? `sum(${a}.wait_sec - ${UNANSWERED.map((r) => `${a}.${r}_wait_sec`).join(' - ')})`
    : `sum(${a}.${result}_wait_sec)`;
  const int: [string, string][] = [
    ['calls', raw ? `sum(${calls})` : `sum(${a}.calls)`], ['calls_in', dir('inbound', 'calls_in')], ['calls_out', dir('outbound', 'calls_out')],
    ['calls_internal', dir('internal', 'calls_internal')], ['answered', outcome('answered')], ['voicemail', outcome('voicemail')], ['auto', outcome('auto')], ['no_answer', outcome('no_answer')],
    ['busy', outcome('busy')], ['failed', outcome('failed')], ['blocked', outcome('blocked')],
    // Answered within the queue's service level: answered calls only.
    ['answered_sla', !raw || !result || result === 'answered' ? `sum(${a}.answered_sla)` : '0'],
    // Post-call CSAT: only a call a person answered is rated.
    ['csat_count', !raw || !result || result === 'answered' ? `sum(${a}.csat_count)` : '0'],
    ['csat_sum', !raw || !result || result === 'answered' ? `sum(${a}.csat_sum)` : '0'],
  ];
  // Second sums can pass int4 at scale; float8 keeps them exact up to 2^53 and reaches JS as a number.
  const big: [string, string][] = [['billsec', !raw || !result || result === 'answered' ? `sum(${a}.billsec)` : '0'], ['wait_sec', wait]];
  return [...int.map(([n, e]) => `coalesce(${e}, 0)::int as ${n}`), ...big.map(([n, e]) => `coalesce(${e}, 0)::float8 as ${n}`)].join(', ');
}
const SUMS = (q: RangeParams) => sums('h', true, q.result);

/** Each call once: an internal call's 'in' leg repeats its 'out' leg (cdr-rollup.ts). */
const ONCE = `not (h.direction = 'internal' and h.leg = 'in')`;

/**
 * The filters every summary shares, as conditions on rollup rows `h`: these extensions' legs (a
 * viewer's scope, an extension/department/team filter), a direction, a queue, a result, one leg.
 */
function filters(params: unknown[], q: RangeParams): string {
  const out: string[] = [];
  if (q.extensions) out.push(`and h.extension = any($${params.push(q.extensions)}::text[])`);
  if (q.direction) out.push(`and h.direction = $${params.push(q.direction)}`);
  if (q.queueId !== undefined) out.push(`and h.queue_id = $${params.push(q.queueId)}`);
  if (q.leg) out.push(`and h.leg = $${params.push(q.leg)}`);
  // Rows without a call of the result add nothing, and an extension with none has no row.
  if (q.result) out.push(`and h.${q.result} > 0`);
  return out.join(' ');
}

export interface RangeParams {
  from: Date;
  to: Date;
  extensions?: readonly string[];
  direction?: 'inbound' | 'outbound' | 'internal';
  result?: Result;
  queueId?: number;
  leg?: 'in' | 'out';
}

export type ExtensionSums = Sums & { extension: string; user_id: number | null; full_name: string | null; department_id: number | null; team_id: number | null };

/** Per extension that had a call in the range (nobody's '' excluded), with its account's place. */
export async function sumsByExtension(tx: Queryable, q: RangeParams): Promise<ExtensionSums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = filters(params, q);
  const { rows } = await tx.query<ExtensionSums>(
    `with e as (
       select h.extension, ${SUMS(q)} from ${rollupIn(q)}
       and h.extension <> '' ${where}
       group by h.extension)
     select e.*, u.id as user_id, u.full_name, u.department_id, u.team_id
     from e left join subscribers s on s.extension = e.extension left join users u on u.id = s.user_id
     order by length(e.extension), e.extension`,
    params,
  );
  return rows;
}

export type ExtensionDaySums = Sums & { extension: string; day: string };

/** Per extension and Vietnam day (whole days only: cdr_daily), nobody's '' excluded. */
export async function sumsByExtensionDay(tx: Queryable, q: RangeParams): Promise<ExtensionDaySums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = filters(params, q);
  const { rows } = await tx.query<ExtensionDaySums>(
    `select h.extension, to_char(h.day at time zone 'Asia/Ho_Chi_Minh', 'YYYY-MM-DD') as day, ${SUMS(q)}
     from cdr_daily h where h.day >= $1 and h.day < $2 and h.extension <> '' ${where}
     group by h.extension, h.day order by h.day, h.extension`,
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
  const where = filters(params, q);
  const { rows } = await tx.query<OrgSums & { g: number }>(
    `with x as (
       select h.extension, ${SUMS(q)} from ${rollupIn(q)}
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
  const where = filters(params, q);
  const once = q.extensions ? '' : `and ${ONCE}`;
  const { rows } = await tx.query<Sums>(`select ${SUMS(q)} from ${rollupIn(q)} ${once} ${where}`, params);
  return rows[0];
}

export type LegSums = Sums & { leg: 'in' | 'out' };

/**
 * A set of extensions' sums per leg: 'out' the calls they placed (outbound, internal), 'in' the
 * calls they received (inbound they answered, internal to them). An internal call between two of
 * them is one placed and one received call, as the per-extension summary counts it.
 */
export async function sumsByLeg(tx: Queryable, q: RangeParams & { extensions: readonly string[] }): Promise<LegSums[]> {
  const params: unknown[] = [q.from, q.to];
  const where = filters(params, q);
  const { rows } = await tx.query<LegSums>(
    `select h.leg, ${SUMS(q)} from ${rollupIn(q)} and h.extension <> '' and h.leg in ('in', 'out') ${where} group by h.leg`,
    params,
  );
  return rows;
}

export type BucketSums = Sums & { at: string };

/** One row per hour or per Vietnam day of the range, empty buckets included, each call once. */
export async function sumsSeries(tx: Queryable, q: RangeParams & { bucket: 'hour' | 'day' }): Promise<BucketSums[]> {
  const params: unknown[] = [q.from, q.to, q.bucket];
  const where = filters(params, q);
  const once = q.extensions ? '' : `and ${ONCE}`;
  const from = rollupIn(q, q.bucket === 'hour');
  const { time } = grain(q, q.bucket === 'hour');
  const { rows } = await tx.query<BucketSums & { at: unknown }>(
    `with b as (
       select generate_series(date_trunc($3, $1::timestamptz, 'Asia/Ho_Chi_Minh'), $2::timestamptz - interval '1 second', ('1 ' || $3)::interval) as at),
     s as (
       select date_trunc($3, h.${time}, 'Asia/Ho_Chi_Minh') as at, ${SUMS(q)} from ${from}
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
  const where = filters(params, q);
  const { rows } = await tx.query<QueueSums>(
    `select h.queue_id, ${SUMS(q)} from ${rollupIn(q, true)} and h.queue_id <> 0 and ${ONCE} ${where} group by h.queue_id order by h.queue_id`,
    params,
  );
  return rows;
}
