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

export interface ConsentRow {
  id: number;
  number: string;
  source: string;
  agreed_at: string;
  lifts_window: boolean;
  lifts_cap: boolean;
  overrides_dnc: boolean;
  note: string;
  recorded_by: string;
  created_at: string;
}
const CONSENT_COLUMNS = 'id::int as id, number, source, agreed_at, lifts_window, lifts_cap, overrides_dnc, note, recorded_by, created_at';
type RawConsent = Omit<ConsentRow, 'agreed_at' | 'created_at'> & { agreed_at: unknown; created_at: unknown };
const consentOf = (r: RawConsent): ConsentRow => ({ ...r, agreed_at: iso(r.agreed_at), created_at: iso(r.created_at) });

/** Recorded consents, newest first; `prefix` (stored form) a range on the number's index. */
export async function listConsents(tx: Queryable, page: { page: number; per_page: number }, prefix: string | null): Promise<{ rows: ConsentRow[]; total: number }> {
  const params: unknown[] = [];
  const where = prefix ? `number >= $${params.push(prefix)} and number < $${params.push(`${prefix}~`)}` : 'true';
  const total = await tx.query<{ n: number }>(`select count(*)::int as n from contact_consents where ${where}`, params);
  const { rows } = await tx.query<RawConsent>(
    `select ${CONSENT_COLUMNS} from contact_consents where ${where} order by created_at desc, id desc limit $${params.push(page.per_page)} offset $${params.push((page.page - 1) * page.per_page)}`,
    params,
  );
  return { rows: rows.map(consentOf), total: total.rows[0].n };
}

export async function insertConsentRow(
  tx: Queryable, tenantId: number, x: Omit<ConsentRow, 'id' | 'created_at' | 'agreed_at'> & { agreed_at: Date },
): Promise<ConsentRow> {
  const { rows } = await tx.query<RawConsent>(
    `insert into contact_consents (tenant_id, number, source, agreed_at, lifts_window, lifts_cap, overrides_dnc, note, recorded_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${CONSENT_COLUMNS}`,
    [tenantId, x.number, x.source, x.agreed_at, x.lifts_window, x.lifts_cap, x.overrides_dnc, x.note, x.recorded_by],
  );
  return consentOf(rows[0]);
}

/** The consent in force of a number (the latest agreed), or null. */
export async function consentInForce(tx: Queryable, number: string): Promise<ConsentRow | null> {
  const { rows } = await tx.query<RawConsent>(`select ${CONSENT_COLUMNS} from contact_consents where number = $1 order by agreed_at desc, id desc limit 1`, [number]);
  return rows[0] ? consentOf(rows[0]) : null;
}

/** The name a record keeps of the user who made it. */
export async function userName(tx: Queryable, id: number): Promise<string> {
  const { rows } = await tx.query<{ name: string }>("select coalesce(nullif(full_name, ''), username) as name from users where id = $1", [id]);
  return rows[0]?.name ?? '';
}
