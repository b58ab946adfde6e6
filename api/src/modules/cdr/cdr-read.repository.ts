import type { Queryable } from '../../db/db';
import { iso, likePattern } from '../../db/sql';
import type { CdrFilter, CdrRow } from './cdr';
import { pageKeysSql, searchKeysSql } from './cdr-page-keys';

export type { CdrFilter };

/** A call record as reports read it: the row with its id and ISO times. */
export type CdrRecord = Omit<CdrRow, 'started_at' | 'answered_at' | 'ended_at'> & {
  id: number;
  started_at: string;
  answered_at: string | null;
  ended_at: string;
};

export interface CdrRangeQuery extends CdrFilter {
  /** Calls started at or after this instant… */
  from: Date;
  /** …and before this one. */
  to: Date;
  /** Rows per page (1–1000). */
  limit: number;
  /** `next` of the previous page; absent for the first page. */
  cursor?: string | null;
}

export interface CdrPage {
  rows: CdrRecord[];
  /** Cursor of the next page, null on the last one. */
  next: string | null;
}

const COLUMNS = `id::int as id, tenant_id, call_id, caller, callee, did, direction, route, ring_group_id, queue_id, extension, trunk,
  started_at, answered_at, ended_at, duration, billsec, disposition, sip_code, reason`;

type Row = Omit<CdrRecord, 'started_at' | 'answered_at' | 'ended_at'> & { started_at: unknown; answered_at: unknown; ended_at: unknown; at_key: string };

/** The cursor names the last row seen by its exact key (started_at as the database prints it, id). */
const encode = (r: Row): string => Buffer.from(JSON.stringify([r.at_key, r.id])).toString('base64url');
function decode(cursor: string): [string, number] | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(v) && typeof v[0] === 'string' && Number.isSafeInteger(v[1]) && !Number.isNaN(Date.parse(v[0])) ? [v[0], v[1]] : null;
  } catch {
    return null;
  }
}

/** The WHERE conditions of a range and filter, with their parameters appended to `params`. */
export function conditions(q: Omit<CdrRangeQuery, 'limit'>, params: unknown[]): string {
  const p = (value: unknown) => `$${params.push(value)}`;
  const where = [`started_at >= ${p(q.from)}`, `started_at < ${p(q.to)}`];
  if (q.direction) where.push(`direction = ${p(q.direction)}`);
  if (q.disposition) where.push(`disposition = ${p(q.disposition)}`);
  if (q.queueId !== undefined) where.push(`queue_id = ${p(q.queueId)}`);
  if (q.dids) where.push(`did = any(${p(q.dids)}::text[])`);
  if (q.number) {
    const like = p(likePattern(q.number));
    where.push(`(caller like ${like} or callee like ${like} or did like ${like})`);
  }
  for (const list of [q.extensions, q.scope]) {
    if (!list) continue;
    const exts = p(list);
    where.push(`(extension = any(${exts}::text[]) or (direction <> 'inbound' and caller = any(${exts}::text[])) or (direction = 'internal' and callee = any(${exts}::text[])))`);
  }
  return where.join(' and ');
}

/**
 * A page statement: `columns` of the rows of the range and filter (and after the keyset position
 * `after`, a condition already holding its parameters), newest first, `limit` (and `offset`) as
 * placeholders. A number search of four digits or more finds its rows by the trigram index, else a
 * filter with an index of its own by exact index ranges first (cdr-page-keys.ts), then reads those
 * rows by key; else the range is walked on (tenant_id, started_at, id).
 */
