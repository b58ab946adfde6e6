import type { DncListQuery, DncSource, DncSummary } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';

/** SQL of the do-not-call lists' screen (migrations 0045, 0050). Runs inside withTenant; numbers 84…. */

export interface DncRow {
  id: number;
  number: string;
  source: DncSource;
  note: string;
  created_at: string;
}

const COLUMNS = 'id::int as id, number, source, note, created_at';

/**
 * A page of one list or both, newest first; `prefix` (stored form) is a range on the primary key's
 * number, so a search of hundreds of thousands of rows is an index scan.
 */
export async function listDnc(tx: Queryable, q: DncListQuery, prefix: string | null): Promise<{ rows: DncRow[]; total: number }> {
  const params: unknown[] = [];
  const where = ['true'];
  if (q.source) where.push(`source = $${params.push(q.source)}`);
  if (prefix) where.push(`number >= $${params.push(prefix)} and number < $${params.push(`${prefix}~`)}`);
  const total = await tx.query<{ n: number }>(`select count(*)::int as n from dnc_numbers where ${where.join(' and ')}`, params);
  const { rows } = await tx.query<DncRow & { created_at: unknown }>(
    `select ${COLUMNS} from dnc_numbers where ${where.join(' and ')} order by created_at desc, id desc limit $${params.push(q.per_page)} offset $${params.push((q.page - 1) * q.per_page)}`,
    params,
  );
  return { rows: rows.map((r) => ({ ...r, created_at: iso(r.created_at) })), total: total.rows[0].n };
}

export async function summary(tx: Queryable): Promise<DncSummary> {
  const { rows } = await tx.query<{ source: DncSource; n: number }>('select source, count(*)::int as n from dnc_numbers group by source');
  const out: DncSummary = { tenant: 0, national: 0 };
  for (const r of rows) out[r.source] = r.n;
  return out;
}

/** One number added by hand; null when it is already on that list. */
export async function insertOne(tx: Queryable, tenantId: number, number: string, source: DncSource, note: string): Promise<DncRow | null> {
  const { rows } = await tx.query<DncRow & { created_at: unknown }>(
    `insert into dnc_numbers (tenant_id, number, source, note) values ($1, $2, $3, $4) on conflict do nothing returning ${COLUMNS}`,
    [tenantId, number, source, note],
  );
  return rows[0] ? { ...rows[0], created_at: iso(rows[0].created_at) } : null;
}

export async function removeOne(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('delete from dnc_numbers where id = $1 returning 1', [id]);
  return rows.length > 0;
}

/** Empties one list (a national file replaces the one before it). */
export async function clearSource(tx: Queryable, source: DncSource): Promise<void> {
  await tx.query('delete from dnc_numbers where source = $1', [source]);
}
