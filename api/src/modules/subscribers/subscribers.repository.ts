import type { CallHistory, CallHistoryInput, DirectoryEntry, Subscriber, SubscriberInput, SubscriberListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import { openSipPassword, sealSipPassword } from './sip-password-box';

/** Runs inside withTenant: no query names a tenant, RLS supplies it (users are joined under the same policy). */

const COLUMNS = `s.id, s.extension, s.display_name, s.user_id,
  case when u.id is null then null else coalesce(nullif(u.full_name, ''), u.username) end as user_name, s.created_at,
  s.ring_time, s.voicemail_enabled, s.voicemail_pin, s.voicemail_greeting_id, s.voicemail_max_seconds, s.recording_mode`;
const FROM = 'subscribers s left join users u on u.id = s.user_id';

type Row = Omit<Subscriber, 'created_at'> & { created_at: Date | string };
const toSubscriber = (r: Row): Subscriber => ({ ...r, created_at: iso(r.created_at) });

/** `registered`: only the extensions in `extensions` (true) or only the others (false). */
export interface RegistrationFilter {
  registered: boolean;
  extensions: string[];
}

export async function listSubscribers(tx: Queryable, q: SubscriberListQuery, only?: RegistrationFilter): Promise<{ rows: Subscriber[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    where.push(searchAny(['s.extension', 's.display_name', 'u.username', 'u.full_name'], `$${params.length}`));
  }
  if (only) {
    params.push(only.extensions);
    where.push(only.registered ? `s.extension = any($${params.length}::text[])` : `s.extension <> all($${params.length}::text[])`);
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
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

/** The ring time, mailbox and recording settings of an input: undefined (left out) keeps the stored value. */
const settingsOf = (input: SubscriberInput) => [
  input.ring_time === undefined ? 'keep' : 'set', input.ring_time ?? null,
  input.voicemail_enabled ?? null,
  input.voicemail_pin === undefined ? 'keep' : 'set', input.voicemail_pin ?? null,
  input.voicemail_greeting_id === undefined ? 'keep' : 'set', input.voicemail_greeting_id ?? null,
  input.voicemail_max_seconds ?? null,
  input.recording_mode === undefined ? 'keep' : 'set', input.recording_mode ?? null,
];
/** SET list of the settings from parameters $first.. (as settingsOf orders them). */
const SETTINGS = (n: number) => `ring_time = case when $${n} = 'set' then $${n + 1}::int else ring_time end,
  voicemail_enabled = coalesce($${n + 2}::boolean, voicemail_enabled),
  voicemail_pin = case when $${n + 3} = 'set' then $${n + 4}::text else voicemail_pin end,
  voicemail_greeting_id = case when $${n + 5} = 'set' then $${n + 6}::int else voicemail_greeting_id end,
  voicemail_max_seconds = coalesce($${n + 7}::int, voicemail_max_seconds),
  recording_mode = case when $${n + 8} = 'set' then $${n + 9}::text else recording_mode end`;

export async function insertSubscriber(tx: Queryable, tenantId: number, input: SubscriberInput, password: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    'insert into subscribers (tenant_id, extension, display_name, user_id, sip_password) values ($1, $2, $3, $4, $5) returning id',
    [tenantId, input.extension, input.display_name, input.user_id, sealSipPassword(tenantId, password)],
  );
  await tx.query(`update subscribers set ${SETTINGS(2)} where id = $1`, [rows[0].id, ...settingsOf(input)]);
  return rows[0].id;
}

export async function updateSubscriber(tx: Queryable, id: number, input: SubscriberInput): Promise<boolean> {
  const { rows } = await tx.query(
    `update subscribers set extension = $2, display_name = $3, user_id = $4, ${SETTINGS(5)}, updated_at = now() where id = $1 returning id`,
    [id, input.extension, input.display_name, input.user_id, ...settingsOf(input)],
  );
  return rows.length > 0;
}

/** A greeting of the tenant's (RLS hides another tenant's; the foreign key alone would not). */
export async function greetingExists(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query("select 1 from pbx_audio where id = $1 and kind = 'greeting'", [id]);
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
