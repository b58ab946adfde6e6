import type { FastifyInstance } from 'fastify';
import { FEATURES, PERM } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, TEST_JWT_SECRET, type TestApp } from '../../test/helpers';
import { openDb } from '../db/open';
import type { Db } from '../db/db';
import { STAFF_ROLE } from '../db/seed-data';
import { buildServer } from '../server';

/**
 * What a request's checks keep in memory (roles, the payment check, the masking setting; ADR 0064)
 * follows a change made through another API instance on the same database at the very next request:
 * two servers with caches of their own, as two instances behind a balancer, one PostgreSQL, no Redis.
 */
describe('access cache across two API instances', () => {
  let t: TestApp;
  let otherDb: Db;
  let other: FastifyInstance;
  let staff: Record<string, string>;
  let admin: Record<string, string>;
  let tenantId: number;

  beforeAll(async () => {
    t = await startTestApp();
    otherDb = await openDb({ databaseUrl: t.dbUrl });
    other = await buildServer({ db: otherDb, jwtSecret: TEST_JWT_SECRET, otpWebhookMs: null, recordingSweepMs: null });
    staff = bearer(await login(t.app, 'demo', DEMO.staff));
    admin = bearer(await login(other, 'demo', DEMO.admin));
    tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.close();
    await t?.close();
  });

  /** The staff's customer list through the first instance, twice: the second answer comes from what the first kept. */
  const staffList = async () => {
    const first = await t.app.inject({ url: '/t/demo/customers?page=1&per_page=5', headers: staff });
    const second = await t.app.inject({ url: '/t/demo/customers?page=1&per_page=5', headers: staff });
    expect([second.statusCode, second.json().code]).toEqual([first.statusCode, first.json().code]);
    return second;
  };
  const changeOnOther = async (method: 'PUT', url: string, payload: object) => {
    const res = await other.inject({ method, url, headers: admin, payload });
    expect(res.statusCode).toBe(200);
  };

  it("a role's permissions changed through the other instance: refused, then allowed, at the next request", async () => {
    expect((await staffList()).statusCode).toBe(200);
    const role = (await other.inject({ url: '/t/demo/roles?per_page=100', headers: admin })).json().data.find((r: { name: string }) => r.name === STAFF_ROLE);
    const permissions: string[] = role.permissions.map((p: { name: string }) => p.name);
    expect(permissions).toContain(PERM.customer.view);
    await changeOnOther('PUT', `/t/demo/role/${role.id}`, { name: STAFF_ROLE, permissions: permissions.filter((p) => p !== PERM.customer.view) });
    const refused = await staffList();
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FORBIDDEN']);
    await changeOnOther('PUT', `/t/demo/role/${role.id}`, { name: STAFF_ROLE, permissions });
    expect((await staffList()).statusCode).toBe(200);
  });

  it("the tenant's payment check changed by another instance's transaction: the feature refused at the next request", async () => {
    expect((await staffList()).statusCode).toBe(200);
    const before = (await otherDb.withTenant(tenantId, (tx) => tx.query<{ f: string[] }>('select feature_name_data as f from payment_checks'))).rows[0].f;
    expect(before).toContain(FEATURES.customer);
    const set = (features: string[]) => otherDb.withTenant(tenantId, (tx) => tx.query('update payment_checks set feature_name_data = $1', [features]));
    await set(before.filter((f) => f !== FEATURES.customer));
    const refused = await staffList();
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FEATURE_NOT_PURCHASED']);
    await set(before);
    expect((await staffList()).statusCode).toBe(200);
  });

  it('phone masking switched on through the other instance: the next list is masked, and plain again once it is off', async () => {
    const plain = (await staffList()).json().data.map((c: { phone: string }) => c.phone);
    expect(plain.every((p: string) => /^\d{10}$/.test(p))).toBe(true);
    const setting = { hidden_phone_customer: 1, position_hidden_phone_customer: 3, show_popup_customer: 1, voice_over_internet_protocol: 1 };
    await changeOnOther('PUT', '/t/demo/update-system-setting', setting);
    const masked = (await staffList()).json().data.map((c: { phone: string }) => c.phone);
    expect(masked).not.toEqual(plain);
    expect(masked.every((p: string) => p.includes('*'))).toBe(true);
    await changeOnOther('PUT', '/t/demo/update-system-setting', { ...setting, hidden_phone_customer: 0 });
    expect((await staffList()).json().data.map((c: { phone: string }) => c.phone)).toEqual(plain);
  });

  it("another tenant's change leaves this tenant's kept values as they are", async () => {
    await staffList();
    const abcAdmin = bearer(await login(other, 'abc', DEMO.admin));
    const res = await other.inject({ method: 'PUT', url: '/t/abc/update-system-setting', headers: abcAdmin, payload: { hidden_phone_customer: 1, position_hidden_phone_customer: 3, show_popup_customer: 1, voice_over_internet_protocol: 1 } });
    expect(res.statusCode).toBe(200);
    const versions = await t.db.withSystem((tx) => tx.query<{ tenant_id: number }>('select tenant_id from access_versions where tenant_id = $1', [tenantId]));
    const demoVersion = await t.db.withTenant(tenantId, (tx) => tx.query<{ version: string }>('select version::text from access_versions'));
    expect(versions.rows).toHaveLength(demoVersion.rows.length);
    const transactions = jest.spyOn(t.db, 'withTenant');
    try {
      const again = await t.app.inject({ url: '/t/demo/customers?page=1&per_page=5', headers: staff });
      expect(again.statusCode).toBe(200);
      // The checks and the page: the roles, the payment check and the masking setting from memory.
      expect(transactions).toHaveBeenCalledTimes(2);
    } finally {
      transactions.mockRestore();
    }
  });
});
