import type { PbxListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import type { AnyPbxDef } from './pbx.resources';

/** Runs inside withTenant: no query names a tenant, RLS supplies it. */

export type PbxRow = Record<string, unknown> & { id: number };

const TIMESTAMPS = ['created_at', 'updated_at', 'override_set_at', 'override_until'];

function toRow(r: PbxRow): PbxRow {
  const out: PbxRow = { ...r };
  for (const k of TIMESTAMPS) if (out[k] !== undefined && out[k] !== null) out[k] = iso(out[k]);
  return out;
}

/** The resource's rows as `r`, restricted to its scope (blocked in/out, greeting/moh). */
function source(def: AnyPbxDef, params: unknown[]): string {
  if (!def.scope) return `(${def.select}) r`;
  params.push(def.scope.value);
  return `(${def.select} where x.${def.scope.column} = $${params.length}) r`;
}

/** `phoneSearch`: the search as the start of a stored phone number (84…), matched in def.phoneSearch. */
export async function listRows(tx: Queryable, def: AnyPbxDef, q: PbxListQuery, phoneSearch: string | null = null): Promise<{ rows: PbxRow[]; total: number }> {
  const params: unknown[] = [];
  const from = source(def, params);
  const where: string[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    const typed = searchAny(def.search, `$${params.length}`);
    if (phoneSearch && def.phoneSearch) params.push(likePattern(phoneSearch));
    where.push(phoneSearch && def.phoneSearch ? `(${typed} or ${searchAny(def.phoneSearch, `$${params.length}`)})` : typed);
  }
  if (q.filter_action && def.filterAction) {
    params.push(q.filter_action);
    where.push(`${def.filterAction} = $${params.length}`);
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from ${from} ${filter}`, params);
  const { rows } = await tx.query<PbxRow>(`select * from ${from} ${filter} order by ${def.order} limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params,
    q.page_size,
    (q.page - 1) * q.page_size,
  ]);
  return { rows: rows.map(toRow), total: count.rows[0].total };
}

export async function allRows(tx: Queryable, def: AnyPbxDef): Promise<PbxRow[]> {
  const params: unknown[] = [];
  const { rows } = await tx.query<PbxRow>(`select * from ${source(def, params)} order by ${def.order}`, params);
  return rows.map(toRow);
}

export async function getRow(tx: Queryable, def: AnyPbxDef, id: number): Promise<PbxRow | null> {
  const params: unknown[] = [];
  const from = source(def, params);
  params.push(id);
  const { rows } = await tx.query<PbxRow>(`select * from ${from} where r.id = $${params.length}`, params);
  return rows[0] ? toRow(rows[0]) : null;
}

/** A number by its digits (GET /partner/number/{number}). */
export async function getRowBy(tx: Queryable, def: AnyPbxDef, column: string, value: string): Promise<PbxRow | null> {
  const params: unknown[] = [];
  const from = source(def, params);
  params.push(value);
  const { rows } = await tx.query<PbxRow>(`select * from ${from} where r.${column} = $${params.length}`, params);
  return rows[0] ? toRow(rows[0]) : null;
}

export async function insertRow(tx: Queryable, table: string, tenantId: number, cols: Record<string, unknown>): Promise<number> {
  const names = Object.keys(cols);
  const { rows } = await tx.query<{ id: number }>(
    `insert into ${table} (tenant_id, ${names.join(', ')}) values ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')}) returning id`,
    [tenantId, ...names.map((n) => cols[n])],
  );
  return rows[0].id;
}

export async function updateRow(tx: Queryable, table: string, id: number, cols: Record<string, unknown>): Promise<boolean> {
  const names = Object.keys(cols);
  const sets = names.map((n, i) => `${n} = $${i + 2}`).join(', ');
  const { rows } = await tx.query(`update ${table} set ${sets}, updated_at = now() where id = $1 returning id`, [id, ...names.map((n) => cols[n])]);
  return rows.length > 0;
}

export async function deleteRow(tx: Queryable, table: string, id: number): Promise<boolean> {
  const { rows } = await tx.query(`delete from ${table} where id = $1 returning id`, [id]);
  return rows.length > 0;
}
