import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import type { CdrRow } from './cdr';

/** A call record as reports read it: the row with its id and ISO times. */
export type CdrRecord = Omit<CdrRow, 'started_at' | 'answered_at' | 'ended_at'> & {
  id: number;
  started_at: string;
  answered_at: string | null;
  ended_at: string;
};

export interface CdrRangeQuery {
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

/**
 * One tenant's call records in a time range, newest first, paged by keyset (started_at, id) on
 * the index cdrs_tenant_started_idx: page 1000 costs what page 1 does (never OFFSET). Runs inside
 * withTenant: RLS supplies the tenant, so a query without one sees no record. A cursor that does
 * not decode reads as the first page.
 */
export async function listTenantCdrs(tx: Queryable, q: CdrRangeQuery): Promise<CdrPage> {
  const limit = Math.min(Math.max(Math.trunc(q.limit), 1), 1000);
  const params: unknown[] = [q.from, q.to];
  let after = '';
  const key = q.cursor ? decode(q.cursor) : null;
  if (key) {
    params.push(key[0], key[1]);
    after = 'and (started_at, id) < ($3::timestamptz, $4::bigint)';
  }
  params.push(limit + 1);
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS}, started_at::text as at_key from cdrs
     where started_at >= $1 and started_at < $2 ${after}
     order by started_at desc, id desc limit $${params.length}`,
    params,
  );
  const page = rows.slice(0, limit);
  return {
    rows: page.map(({ at_key: _key, ...r }) => ({
      ...r,
      started_at: iso(r.started_at),
      answered_at: r.answered_at === null ? null : iso(r.answered_at),
      ended_at: iso(r.ended_at),
    })),
    next: rows.length > limit ? encode(page[page.length - 1]) : null,
  };
}
