import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { openDb } from './open';
import { startTestApp, type TestApp } from '../../test/helpers';

/** Row-level security on a real PostgreSQL server, as the app role. */
describe('row-level security (PostgreSQL)', () => {
  let t: TestApp;
  let ids: Record<string, number>;
  beforeAll(async () => {
    t = await startTestApp();
    const { rows } = await t.db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'));
    ids = Object.fromEntries(rows.map((r) => [r.ma_dn, r.id]));
  });
  afterAll(() => t.close());

  it('runs the app as app_user, not as the owner', async () => {
    const { rows } = await t.db.query<{ u: string }>('select current_user as u');
    expect(rows[0].u).toBe('app_user');
  });

  it('returns 0 rows from every tenant table when no tenant is set', async () => {
    for (const table of ['tenants', 'users', 'roles', 'sessions', 'customers', 'system_settings', 'payment_checks', 'user_roles', 'role_permissions', 'dnc_numbers', 'contact_consents', 'advertising_last_calls', 'survey_categories', 'survey_questions', 'campaigns', 'campaign_questions', 'campaign_agents', 'campaign_contacts', 'campaign_attempts', 'survey_answers', 'pbx_holiday_overrides']) {
      const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect([table, rows[0].n]).toEqual([table, 0]);
    }
  });

  it('enables and forces row-level security on every table with a tenant_id, with a policy', async () => {
    // Every table, not a list: a new tenant table without RLS fails here (partitions inherit the parent's policy).
    const { rows } = await t.db.query<{ table: string; enabled: boolean; forced: boolean; policies: number }>(
      `select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
              (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies
         from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
        where ns.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
        order by 1`,
    );
    expect(rows.map((r) => r.table)).toEqual(expect.arrayContaining(['customers', 'dnc_numbers', 'contact_consents', 'advertising_last_calls', 'survey_categories', 'survey_questions', 'campaigns', 'campaign_questions', 'campaign_agents', 'campaign_contacts', 'campaign_attempts', 'survey_answers', 'pbx_holiday_overrides']));
    expect(rows.filter((r) => !r.enabled || !r.forced || r.policies === 0)).toEqual([]);
  });

  it('shows a tenant only its own rows', async () => {
    const demo = await t.db.withTenant(ids.demo, (tx) => tx.query<{ n: number }>('select count(*)::int as n from customers'));
    const abc = await t.db.withTenant(ids.abc, (tx) => tx.query<{ n: number }>('select count(*)::int as n from customers'));
    expect([demo.rows[0].n, abc.rows[0].n]).toEqual([35, 12]);
  });

  it("refuses to write a row into another tenant's space", async () => {
    const insert = t.db.withTenant(ids.demo, (tx) =>
      tx.query(`insert into customers (tenant_id, name, phone, status) values ($1, 'Kẻ gian', '0900000000', 'new')`, [ids.abc]),
    );
    await expect(insert).rejects.toThrow(/row-level security/);
    const moved = await t.db.withTenant(ids.demo, (tx) => tx.query('update customers set tenant_id = $1 returning id', [ids.abc]).catch((e: Error) => e));
    expect(moved).toBeInstanceOf(Error);
  });

  it('does not re-run applied migrations', async () => {
    const again = await openDb({ databaseUrl: t.dbUrl });
    await again.close();
    // schema_migrations is the owner's: the app roles cannot read it, so ask as the owner.
    const owner = new Client({ connectionString: t.dbUrl });
    await owner.connect();
    const { rows } = await owner.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    await owner.end();
    expect(rows[0].n).toBe(readdirSync(join(__dirname, 'migrations')).filter((f) => f.endsWith('.sql')).length);
  });
});
