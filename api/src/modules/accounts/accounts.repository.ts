import { SUPER_ADMIN_ROLE, type Account, type AccountListQuery, type AccountUpdateInput } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern, searchAny } from '../../db/sql';
import { userExtensionSql } from '../subscribers/subscribers.service';

/** Runs inside withTenant: no query here names a tenant, RLS supplies it. */

// One role per account (SPEC §3: the session user is the first role); lateral keeps it to one row.
const SELECT = `select u.id, u.username, u.full_name, coalesce(u.email, '') as email, coalesce(u.phone, '') as phone, u.status,
       coalesce(${userExtensionSql('u.id')}, '') as extension_code,
       r.id as role_id, r.name as role_name, coalesce(nullif(r.display_name, ''), r.name) as role_label,
       u.department_id, u.team_id, u.branch_id, u.created_at, u.updated_at
  from users u
  left join lateral (select r.id, r.name, r.display_name from user_roles ur join roles r on r.id = ur.role_id
                      where ur.user_id = u.id order by r.id limit 1) r on true`;

type Row = Omit<Account, 'created_at' | 'updated_at'> & { created_at: Date | string; updated_at: Date | string };
const toAccount = (r: Row): Account => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

/** `phoneSearch`: the search as the start of a stored phone number (84…), when it reads as one. */
export async function listAccounts(tx: Queryable, q: AccountListQuery, phoneSearch: string | null = null): Promise<{ rows: Account[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    const p = `$${params.length}`;
    const typed = searchAny(['u.full_name', 'u.username', 'u.email', 'u.phone', userExtensionSql('u.id')], p);
    if (phoneSearch) params.push(likePattern(phoneSearch));
    where.push(phoneSearch ? `(${typed} or u.phone like $${params.length})` : typed);
  }
  if (q.role_id) {
    params.push(q.role_id);
    where.push(`exists (select 1 from user_roles x where x.user_id = u.id and x.role_id = $${params.length})`);
  }
  if (q.status) {
    params.push(q.status);
    where.push(`u.status = $${params.length}`);
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from users u ${filter}`, params);
  const { rows } = await tx.query<Row>(`${SELECT} ${filter} order by u.id desc limit $${params.length + 1} offset $${params.length + 2}`, [
    ...params,
    q.per_page,
    (q.page - 1) * q.per_page,
  ]);
  return { rows: rows.map(toAccount), total: count.rows[0].total };
}

export async function getAccount(tx: Queryable, id: number): Promise<Account | null> {
  const { rows } = await tx.query<Row>(`${SELECT} where u.id = $1`, [id]);
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function findUserId(tx: Queryable, username: string): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>('select id from users where lower(username) = lower($1)', [username]);
  return rows[0]?.id ?? null;
}

const FIELDS = ['username', 'full_name', 'email', 'phone', 'status', 'department_id', 'team_id', 'branch_id'] as const;

export async function insertAccount(tx: Queryable, tenantId: number, input: AccountUpdateInput, passwordHash: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into users (tenant_id, password_hash, ${FIELDS.join(', ')})
     values ($1, $2, ${FIELDS.map((_, i) => `$${i + 3}`).join(', ')}) returning id`,
    [tenantId, passwordHash, ...FIELDS.map((f) => input[f])],
  );
  await tx.query('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [tenantId, rows[0].id, input.role_id]);
  return rows[0].id;
}

export async function updateAccount(tx: Queryable, tenantId: number, id: number, input: AccountUpdateInput): Promise<void> {
  const sets = FIELDS.map((f, i) => `${f} = $${i + 2}`).join(', ');
  await tx.query(`update users set ${sets}, updated_at = now() where id = $1`, [id, ...FIELDS.map((f) => input[f])]);
  await tx.query('delete from user_roles where user_id = $1', [id]);
  await tx.query('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [tenantId, id, input.role_id]);
}

export async function deleteAccount(tx: Queryable, id: number): Promise<void> {
  await tx.query('delete from users where id = $1', [id]);
}

/** New password; the user's other sessions end (a leaked password stops working at once). */
export async function setUserPassword(tx: Queryable, userId: number, passwordHash: string, keepSessionId?: string): Promise<void> {
  await tx.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, passwordHash]);
  await tx.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id::text <> $2', [userId, keepSessionId ?? '']);
}

/** Active users holding super-admin: the tenant must always keep one. */
export async function activeSuperAdmins(tx: Queryable): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `select u.id from users u join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id
      where r.name = $1 and u.status = 'active'`,
    [SUPER_ADMIN_ROLE],
  );
  return rows.map((r) => r.id);
}

export async function roleName(tx: Queryable, id: number): Promise<string | null> {
  const { rows } = await tx.query<{ name: string }>('select name from roles where id = $1', [id]);
  return rows[0]?.name ?? null;
}

/** Organisation references (0002_org.sql); RLS hides another tenant's rows, so they "do not exist". */
export async function orgRefs(tx: Queryable, input: Pick<AccountUpdateInput, 'department_id' | 'team_id' | 'branch_id'>) {
  const one = async (sql: string, id: number | null) => (id === null ? null : (await tx.query<{ id: number; department_id?: number }>(sql, [id])).rows[0] ?? undefined);
  return {
    department: await one('select id from departments where id = $1', input.department_id),
    team: await one('select id, department_id from teams where id = $1', input.team_id),
    branch: await one('select id from branches where id = $1', input.branch_id),
  };
}

/** Serialises account creation per tenant, so two requests cannot both take the last seat. */
export async function lockTenantUsers(tx: Queryable, tenantId: number): Promise<{ current: number; max: number }> {
  await tx.query('select pg_advisory_xact_lock(7301, $1)', [tenantId]);
  const { rows } = await tx.query<{ current: number; max: number }>('select (select count(*)::int from users) as current, max_user as max from tenants');
  return rows[0];
}
