import { vnDayStart, type AuditEntry, type AuditQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';

/**
 * audit_log (migration 0065): written by the database's triggers, read here. Every function runs
 * inside withTenant (RLS supplies the tenant); the app role may only insert and select.
 */

const DAY_MS = 86_400_000;
const COLUMNS = `id::int as id, at, actor_id, actor_username, actor_name, ip, user_agent, kind, entity_id, entity_name, action, changed, before, after`;

type Row = Omit<AuditEntry, 'at'> & { at: unknown };
const entryOf = (r: Row): AuditEntry => ({ ...r, at: iso(r.at) });

/** The WHERE of a query's filters (the page and its size aside), with its parameters. */
function filters(q: AuditQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = ['true'];
  if (q.from) where.push(`at >= $${params.push(vnDayStart(q.from))}`);
  if (q.to) where.push(`at < $${params.push(new Date(vnDayStart(q.to)!.getTime() + DAY_MS))}`);
  if (q.user_id) where.push(`actor_id = $${params.push(q.user_id)}`);
  if (q.kind) where.push(`kind = $${params.push(q.kind)}`);
  if (q.entity_id) where.push(`entity_id = $${params.push(q.entity_id)}`);
  if (q.action) where.push(`action = $${params.push(q.action)}`);
  // The object, who, from where, and what the values were or became (a renamed role is found by either name).
  if (q.search) {
    const fields = ['entity_name', 'actor_username', 'actor_name', 'ip', 'entity_id', "concat(before::text, ' ', after::text)"];
    where.push(searchAny(fields, `$${params.push(likePattern(q.search))}`));
  }
  return { where: where.join(' and '), params };
}

/** A page of the lines, newest first, and how many match. */
export async function listEntries(tx: Queryable, q: AuditQuery): Promise<{ rows: AuditEntry[]; total: number }> {
  const { where, params } = filters(q);
  const { rows: count } = await tx.query<{ n: number }>(`select count(*)::int as n from audit_log where ${where}`, params);
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS} from audit_log where ${where} order by at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.per_page, (q.page - 1) * q.per_page],
  );
  return { rows: rows.map(entryOf), total: count[0].n };
}

/** The next `limit` lines after `after` (newest first): the export reads the log in such pages. */
export async function entriesAfter(tx: Queryable, q: AuditQuery, after: { at: string; id: number } | null, limit: number): Promise<AuditEntry[]> {
  const { where, params } = filters(q);
  const keyset = after ? ` and (at, id) < ($${params.push(after.at)}::timestamptz, $${params.push(after.id)})` : '';
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from audit_log where ${where}${keyset} order by at desc, id desc limit $${params.push(limit)}`, params);
  return rows.map(entryOf);
}

/** The accounts that acted, each by the name its latest line gives. */
export async function actors(tx: Queryable): Promise<{ id: number; name: string }[]> {
  const { rows } = await tx.query<{ id: number; name: string }>(
    `select id, name from (
       select distinct on (actor_id) actor_id as id, coalesce(nullif(actor_name, ''), actor_username) as name
         from audit_log where actor_id is not null order by actor_id, at desc, id desc
     ) x order by name, id`,
  );
  return rows;
}
