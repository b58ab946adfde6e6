import type { CallHistory, CallHistoryInput, DirectoryEntry, Subscriber, SubscriberInput, SubscriberListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import { openSipPassword, sealSipPassword } from './sip-password-box';

/** Runs inside withTenant: no query names a tenant, RLS supplies it (users are joined under the same policy). */

const COLUMNS = `s.id, s.extension, s.display_name, s.user_id,
  case when u.id is null then null else coalesce(nullif(u.full_name, ''), u.username) end as user_name, s.created_at`;
const FROM = 'subscribers s left join users u on u.id = s.user_id';

type Row = Omit<Subscriber, 'created_at'> & { created_at: Date | string };
const toSubscriber = (r: Row): Subscriber => ({ ...r, created_at: iso(r.created_at) });

export async function listSubscribers(tx: Queryable, q: SubscriberListQuery): Promise<{ rows: Subscriber[]; total: number }> {
  const params: unknown[] = [];
  let filter = '';
  if (q.search) {
    params.push(likePattern(q.search));
    filter = `where ${searchAny(['s.extension', 's.display_name', 'u.username', 'u.full_name'], '$1')}`;
  }
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from ${FROM} ${filter}`, params);
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS} from ${FROM} ${filter} order by s.extension limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.per_page, (q.page - 1) * q.per_page],
  );
  return { rows: rows.map(toSubscriber), total: count.rows[0].total };
}

export async function listLinkedSubscribers(tx: Queryable): Promise<Subscriber[]> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from ${FROM} where s.user_id is not null order by s.extension`);
  return rows.map(toSubscriber);
}

export async function getSubscriber(tx: Queryable, id: number): Promise<Subscriber | null> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from ${FROM} where s.id = $1`, [id]);
  return rows[0] ? toSubscriber(rows[0]) : null;
}

/** Which other subscriber already uses this extension or this account (for a per-field 409). */
export async function clashes(tx: Queryable, input: SubscriberInput, exceptId: number): Promise<{ extension: boolean; user: boolean }> {
  const { rows } = await tx.query<{ extension: boolean; user_taken: boolean }>(
    `select coalesce(bool_or(extension = $1), false) as extension, coalesce(bool_or(user_id = $2), false) as user_taken
     from subscribers where id <> $3`,
    [input.extension, input.user_id, exceptId],
  );
  return { extension: rows[0].extension, user: rows[0].user_taken };
}

export async function userExists(tx: Queryable, userId: number): Promise<boolean> {
  const { rows } = await tx.query('select 1 from users where id = $1', [userId]);
  return rows.length > 0;
}

export async function insertSubscriber(tx: Queryable, tenantId: number, input: SubscriberInput, password: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    'insert into subscribers (tenant_id, extension, display_name, user_id, sip_password) values ($1, $2, $3, $4, $5) returning id',
    [tenantId, input.extension, input.display_name, input.user_id, sealSipPassword(tenantId, password)],
  );
  return rows[0].id;
}

export async function updateSubscriber(tx: Queryable, id: number, input: SubscriberInput): Promise<boolean> {
  const { rows } = await tx.query(
    'update subscribers set extension = $2, display_name = $3, user_id = $4, updated_at = now() where id = $1 returning id',
    [id, input.extension, input.display_name, input.user_id],
  );
  return rows.length > 0;
}

export async function setPassword(tx: Queryable, tenantId: number, id: number, password: string): Promise<boolean> {
  const { rows } = await tx.query('update subscribers set sip_password = $2, updated_at = now() where id = $1 returning id', [
    id,
    sealSipPassword(tenantId, password),
  ]);
  return rows.length > 0;
}

export async function deleteSubscriber(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query('delete from subscribers where id = $1 returning id', [id]);
  return rows.length > 0;
}

export async function listDirectory(tx: Queryable): Promise<DirectoryEntry[]> {
  const { rows } = await tx.query<DirectoryEntry>('select extension, display_name from subscribers order by extension');
  return rows;
}

/** The logged-in user's own extension with its password, opened (GET /sip-account). */
export async function subscriberOfUser(
  tx: Queryable,
  tenantId: number,
  userId: number,
): Promise<{ extension: string; display_name: string; sip_password: string } | null> {
  const { rows } = await tx.query<{ extension: string; display_name: string; sip_password: string }>(
    'select extension, display_name, sip_password from subscribers where user_id = $1',
    [userId],
  );
  const password = rows[0] ? openSipPassword(tenantId, rows[0].sip_password) : null;
  return rows[0] && password !== null ? { ...rows[0], sip_password: password } : null;
}

type CallRow = Omit<CallHistory, 'created_at'> & { created_at: Date | string };
const CALL_COLUMNS = 'id, phone, direction, user_id, created_at';

export async function insertCall(tx: Queryable, tenantId: number, userId: number, input: CallHistoryInput): Promise<CallHistory> {
  const { rows } = await tx.query<CallRow>(
    `insert into call_histories (tenant_id, user_id, phone, direction) values ($1, $2, $3, $4) returning ${CALL_COLUMNS}`,
    [tenantId, userId, input.phone, input.direction],
  );
  return { ...rows[0], created_at: iso(rows[0].created_at) };
}
