import { FEATURES, SUPER_ADMIN_DISPLAY_NAME, SUPER_ADMIN_ROLE, TRIAL_DAYS, type SignupInput, type SignupResult } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

async function insertId(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(sql, params);
  return rows[0].id;
}

/**
 * Everything a new tenant needs to work, written inside ONE transaction (the caller's
 * withSystem): tenant, super-admin role with every permission, the admin user holding it,
 * default system settings and a trial of every feature. Any failure rolls all of it back.
 */
export async function createTenantWithAdmin(tx: Queryable, input: SignupInput, passwordHash: string): Promise<SignupResult> {
  const tid = await insertId(tx, 'insert into tenants (ma_dn, name, max_user) values ($1, $2, 20) returning id', [input.ma_dn, input.company_name]);
  const role = await insertId(tx, 'insert into roles (tenant_id, name, display_name) values ($1, $2, $3) returning id', [tid, SUPER_ADMIN_ROLE, SUPER_ADMIN_DISPLAY_NAME]);
  await tx.query('insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions', [tid, role]);
  // No extension yet: an extension is a subscriber the admin creates and links (ADR 0015).
  const uid = await insertId(
    tx,
    `insert into users (tenant_id, username, password_hash, full_name, email, phone)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [tid, input.username, passwordHash, input.full_name, input.email, input.phone],
  );
  await tx.query('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [tid, uid, role]);
  await tx.query(
    `insert into system_settings (tenant_id, hidden_phone_customer, position_hidden_phone_customer, show_popup_customer, voice_over_internet_protocol)
     values ($1, 0, 0, 1, '1')`,
    [tid],
  );
  const { rows } = await tx.query<{ date_expired: string }>(
    `insert into payment_checks (tenant_id, feature_name_data, date_expired)
     values ($1, $2, current_date + $3::int) returning to_char(date_expired, 'YYYY-MM-DD') as date_expired`,
    [tid, Object.values(FEATURES), TRIAL_DAYS],
  );
  return { ma_dn: input.ma_dn, username: input.username, date_expired: rows[0].date_expired };
}
