import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { callRecord } from '@tongdai/testkit/call-records';
import type { CdrRow } from '../modules/cdr/cdr';
import { CdrWriter } from '../modules/cdr/cdr.service';
import { buildInternalServer } from '../modules/sip/internal-server';
import { SwitchboardHosts } from '../modules/trunks/switchboard-hosts';
import { buildServer } from '../server';
import type { Db } from './db';
import { openDb } from './open';
import { DEMO } from './seed';
import { backupsDoc, docPart, fingerprint, requireBins, run, tenantTables, withClient } from '../../test/backup-drill';
import { databaseUrl } from '../../test/global-setup';
import { bearer, INTERNAL_HEADERS, login, NO_DNS, seededDatabase, TEST_JWT_SECRET } from '../../test/helpers';
import { startPgCluster, type PgCluster } from '../../test/pg-cluster';

/**
 * The restore drill of docs/operations/backups.md (issue 42): a database migrated and seeded by the
 * product, with data written through the API and the CDR writer, is dumped with the page's pg_dump
 * command and restored with the page's commands into a new, empty cluster (the migrations' roles
 * live in the cluster, not in the dump: a fresh cluster is the honest test). Then the restored
 * database must hold the same rows in every table, under the same rules (RLS, policies, grants,
 * owners), keep tenants apart as app_user, and serve the API: a seeded user logs in, and Kamailio's
 * digest hash opens with the same SIP_PASSWORD_KEY.
 *
 * The page's commands run in the compose stack as `docker compose exec -T postgres <program>
 * --username=tongdai --dbname=tongdai <flags>`; here the same program and flags with --dbname=<url>.
 */
const DUMP_FLAGS = ['--format=custom'];
const RESTORE_FLAGS = ['--exit-on-error', '--single-transaction'];
const ANALYZE_FLAGS = ['--analyze-only'];
const AS_COMPOSE = '--username=tongdai --dbname=tongdai';