function pageSql(q: Omit<CdrRangeQuery, 'limit'>, columns: string, params: unknown[], after: string, limit: string, offset?: string): string {
  const where = conditions(q, params) + after;
  const first = offset ? `${limit} + ${offset}` : limit;
  const keys = searchKeysSql(q, where, params, first) ?? pageKeysSql(q, (f) => conditions({ ...f, from: q.from, to: q.to }, params) + after, params, first);
  const tail = offset ? ` offset ${offset}` : '';
  if (!keys) return `select ${columns} from cdrs where ${where} order by started_at desc, id desc limit ${limit}${tail}`;
  return `select r.* from (${keys}) k
    cross join lateral (select ${columns} from cdrs where id = k.id and started_at = k.started_at and ${where}) r
    order by k.started_at desc, k.id desc limit ${limit}${tail}`;
}

const toRecord = ({ at_key: _key, ...r }: Row): CdrRecord => ({
  ...r,
  started_at: iso(r.started_at),
  answered_at: r.answered_at === null ? null : iso(r.answered_at),
  ended_at: iso(r.ended_at),
});

/**
 * The same calls as listTenantCdrs, as numbered pages with their total (a screen's pager). Deep
 * pages cost OFFSET; API clients and exports page by cursor instead. `knownTotal`: the total as the
 * caller already knows it (the read model's count), so the records are not counted.
 */
export async function pageTenantCdrs(tx: Queryable, q: Omit<CdrRangeQuery, 'cursor'>, page: number, knownTotal?: number): Promise<{ rows: CdrRecord[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(q.limit), 1), 1000);
  const params: unknown[] = [];
  const where = conditions(q, params);
  // A long number search counts the trigram index's matches (a miss costs nothing), else the records.
  const matches = searchKeysSql(q, where, params, null);
  const total = knownTotal ?? (await tx.query<{ n: number }>(`select count(*)::int as n from ${matches ? `(${matches}) m` : `cdrs where ${where}`}`, params)).rows[0].n;
  const rowParams: unknown[] = [];
  const sql = pageSql(q, `${COLUMNS}, started_at::text as at_key`, rowParams, '', `$${rowParams.push(limit)}::int`, `$${rowParams.push((Math.max(1, page) - 1) * limit)}::int`);
  const { rows } = await tx.query<Row>(sql, rowParams);
  return { rows: rows.map(toRecord), total };
}

/**
 * One tenant's call records in a time range (and filter), newest first, paged by keyset (started_at, id) on
 * the index cdrs_tenant_started_idx, or a filter's exact index ranges (pageSql): page 1000 costs what page 1 does (never OFFSET). Runs inside
 * withTenant: RLS supplies the tenant, so a query without one sees no record. A cursor that does
 * not decode reads as the first page.
 */
export async function listTenantCdrs(tx: Queryable, q: CdrRangeQuery): Promise<CdrPage> {
  const limit = Math.min(Math.max(Math.trunc(q.limit), 1), 1000);
  const params: unknown[] = [];
  const key = q.cursor ? decode(q.cursor) : null;
  const after = key ? ` and (started_at, id) < ($${params.push(key[0])}::timestamptz, $${params.push(key[1])}::bigint)` : '';
  const sql = pageSql(q, `${COLUMNS}, started_at::text as at_key`, params, after, `$${params.push(limit + 1)}::int`);
  const { rows } = await tx.query<Row>(sql, params);
  const page = rows.slice(0, limit);
  return { rows: page.map(toRecord), next: rows.length > limit ? encode(page[page.length - 1]) : null };
}

/**
 * What a report line shows of a record, as it comes from the database: an export reads only these
 * columns, its times as numbers (started_at in whole microseconds since 1970, exact in a double;
 * answered_at cut to milliseconds as pg's Date is), so there is no timestamp to format or parse.
 */
export type CdrLine = Pick<CdrRecord, 'id' | 'direction' | 'caller' | 'callee' | 'did' | 'extension' | 'duration' | 'billsec' | 'disposition' | 'sip_code'> & {
  at_us: number;
  answered_ms: number | null;
  /** The path, null when empty (most calls: nothing to parse). */
  route: CdrRecord['route'] | null;
  /** The plan's own reason, null when it gave none. */
  reason: string | null;
};

