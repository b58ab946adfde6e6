import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { callRecord } from '@tongdai/testkit/call-records';
import { REPORTS_API, reportLagWarning, vnDay, type CallReportRow, type Kpi, type ReportFreshness } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { openReportsReplica, type ReportsDb } from '../../db/replica';
import { seed } from '../../db/seed';
import { buildServer } from '../../server';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { DEMO, NO_DNS, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { findBin, freePort, startPgCluster, startReplica, type PgCluster, type PgReplica } from '../../../test/pg-cluster';
import { startApiProcess, until } from '../../../test/api-process';
import { REPORT_DAY, reportCdr, seedReportCalls, type ReportFixture } from './reports.fixture';

/**
 * Reports on a PostgreSQL streaming replica (issue 42, ADR 0058), a real one: a throwaway primary
 * cluster, a hot standby made from it with `pg_basebackup -R -X stream` on a port of its own, the
 * migrations and the seed run on the primary (and streamed), the API in process with
 * DATABASE_URL = the primary and REPORTS_DATABASE_URL = the standby. Replay is paused and resumed on
 * the standby (superuser), the standby stopped and started.
 */
let primary: PgCluster;
let standby: PgReplica;
let db: Db;
let reports: ReportsDb;
let t: TestApp;
let fx: ReportFixture;
const logs: string[] = [];
const DB_NAME = 'tongdai_replica';

const inDb = (clusterUrl: string) => Object.assign(new URL(clusterUrl), { pathname: `/${DB_NAME}` }).toString();
async function on<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  // No skipping: a machine without the binaries fails here, naming them.
  for (const bin of ['initdb', 'pg_ctl', 'pg_basebackup']) if (!findBin(bin)) throw new Error(`${bin} not found: install the apt package \`postgresql\` (apt-get install -y postgresql)`);
  primary = await startPgCluster();
  // The standby first: the migrations and the seed reach it by streaming, as in production.
  standby = await startReplica(primary.url);
  await on(primary.url, `create database ${DB_NAME}`);
  db = await openDb({ databaseUrl: inDb(primary.url) });
  await seed(db);
  await until('the standby has the database', () => on<{ n: number }>(inDb(standby.url), 'select count(*)::int as n from schema_migrations'), (r) => r[0].n > 0, 60_000);
  reports = await openReportsReplica(inDb(standby.url), db, { probeEveryMs: 200, log: (m) => logs.push(m) });
  const app = await buildServer({ db, reportsDb: reports, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS), otpWebhookMs: null });
  t = { app, db, dbUrl: inDb(primary.url), close: async () => undefined };
  fx = await seedReportCalls(t);
}, 300_000);
afterAll(async () => {
  await t?.app.close();
  await reports?.close();
  await db?.close();
  await standby?.stop();
  await primary?.stop();
});

const get = (url: string, headers = fx.h.admin) => t.app.inject({ method: 'GET', url, headers });
async function history(maDn = 'demo', headers = fx.h.admin): Promise<CallReportRow[]> {
  const res = await get(`/t/${maDn}/reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}&per_page=100`, headers);
  expect(res.statusCode).toBe(200);
  return res.json<{ data: CallReportRow[] }>().data;
}
const callers = (rows: CallReportRow[]) => rows.map((r) => r.caller);
const freshness = async (): Promise<ReportFreshness> => (await get(`/t/demo/${REPORTS_API.freshness}`)).json<{ data: ReportFreshness }>().data;
/** A finished call of the demo tenant, written on the primary through the CDR writer (records and rollups). */
async function finishedCall(callId: string, o: Partial<CdrRow> & { started: string }): Promise<void> {
  const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
  writer.add(reportCdr(fx.ids.demo, callId, o));
  await writer.flush();
}
const kpiActual = async (id: number) => (await get(`/t/demo/kpis/${id}`)).json<{ data: Kpi }>().data.progress.actual;
/** An outbound call placed by the staff member's extension (102) a minute ago: the KPI's "calls made" today. */
async function placedNow(callId: string): Promise<void> {
  const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
  writer.add(callRecord<CdrRow>(fx.ids.demo, callId, new Date(Date.now() - 60_000), { direction: 'outbound', caller: '102', callee: '0987000999', extension: '102' }));
  await writer.flush();
}
const replicaReads = () => on<{ n: number }>(inDb(standby.url), "select count(*)::int as n from pg_stat_activity where application_name = 'tongdai-reports' and datname = $1", [DB_NAME]);

