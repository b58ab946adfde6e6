import { PERM, PERMISSION_CATALOGUE, SUPER_ADMIN_DISPLAY_NAME, SUPER_ADMIN_ROLE, FEATURES, storedForm } from '@tongdai/contracts';
import { hashPassword } from '../security/password';
import type { Db, Queryable } from './db';
import { DEMO, SEED_TENANTS, STAFF_ROLE, STAFF_ROLE_DISPLAY_NAME, sampleCustomers } from './seed-data';
import { seedOrg } from './seed-org';
import { seedPbx } from './seed-pbx';
import { seedSubscribers } from './seed-sip';

export { DEMO } from './seed-data';

/** The permission catalogue follows the contracts on every start. */
export async function syncPermissions(tx: Queryable): Promise<void> {
  for (const p of PERMISSION_CATALOGUE) {
    await tx.query(
      `insert into permissions (name, "group", label) values ($1, $2, $3)
       on conflict (name) do update set "group" = excluded."group", label = excluded.label`,
      [p.name, p.group, p.label],
    );
  }
}

async function insertId(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(sql, params);
  return rows[0].id;
}

async function seedTenant(tx: Queryable, t: (typeof SEED_TENANTS)[number], hashes: { admin: string; staff: string }): Promise<void> {
  const tid = await insertId(tx, 'insert into tenants (ma_dn, name, max_user) values ($1, $2, $3) returning id', [t.ma_dn, t.name, t.max_user]);
  const role = (name: string, display: string) => insertId(tx, 'insert into roles (tenant_id, name, display_name) values ($1, $2, $3) returning id', [tid, name, display]);
  const superRole = await role(SUPER_ADMIN_ROLE, SUPER_ADMIN_DISPLAY_NAME);
  const staffRole = await role(STAFF_ROLE, STAFF_ROLE_DISPLAY_NAME);
  await tx.query('insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions', [tid, superRole]);
  await tx.query('insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions where name = any($3)', [
    tid,
    staffRole,
    [PERM.customer.view, PERM.customer.create, PERM.customer.edit],
  ]);
  const users = [
    // Their extensions are the subscribers 101 and 102 linked to them (seed-sip.ts).
    { ...DEMO.admin, hash: hashes.admin, full_name: 'Quản trị viên', role: superRole },
    { ...DEMO.staff, hash: hashes.staff, full_name: 'Nhân viên tổng đài', role: staffRole },
  ];
  for (const u of users) {
    const uid = await insertId(
      tx,
      'insert into users (tenant_id, username, password_hash, full_name, email) values ($1, $2, $3, $4, $5) returning id',
      [tid, u.username, u.hash, u.full_name, `${u.username}@${t.ma_dn}.example.vn`],
    );
    await tx.query('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [tid, uid, u.role]);
  }
  for (const c of sampleCustomers(t.customers, t.ma_dn === DEMO.tenants.demo ? 0 : 100)) {
    await tx.query(
      `insert into customers (tenant_id, name, code, email, phone, address, zalo, facebook, status, note, user_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [tid, c.name, c.code, c.email, storedForm(c.phone), c.address, c.zalo, c.facebook, c.status, c.note, c.user_id],
    );
  }
  await seedOrg(tx, tid);
  await seedSubscribers(tx, tid, t.ma_dn);
  await seedPbx(tx, tid, t.ma_dn);
  await tx.query('insert into system_settings (tenant_id, hidden_phone_customer, position_hidden_phone_customer, show_popup_customer, voice_over_internet_protocol) values ($1, 0, 0, 1, $2)', [tid, '1']);
  await tx.query(`insert into payment_checks (tenant_id, feature_name_data, date_expired) values ($1, $2, (current_date + interval '1 year')::date)`, [
    tid,
    Object.values(FEATURES),
  ]);
}

/** Creates the two demo tenants with Vietnamese sample data. */
export async function seed(db: Db): Promise<void> {
  const hashes = { admin: await hashPassword(DEMO.admin.password), staff: await hashPassword(DEMO.staff.password) };
  await db.withSystem(async (tx) => {
    await syncPermissions(tx);
    for (const t of SEED_TENANTS) await seedTenant(tx, t, hashes);
  });
}

/** Seeds only a database with no tenant; returns whether it did. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const empty = await db.withSystem(async (tx) => {
    await syncPermissions(tx);
    const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from tenants');
    return rows[0].n === 0;
  });
  if (empty) await seed(db);
  return empty;
}
