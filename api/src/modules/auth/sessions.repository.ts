import type { Queryable } from '../../db/db';
import type { SessionRecord } from './tokens';

/** Every function here runs inside withTenant: RLS scopes users and sessions to the tenant. */

export interface LoginUser {
  id: number;
  password_hash: string;
  status: string;
}

export async function findLoginUser(tx: Queryable, username: string): Promise<LoginUser | null> {
  const { rows } = await tx.query<LoginUser>('select id, password_hash, status from users where lower(username) = lower($1)', [username]);
  return rows[0] ?? null;
}

export async function createSession(tx: Queryable, tenantId: number, userId: number): Promise<{ id: string; createdAt: number }> {
  const { rows } = await tx.query<{ id: string; created_s: number }>(
    'insert into sessions (tenant_id, user_id) values ($1, $2) returning id, floor(extract(epoch from created_at))::float8 as created_s',
    [tenantId, userId],
  );
  return { id: rows[0].id, createdAt: rows[0].created_s };
}

/**
 * The session, and the tenant's access version (migration 0067): what the checks of a request read
 * from memory is labelled with it (security/access-cache.ts).
 */
export async function findSession(tx: Queryable, sessionId: string, userId: number): Promise<(SessionRecord & { accessVersion: string }) | null> {
  const { rows } = await tx.query<{ created_s: number; revoked: boolean; active: boolean; access_version: string }>(
    `select floor(extract(epoch from s.created_at))::float8 as created_s, s.revoked_at is not null as revoked, u.status = 'active' as active,
            coalesce((select version from access_versions), 0)::text as access_version
       from sessions s join users u on u.id = s.user_id where s.id = $1 and s.user_id = $2`,
    [sessionId, userId],
  );
  const row = rows[0];
  return row ? { createdAt: row.created_s, revoked: row.revoked || !row.active, accessVersion: row.access_version } : null;
}

export async function touchSession(tx: Queryable, sessionId: string): Promise<void> {
  await tx.query('update sessions set last_seen_at = now() where id = $1', [sessionId]);
}

export async function revokeSession(tx: Queryable, sessionId: string): Promise<void> {
  await tx.query('update sessions set revoked_at = now() where id = $1 and revoked_at is null', [sessionId]);
}

/** Ends every session of a user (lock, deletion), or all but `exceptSessionId` (new password). */
export async function revokeUserSessions(tx: Queryable, userId: number, exceptSessionId?: string): Promise<void> {
  await tx.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id::text <> $2', [userId, exceptSessionId ?? '']);
}

/** When each of these sessions was made, last refreshed and revoked (user activity: how a session ended). */
export async function sessionTimes(tx: Queryable, ids: readonly string[]): Promise<{ id: string; created_at: Date; last_seen_at: Date; revoked_at: Date | null }[]> {
  if (!ids.length) return [];
  const { rows } = await tx.query<{ id: string; created_at: Date; last_seen_at: Date; revoked_at: Date | null }>(
    'select id::text as id, created_at, last_seen_at, revoked_at from sessions where id = any($1::uuid[])',
    [ids],
  );
  return rows;
}
