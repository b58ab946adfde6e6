import { displayForm, storedForm, type ActivityStatus, type UserInfo, type UserInfoInput } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { userExtensionSql } from '../subscribers/subscribers.service';

// The extension is the linked subscriber's; the role as screens show it (display name, else name).
const COLUMNS = `username, full_name, coalesce(email, '') as email, coalesce(phone, '') as phone,
  ${userExtensionSql('users.id')} as extension_code,
  (select coalesce(nullif(r.display_name, ''), r.name) from user_roles ur join roles r on r.id = ur.role_id
    where ur.user_id = users.id order by r.id limit 1) as role_label,
  status_activity`;

/** One phone rule (ADR 0016): the phone is stored 84… (typed 0… or +84…), answered 0…. */
const shown = (u: UserInfo | undefined): UserInfo | null => (u ? { ...u, phone: displayForm(u.phone) } : null);

/** Inside withTenant: the user is the caller's own, RLS keeps it in the tenant. */
export async function getUserInfo(tx: Queryable, userId: number): Promise<UserInfo | null> {
  const { rows } = await tx.query<UserInfo>(`select ${COLUMNS} from users where id = $1`, [userId]);
  return shown(rows[0]);
}

export async function updateUserInfo(tx: Queryable, userId: number, input: UserInfoInput): Promise<UserInfo | null> {
  const { rows } = await tx.query<UserInfo>(
    `update users set full_name = $2, email = $3, phone = $4 where id = $1 returning ${COLUMNS}`,
    [userId, input.full_name, input.email, storedForm(input.phone)],
  );
  return shown(rows[0]);
}

export async function passwordHashOf(tx: Queryable, userId: number): Promise<string | null> {
  const { rows } = await tx.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId]);
  return rows[0]?.password_hash ?? null;
}

/** New hash, and every other session of the user ends: a stolen session dies with the old password. */
export async function setPassword(tx: Queryable, userId: number, hash: string, keepSessionId: string): Promise<void> {
  await tx.query('update users set password_hash = $2 where id = $1', [userId, hash]);
  await tx.query('update sessions set revoked_at = now() where user_id = $1 and id <> $2 and revoked_at is null', [userId, keepSessionId]);
}

/** Sets the status; returns the account's extension (the wall's event names it), null without one. */
export async function setActivityStatus(tx: Queryable, userId: number, status: ActivityStatus): Promise<string | null> {
  await tx.query('update users set status_activity = $2 where id = $1', [userId, status]);
  const { rows } = await tx.query<{ extension: string }>('select extension from subscribers where user_id = $1 limit 1', [userId]);
  return rows[0]?.extension ?? null;
}