describe('reports on a streaming replica (REPORTS_DATABASE_URL)', () => {
  let kpiId: number;

  it('shows a finished call written on the primary in the report read from the replica, with no lag', async () => {
    expect((await on<{ r: boolean }>(standby.url, 'select pg_is_in_recovery() as r'))[0].r).toBe(true);
    await finishedCall('r1', { started: `${REPORT_DAY}T14:00:00`, caller: '0909000001', extension: '102' });
    // Read at once: the report waits for the replica to replay what the primary had when it was asked.
    expect(callers(await history())).toContain('0909000001');
    expect((await replicaReads())[0].n).toBeGreaterThan(0);
    expect(await until('no lag', freshness, (f) => f.lag_seconds === 0)).toEqual({ source: 'replica', lag_seconds: 0 });
    expect(logs).toEqual([]); // never fell back
    // What a load balancer or an operator reads: the replica named, its lag, and all well.
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'ok', reports: 'replica', reports_lag_seconds: 0 });
  });

  it('saves a KPI on the primary and reads its figures from the replica', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/t/demo/kpis', headers: fx.h.admin,
      payload: { name: 'Gọi ra trong ngày', measure: 'calls_made', target: 10, period: 'day', start_date: vnDay(new Date()), assignee: { type: 'user', id: fx.ids.staffId } },
    });
    expect(res.statusCode).toBe(201);
    kpiId = res.json<{ data: Kpi }>().data.id;
    // The row is on the primary, and the list (read there) has it at once.
    expect(await db.withTenant(fx.ids.demo, (tx) => tx.query('select id from kpis where id = $1', [kpiId])).then((r) => r.rows.length)).toBe(1);
    expect((await get('/t/demo/kpis')).json<{ data: Kpi[] }>().data.map((k) => k.id)).toContain(kpiId);
    const before = await kpiActual(kpiId);
    await placedNow('r-kpi-1');
    expect(await kpiActual(kpiId)).toBe(before + 1);
  });

  it('while replay is paused: a new call is not in the reports yet and the lag is shown; resumed, it is, and the lag is 0', async () => {
    const kpiBefore = await kpiActual(kpiId);
    const byExtension = async () => (await get(`/t/demo/reports/by-extension?from=${REPORT_DAY}&to=${REPORT_DAY}`)).json<{ data: { extension: string; calls: number }[] }>().data;
    const calls102 = async () => (await byExtension()).find((r) => r.extension === '102')?.calls ?? 0;
    const summaryBefore = await calls102();
    // pg_wal_replay_pause() is a superuser's, on the standby itself.
    await on(standby.url, 'select pg_wal_replay_pause()');
    await until('replay paused', () => on<{ s: string }>(standby.url, 'select pg_get_wal_replay_pause_state() as s'), (r) => r[0].s === 'paused');
    await finishedCall('r2', { started: `${REPORT_DAY}T15:00:00`, caller: '0909000002', extension: '102' });
    await placedNow('r-kpi-2');
    // On the primary already; not on the replica, which the reports read.
    expect(await db.withTenant(fx.ids.demo, (tx) => tx.query("select 1 from cdrs where call_id = 'r2'")).then((r) => r.rows.length)).toBe(1);
    expect(callers(await history())).not.toContain('0909000002');
    expect(await calls102()).toBe(summaryBefore);
    expect(await kpiActual(kpiId)).toBe(kpiBefore);
    // The lag grows from the last transaction replayed; the screens warn past 5 s.
    const lagging = await until('the lag shown', freshness, (f) => f.lag_seconds > 5, 30_000);
    expect(lagging.source).toBe('replica');
    expect(reportLagWarning(lagging)).toMatch(/^Số liệu báo cáo đang chậm khoảng \d+ giây so với hệ thống\.$/);

    await on(standby.url, 'select pg_wal_replay_resume()');
    expect(callers(await history())).toContain('0909000002');
    expect(await calls102()).toBe(summaryBefore + 1);
    expect(await kpiActual(kpiId)).toBe(kpiBefore + 1);
    expect(await until('lag back to 0', freshness, (f) => f.lag_seconds === 0, 15_000)).toEqual({ source: 'replica', lag_seconds: 0 });
  }, 90_000);

  it('exports from the replica', async () => {
    const res = await get(`/t/demo/reports/call-history/export.csv?from=${REPORT_DAY}&to=${REPORT_DAY}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(1 + (await history()).length);
    expect(res.body).toContain('0909000002');
    const activity = await get(`/t/demo/activity/users/export.csv?from=${REPORT_DAY}&to=${REPORT_DAY}`);
    expect(activity.statusCode).toBe(200);
  });

  it('sends no write to the replica: its connections are read-only, and the standby takes none', async () => {
    expect((await reports.query<{ s: string }>("select current_setting('default_transaction_read_only') as s")).rows[0].s).toBe('on');
    await expect(reports.withTenant(fx.ids.demo, (tx) => tx.query("update kpis set name = 'x' where id = $1", [kpiId]))).rejects.toMatchObject({ code: '25006' });
    // Every write of this file went to the primary: the KPI and the calls are there, and the standby is still a standby.
    expect((await on<{ r: boolean }>(standby.url, 'select pg_is_in_recovery() as r'))[0].r).toBe(true);
    expect((await on<{ n: number }>(inDb(primary.url), "select count(*)::int as n from cdrs where call_id in ('r1', 'r2', 'r-kpi-1', 'r-kpi-2')"))[0].n).toBe(4);
  });

  it('keeps each tenant to its own rows through the replica (row-level security)', async () => {
    const abc = await history('abc', fx.h.abcAdmin);
    expect(abc.map((r) => `${r.direction}:${r.caller}>${r.callee}`).sort()).toEqual(['inbound:0903000001>02873000001', 'internal:101>102']);
    const count = (tenantId: number) => reports.withTenant(tenantId, (tx) => tx.query<{ n: number }>('select count(*)::int as n from cdrs')).then((r) => r.rows[0].n);
    expect(await count(fx.ids.abc)).toBe(2);
    expect(await count(fx.ids.demo)).toBeGreaterThan(6);
    // No tenant set: nothing (the policy is the primary's, replicated).
    expect((await reports.query<{ n: number }>('select count(*)::int as n from cdrs')).rows[0].n).toBe(0);
    // Another tenant's token on this tenant's path: refused before any read.
    expect((await get(`/t/demo/reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}`, fx.h.abcAdmin)).json()).toMatchObject({ code: 'UNAUTHORIZED_TENANT' });
  });

  it('reads the primary while the replica is down (logged once), and the replica again once it is back', async () => {
    standby.down();
    await finishedCall('r3', { started: `${REPORT_DAY}T16:00:00`, caller: '0909000003', extension: '102' });
    const rows = await history();
    expect(callers(rows)).toEqual(expect.arrayContaining(['0909000001', '0909000002', '0909000003']));
    expect((await get(`/t/demo/reports/call-history/export.csv?from=${REPORT_DAY}&to=${REPORT_DAY}`)).body).toContain('0909000003');
    expect(await freshness()).toEqual({ source: 'fallback', lag_seconds: 0 });
    // Served all the same, but an operator reads that the replica is away.
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect([health.statusCode, health.json()]).toEqual([200, expect.objectContaining({ status: 'degraded', reports: 'fallback' })]);
    expect(logs.filter((m) => /unreachable/.test(m))).toHaveLength(1);
    expect(logs.find((m) => /unreachable/.test(m))).toMatch(/^Reports replica 127\.0\.0\.1:\d+\/tongdai_replica unreachable \(.+\): reports read the primary until it answers again$/);
    standby.up();
    await until('the replica read again', freshness, (f) => f.source === 'replica', 30_000);
    // The call written while it was down reaches it by streaming (a restarted standby takes a moment to reconnect).
    await until('r3 replayed', () => on<{ n: number }>(inDb(standby.url), "select count(*)::int as n from cdrs where call_id = 'r3'"), (r) => r[0].n === 1, 30_000);
    expect(logs.filter((m) => /answers again: reports read it again$/.test(m))).toHaveLength(1);
    expect(callers(await history())).toContain('0909000003');
    expect((await replicaReads())[0].n).toBeGreaterThan(0);
  }, 90_000);

  it('refuses a URL that is not a replica of the primary’s database', async () => {
    await expect(openReportsReplica(standby.url, db)).rejects.toThrow(/^REPORTS_DATABASE_URL \(127\.0\.0\.1:\d+\/postgres\) is not a replica of DATABASE_URL's database/);
  });

  // A replica made beside a new deployment (the compose replica copies the primary before the API's first
  // migration) trails it while the API migrates: an e2e pair's API exited with `role "app_user" does not exist`
  // when its start-up lag query reached the replica first. Replay is held here so that moment lasts.
  it('opens on a replica that has not replayed the first migration: the primary serves the reports until it has', async () => {
    const fresh = await startPgCluster();
    const copy = await startReplica(fresh.url);
    const seen: string[] = [];
    let freshDb: Db | null = null;
    let freshReports: ReportsDb | null = null;
    try {
      await on(copy.url, 'select pg_wal_replay_pause()');
      await until('replay paused', () => on<{ s: string }>(copy.url, 'select pg_get_wal_replay_pause_state() as s'), (r) => r[0].s === 'paused');
      freshDb = await openDb({ databaseUrl: fresh.url });
      freshReports = await openReportsReplica(copy.url, freshDb, { probeEveryMs: 200, log: (m) => seen.push(m) });
      expect(await freshReports.freshness()).toEqual({ source: 'fallback', lag_seconds: 0 });
      expect(seen).toEqual([expect.stringMatching(/^Reports replica 127\.0\.0\.1:\d+\/postgres not ready \(it has not replayed the role app_user yet\): reports read the primary until it has$/)]);
      // Read meanwhile on the primary: the migrated schema, as app_user.
      expect((await freshReports.query<{ who: string }>('select current_user as who')).rows[0].who).toBe('app_user');
      await on(copy.url, 'select pg_wal_replay_resume()');
      expect(await until('the replica read', () => freshReports!.freshness(), (f) => f.source === 'replica', 30_000)).toEqual({ source: 'replica', lag_seconds: 0 });
      expect(seen.at(-1)).toMatch(/answers again: reports read it again$/);
      expect((await freshReports.query<{ standby: boolean }>('select pg_is_in_recovery() as standby')).rows[0].standby).toBe(true);
    } finally {
      await freshReports?.close();
      await freshDb?.close();
      await copy.stop();
      await fresh.stop();
    }
  }, 120_000);
});

describe('the API process (main.ts) with REPORTS_DATABASE_URL', () => {
  const API_DIR = resolve(__dirname, '../../..');
  let dataDir = '';
  beforeAll(() => void (dataDir = mkdtempSync(join(tmpdir(), 'tongdai-replica-api-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with it and no DATABASE_URL, saying why', async () => {
    const { DATABASE_URL: _, ...env } = process.env;
    const proc = spawn(process.execPath, ['--import', require.resolve('tsx', { paths: [API_DIR] }), join(API_DIR, 'src/main.ts')], {
      cwd: API_DIR, env: { ...env, REPORTS_DATABASE_URL: inDb(standby.url), DATA_DIR: dataDir, PORT: String(await freePort()) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    for (const stream of [proc.stdout, proc.stderr]) stream.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise((r) => proc.once('exit', r));
    expect(code).toBe(1);
    expect(out).toContain('REPORTS_DATABASE_URL is set but DATABASE_URL is not');
  }, 120_000);

  it('says at start-up that the reports read the replica, and serves them from it', async () => {
    const [port, internalPort] = [await freePort(), await freePort()];
    const api = await startApiProcess({
      DATABASE_URL: inDb(primary.url), REPORTS_DATABASE_URL: inDb(standby.url), PORT: String(port), INTERNAL_PORT: String(internalPort), DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn',
    });
    try {
      expect(api.log.join('')).toMatch(/Reports read the streaming replica 127\.0\.0\.1:\d+\/tongdai_replica \(REPORTS_DATABASE_URL, \d+ s behind\); every write goes to the primary/);
      const login = await fetch(`${api.url}/identity/login/tenant`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: DEMO.tenants.abc, ...DEMO.admin }),
      });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const fresh = await fetch(`${api.url}/t/abc/${REPORTS_API.freshness}`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await fresh.json()) as { data: ReportFreshness }).data.source).toBe('replica');
      const calls = await fetch(`${api.url}/t/abc/reports/call-history?from=${REPORT_DAY}&to=${REPORT_DAY}`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await calls.json()) as { meta: { total: number } }).meta.total).toBe(2);
    } finally {
      await api.kill();
    }
  }, 300_000);
});