/** Where a line page stopped: the last row's started_at in whole microseconds since 1970 (exact in a double) and id. */
export interface LineKey {
  atUs: number;
  id: number;
}

// An empty route or reason comes as null: a field the driver does not slice, decode or parse (most lines).
const LINE_COLUMNS = `id::int as id, (extract(epoch from started_at) * 1000000)::float8 as at_us,
  floor(extract(epoch from answered_at) * 1000)::float8 as answered_ms, direction, caller, callee, did,
  case when route <> '[]'::jsonb then route end as route, extension,
  duration, billsec, disposition, sip_code, nullif(reason, '') as reason`;

/** The instant of a LineKey, to the microsecond, as PostgreSQL reads it. */
const keyInstant = (us: number): string => `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}.${String(us % 1_000_000).padStart(6, '0')}Z`;

/** The statement of a line page (without a limit: every line after `after`, as the bench runs it in psql). */
export function lineStatement(q: Omit<CdrRangeQuery, 'cursor' | 'limit'>, after: LineKey | null, limit: number | null): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const past = after ? ` and (started_at, id) < ($${params.push(keyInstant(after.atUs))}::timestamptz, $${params.push(after.id)}::bigint)` : '';
  if (limit === null) return { sql: `select ${LINE_COLUMNS} from cdrs where ${conditions(q, params)}${past} order by started_at desc, id desc`, params };
  return { sql: pageSql(q, LINE_COLUMNS, params, past, `$${params.push(limit)}::int`), params };
}

/**
 * The same calls, in the same order, as listTenantCdrs, as report lines, `limit` (up to 10,000)
 * after `after`: an export's pages (ADR 0029). Keyset, so each page is its own short transaction.
 */
export async function listTenantCdrLines(tx: Queryable, q: Omit<CdrRangeQuery, 'cursor'>, after: LineKey | null): Promise<{ rows: CdrLine[]; next: LineKey | null }> {
  const limit = Math.min(Math.max(Math.trunc(q.limit), 1), 10_000);
  const { sql, params } = lineStatement(q, after, limit);
  const { rows } = await tx.query<CdrLine>(sql, params);
  const last = rows.at(-1);
  return { rows, next: rows.length === limit && last ? { atUs: last.at_us, id: last.id } : null };
}

/**
 * Records matched by one extension's filter minus their rollup legs with that extension, over a
 * range and filter (its own extension lists and number left out): what makes a numbered page's
 * total for one extension the rollups' sum (ADR 0029 amendment 2). The rollups key a call by its
 * legs — the caller for outbound and internal calls, the one who answered (else was called) for
 * inbound and internal ones — while the filter matches an extension in any of its roles; they only
 * disagree on the records of the partial index cdrs_odd_legs_idx (migration 0035), which this reads
 * alone (the predicate is the index's, word for word). Zero on every record the generator writes.
 */
export async function oddLegCorrection(tx: Queryable, q: Omit<CdrRangeQuery, 'limit' | 'cursor'>, extension: string): Promise<number> {
  const params: unknown[] = [];
  const where = conditions({ ...q, extensions: undefined, scope: undefined, number: undefined }, params);
  const e = `$${params.push(extension)}`;
  const is = (cond: string) => `coalesce(${cond}, false)::int`;
  const { rows } = await tx.query<{ n: number }>(
    `select coalesce(sum(${is(`extension = ${e} or (direction <> 'inbound' and caller = ${e}) or (direction = 'internal' and callee = ${e})`)}
        - ${is(`direction <> 'inbound' and caller = ${e}`)}
        - ${is(`direction <> 'outbound' and coalesce(extension, case when direction = 'internal' then callee end, '') = ${e}`)}), 0)::int as n
       from cdrs where ${where}
        and ((direction = 'outbound' and extension <> caller)
          or (direction = 'internal' and (caller = coalesce(extension, callee) or extension <> callee)))`,
    params,
  );
  return rows[0].n;
}
