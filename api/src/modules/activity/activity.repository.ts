import type { ActivityDayRow, ActivityEventKind } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { likePattern, searchAny } from '../../db/sql';

/**
 * user_activity_events (migration 0028): append-only, per tenant. Every function runs inside
 * withTenant (RLS supplies the tenant); the app role may only insert and select here.
 */

export interface NewActivityEvent {
  tenantId: number;
  userId: number | null;
  kind: ActivityEventKind;
  at?: Date;
  status?: number | null;
  extension?: string | null;
  sessionId?: string | null;
  reason?: string;
}

export interface ActivityEventRow {
  user_id: number;
  at: Date;
  kind: ActivityEventKind;
  status: number | null;
  extension: string | null;
  session_id: string | null;
  reason: string;
}

export async function insertEvent(tx: Queryable, e: NewActivityEvent): Promise<void> {
  await tx.query(
    `insert into user_activity_events (tenant_id, user_id, kind, at, status, extension, session_id, reason)
     values ($1, $2, $3, coalesce($4, now()), $5, $6, $7, $8)`,
    [e.tenantId, e.userId, e.kind, e.at ?? null, e.status ?? null, e.extension ?? null, e.sessionId ?? null, e.reason ?? ''],
  );
}

/** Sessions reach back at most this far (ABSOLUTE_SESSION_S): logins before it cannot be open at `from`. */
const SESSION_REACH = "interval '12 hours'";

/**
 * What the days from..to need for these users: their events in the range (from SESSION_REACH
 * earlier, for sessions opened the evening before), plus the state they started in — the last
 * status (or login, which carries it) and each extension's last registration event before that.
 */
export async function eventsFor(tx: Queryable, q: { from: Date; to: Date; userIds: readonly number[] }): Promise<ActivityEventRow[]> {
  const cols = 'e.user_id, e.at, e.kind, e.status, e.extension, e.session_id::text as session_id, e.reason';
  const { rows } = await tx.query<ActivityEventRow>(
    `select * from (
       select ${cols} from user_activity_events e
        where e.user_id = any($3::int[]) and e.at >= $1::timestamptz - ${SESSION_REACH} and e.at < $2
       union all
       (select distinct on (e.user_id) ${cols} from user_activity_events e
         where e.user_id = any($3::int[]) and e.kind in ('status', 'login') and e.at < $1::timestamptz - ${SESSION_REACH}
         order by e.user_id, e.at desc)
       union all
       (select distinct on (e.user_id, e.extension) ${cols} from user_activity_events e
         where e.user_id = any($3::int[]) and e.kind in ('registered', 'unregistered') and e.at < $1::timestamptz - ${SESSION_REACH}
         order by e.user_id, e.extension, e.at desc)
     ) x order by x.user_id, x.at, x.kind`,
    [q.from, q.to, q.userIds],
  );
  return rows;
}

/** Who a row is about: the person part of a report row. */
export type ActivityPerson = Pick<ActivityDayRow, 'user_id' | 'full_name' | 'username' | 'extension' | 'department' | 'team'>;

/** The accounts a report covers: all, or a department / team / one account, within `userIds` (a viewer's scope) when given; in name order. */
export async function people(
  tx: Queryable,
  by: { departmentId?: number; teamId?: number; userId?: number; userIds?: readonly number[]; search?: string },
): Promise<ActivityPerson[]> {
  const params: unknown[] = [];
  const where: string[] = ['true'];
  if (by.departmentId !== undefined) where.push(`u.department_id = $${params.push(by.departmentId)}`);
  if (by.teamId !== undefined) where.push(`u.team_id = $${params.push(by.teamId)}`);
  if (by.userId !== undefined) where.push(`u.id = $${params.push(by.userId)}`);
  if (by.userIds) where.push(`u.id = any($${params.push(by.userIds)}::int[])`);
  if (by.search) where.push(searchAny(['u.full_name', 'u.username', "coalesce(s.extension, '')"], `$${params.push(likePattern(by.search))}`));
  const { rows } = await tx.query<ActivityPerson>(
    `select u.id as user_id, coalesce(nullif(u.full_name, ''), u.username) as full_name, u.username, s.extension, d.name as department, t.name as team
     from users u left join subscribers s on s.user_id = u.id left join departments d on d.id = u.department_id left join teams t on t.id = u.team_id
     where ${where.join(' and ')} order by full_name, u.id`,
    params,
  );
  return rows;
}

/** The account using an extension now (registrations name an extension, the report a person). */
export async function userOfExtension(tx: Queryable, extension: string): Promise<number | null> {
  const { rows } = await tx.query<{ user_id: number | null }>('select user_id from subscribers where extension = $1', [extension]);
  return rows[0]?.user_id ?? null;
}

/** The status an account has now (a login carries it: the status it comes back with). */
export async function statusOf(tx: Queryable, userId: number): Promise<number | null> {
  const { rows } = await tx.query<{ status_activity: number | null }>('select status_activity from users where id = $1', [userId]);
  return rows[0]?.status_activity ?? null;
}

/** The status of the user's latest status change or login (null before any). */
export async function lastStatus(tx: Queryable, userId: number): Promise<number | null> {
  const { rows } = await tx.query<{ status: number }>(
    "select status from user_activity_events where user_id = $1 and kind in ('status', 'login') and status is not null order by at desc, id desc limit 1",
    [userId],
  );
  return rows[0]?.status ?? null;
}