describe('restore drill: pg_dump of a seeded database, restored into an empty cluster', () => {
  let bins: Record<'pg_dump' | 'pg_restore' | 'psql' | 'vacuumdb', string>;
  let source: { url: string; drop(): Promise<void> } | undefined;
  let sourceDb: Db | undefined;
  let target: PgCluster | undefined;
  let restoredUrl: string;
  let dir: string;
  let dumpFile: string;
  let withoutRoles: Error | undefined;
  let restored: Db | undefined;
  let restoredApp: FastifyInstance | undefined;
  const written: { demo: string; abc: string } = { demo: 'Khách sao lưu Đông Á', abc: 'Khách sao lưu Bình Minh' };
  let ids: Record<'demo' | 'abc', number>;
  let ha1Before: string;

  beforeAll(async () => {
    bins = requireBins('pg_dump', 'pg_restore', 'psql', 'vacuumdb');
    dir = mkdtempSync(join(tmpdir(), 'tongdai-drill-'));
    dumpFile = join(dir, 'tongdai.dump');

    // The source: a copy of the run's migrated and seeded template, then tenant data through the product's code.
    source = await seededDatabase();
    sourceDb = await openDb({ databaseUrl: source.url });
    const app = await buildServer({ db: sourceDb, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS), otpWebhookMs: null });
    const db = sourceDb;
    ids = Object.fromEntries(
      (await db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'))).rows.map((r) => [r.ma_dn, r.id]),
    ) as Record<'demo' | 'abc', number>;
    for (const maDn of ['demo', 'abc'] as const) {
      const headers = bearer(await login(app, maDn, DEMO.admin));
      const res = await app.inject({ method: 'POST', url: `/t/${maDn}/customers`, headers, payload: { name: written[maDn], phone: maDn === 'demo' ? '0912000111' : '0912000222', status: 'new' } });
      expect(res.statusCode).toBe(201);
      if (maDn === 'demo') expect((await app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers, payload: { name: 'Khảo sát sau phục hồi' } })).statusCode).toBe(201);
    }
    // Call records and their rollups (a partitioned table, written as calls end).
    const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
    const at = new Date(Date.now() - 3_600_000);
    writer.add(callRecord<CdrRow>(ids.demo, 'drill-1', at, { extension: '101', talk: 42 }));
    writer.add(callRecord<CdrRow>(ids.demo, 'drill-2', at, { direction: 'outbound', caller: '102', callee: '0987000111', extension: '102', disposition: 'NO ANSWER' }));
    writer.add(callRecord<CdrRow>(ids.abc, 'drill-3', at, { extension: '101', talk: 17 }));
    await writer.flush();
    const internal = buildInternalServer(db);
    const ha1 = await internal.inject({ url: '/internal/sip/credentials?user=101&domain=demo.tongdai.local', headers: INTERNAL_HEADERS });
    await internal.close();
    expect(ha1.statusCode).toBe(200);
    ha1Before = ha1.body;
    // Nothing of the source's server writes while it is dumped and compared (its timers stop here).
    await app.close();

    // 1. The dump, as the page takes it.
    await run(bins.pg_dump, [`--dbname=${source.url}`, ...DUMP_FLAGS], { stdoutFile: dumpFile });

    // 2. A new cluster, as a fresh compose volume gives it: the empty database `tongdai` of its owner.
    target = await startPgCluster();
    await withClient(target.url, async (c) => {
      await c.query('create database tongdai');
      await c.query('create database no_roles');
    });
    restoredUrl = databaseUrl(target.url, 'tongdai');
    // Without the page's roles first, pg_restore stops at the first grant or owner naming them.
    withoutRoles = await run(bins.pg_restore, [`--dbname=${databaseUrl(target.url, 'no_roles')}`, ...RESTORE_FLAGS], { stdinFile: dumpFile }).then(
      () => undefined,
      (e: Error) => e,
    );

    // 3. The page's roles, its restore and its ANALYZE.
    const roles = docPart(backupsDoc(), `psql ${AS_COMPOSE} --set=ON_ERROR_STOP=1 <<'SQL'\n`, '\nSQL\n');
    await run(bins.psql, [`--dbname=${restoredUrl}`, '--set=ON_ERROR_STOP=1', '--quiet'], { input: roles });
    await run(bins.pg_restore, [`--dbname=${restoredUrl}`, ...RESTORE_FLAGS], { stdinFile: dumpFile });
    await run(bins.vacuumdb, [`--dbname=${restoredUrl}`, ...ANALYZE_FLAGS]);
  }, 300_000);

  afterAll(async () => {
    await restoredApp?.close();
    await restored?.close();
    await sourceDb?.close();
    await source?.drop();
    await target?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails, naming it, when a program it needs is missing (beforeAll asks for pg_dump, pg_restore, psql, vacuumdb)', () => {
    expect(() => requireBins('pg_dump', 'pg_no_such_tool')).toThrow(/needs pg_no_such_tool, not found .*install the PostgreSQL client programs/);
  });

  it('runs the commands the page gives, flag for flag', () => {
    const doc = backupsDoc();
    expect(doc).toContain(`pg_dump ${AS_COMPOSE} ${DUMP_FLAGS.join(' ')} >`);
    expect(doc).toContain(`pg_restore ${AS_COMPOSE} ${RESTORE_FLAGS.join(' ')} <`);
    expect(doc).toContain(`vacuumdb ${AS_COMPOSE} ${ANALYZE_FLAGS.join(' ')}`);
    expect(statSync(dumpFile).size).toBeGreaterThan(10_000);
  });

  it('fails without the roles the migrations create: pg_dump does not carry them', () => {
    expect(withoutRoles?.message).toMatch(/role "app_(user|system)" does not exist/);
    if (process.env.BACKUP_DRILL_VERBOSE) console.log(withoutRoles?.message);
  });

  it('gives back every table row for row, every sequence where it was, under the same rules', async () => {
    const [before, after] = await Promise.all([fingerprint(source!.url), fingerprint(restoredUrl)]);
    expect(Object.keys(after.tables).length).toBeGreaterThan(50);
    expect(after.tables).toEqual(before.tables);
    expect(after.sequences).toEqual(before.sequences);
    expect(after.guards).toEqual(before.guards);
    // The drill's own writes are in it (not only the seed's).
    const [written1] = await withClient(restoredUrl, async (c) => (await c.query<{ n: number }>(
      `select count(*)::int as n from customers where name in ($1, $2)`, [written.demo, written.abc])).rows);
    const [calls] = await withClient(restoredUrl, async (c) => (await c.query<{ n: number }>(`select count(*)::int as n from cdrs where call_id like 'drill-%'`)).rows);
    expect([written1.n, calls.n]).toEqual([2, 3]);
  });

  it("passes the page's check of a restore: the migrations, each tenant's counts, the roles, no rows for app_user without a tenant", async () => {
    const check = docPart(backupsDoc(), `### Check a restore\n\n\`\`\`sh\ndocker compose exec -T postgres psql ${AS_COMPOSE} <<'SQL'\n`, '\nSQL\n');
    const { stdout } = await run(bins.psql, [`--dbname=${restoredUrl}`, '--set=ON_ERROR_STOP=1'], { input: check });
    expect(stdout).toMatch(/ demo +\| +\d+ \| +\d+ \| +2\n/);
    expect(stdout).toMatch(/ abc +\| +\d+ \| +\d+ \| +1\n/);
    expect(stdout).toMatch(/ app_system +\| f +\| t\n/);
    expect(stdout).toMatch(/must_be_0\s*\n-+\n\s+0\n/);
  });

  it('has the roles as the migrations make them: NOLOGIN, and BYPASSRLS for app_system only', async () => {
    const rows = await withClient(restoredUrl, async (c) => (await c.query(
      `select rolname, rolcanlogin, rolbypassrls, pg_has_role(current_user, oid, 'member') as owner_member
         from pg_roles where rolname in ('app_user', 'app_system') order by 1`)).rows);
    expect(rows).toEqual([
      { rolname: 'app_system', rolcanlogin: false, rolbypassrls: true, owner_member: true },
      { rolname: 'app_user', rolcanlogin: false, rolbypassrls: false, owner_member: true },
    ]);
  });

  it('keeps tenants apart as app_user: nothing without a tenant, only its own rows with one, no write into another', async () => {
    restored = await openDb({ databaseUrl: restoredUrl });
    expect((await restored.query<{ u: string }>('select current_user as u')).rows[0].u).toBe('app_user');
    const tables = await tenantTables(restoredUrl);
    expect(tables).toEqual(expect.arrayContaining(['customers', 'users', 'cdrs', 'subscribers', 'survey_categories']));
    const owner = (sql: string, params: unknown[] = []) => withClient(restoredUrl, async (c) => (await c.query<{ n: number }>(sql, params)).rows[0].n);
    for (const table of tables) {
      const none = await restored.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect([table, none.rows[0].n]).toEqual([table, 0]);
      for (const tenant of ['demo', 'abc'] as const) {
        const seen = await restored.withTenant(ids[tenant], (tx) =>
          tx.query<{ own: number; other: number }>(`select count(*) filter (where tenant_id = $1)::int as own, count(*) filter (where tenant_id is distinct from $1)::int as other from ${table}`, [ids[tenant]]),
        );
        const own = await owner(`select count(*)::int as n from ${table} where tenant_id = $1`, [ids[tenant]]);
        expect([table, tenant, seen.rows[0].own, seen.rows[0].other]).toEqual([table, tenant, own, 0]);
      }
    }
    const intrude = restored.withTenant(ids.demo, (tx) => tx.query(`insert into customers (tenant_id, name, phone, status) values ($1, 'Kẻ gian', '0900000000', 'new')`, [ids.abc]));
    await expect(intrude).rejects.toThrow(/row-level security/);
  }, 120_000); // five queries for each of some sixty tenant tables

  it('serves the API: a seeded user logs in and sees the data, and the SIP passwords open with the same key', async () => {
    restored ??= await openDb({ databaseUrl: restoredUrl });
    restoredApp = await buildServer({ db: restored, jwtSecret: TEST_JWT_SECRET, otpWebhookMs: null });
    for (const tenant of ['demo', 'abc'] as const) {
      const headers = bearer(await login(restoredApp, tenant, DEMO.admin));
      const res = await restoredApp.inject({ url: `/t/${tenant}/customers?search=${encodeURIComponent('sao lưu')}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((c: { name: string }) => c.name)).toEqual([written[tenant]]);
    }
    const internal = buildInternalServer(restored);
    const ha1 = await internal.inject({ url: '/internal/sip/credentials?user=101&domain=demo.tongdai.local', headers: INTERNAL_HEADERS });
    await internal.close();
    expect([ha1.statusCode, ha1.body]).toEqual([200, ha1Before]);
  }, 60_000);
});
