/**
 * Reports section of `npm run bench` (issue 13, ADRs 0022 and 0029). On PostgreSQL with rows from
 * the generator: the p95 of 31-day pages (first, a deep keyset page, filtered), the 30-day
 * department/team and per-extension summaries and the series, each through the API's code (pool,
 * tenant transaction, read model) beside the same statement run directly in psql (PREPARE/EXECUTE,
 * `\timing`): the ratio is the API's overhead over the database. Then the exports (CSV over a
 * month, XLSX over a week) through the call-history service and the file writers into /dev/null,
 * rows/s, the CPU each line cost the API (this process) and PostgreSQL (its backends, from /proc
 * when the server runs on this machine) and RSS growth, beside the same rows read by one COPY in
 * psql. On a shared machine rows/s follows the load; the CPU per row does not. Then the same page
 * on PGlite at 1M rows.
 *
 *   tsx scripts/reports-bench.ts [rows] [--url postgres://…/db] [--pglite-rows n]
 *   tsx scripts/reports-bench.ts 1000000 --pglite-only
 *   tsx scripts/reports-bench.ts 10000000 --url … --pglite-rows 0 --pages-only   (no exports)
 *   tsx scripts/reports-bench.ts 1000000 --url … --exports-only                  (the exports alone)
 *
 * With --url (or BENCH_CDR_URL) the database is reused when it already holds a run of this size
 * (the generator's tenants with their row counts), else generated into; without, a throwaway cluster.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import type { Db, Queryable } from '../src/db/db';
import { openDb } from '../src/db/open';
import { lineStatement, listTenantCdrs, pageTenantCdrs } from '../src/modules/cdr/cdr-read.repository';
import * as v from 'valibot';
import { CALL_REPORT_EXPORT_HEADERS, CallReportQuerySchema, vnDayStart } from '@tongdai/contracts';
import { createCallHistoryService } from '../src/modules/reports/call-history.service';
import { csvFile, xlsxFile } from '../src/http/export-files';
import { callSeries, departmentTeamSummary, extensionSummary, vnDays } from '../src/modules/reports/read-model';
import { startPgCluster } from '../test/pg-cluster';
import { generateCdrs, generateInto, GEN_COPY_COLUMNS, plannedRows, type GenResult } from './gen-cdrs';

export interface ReportFigure {
  name: string;
  p95Ms: number;
  psqlP95Ms: number;
  ratio: number;
  goalMs: number;
}

export interface ExportFigure {
  format: 'CSV' | 'XLSX';
  days: string;
  rows: number;
  bytes: number;
  ms: number;
  rowsPerS: number;
  /** Resident memory of this process: the most it grew above where it started (sampled per chunk and every 20 ms). */
  rssGrowthMb: number;
  /** CPU time (user + system) this process spent: rows per CPU second is what the API can do on a core of its own, whatever the load. */
  cpuMs: number;
  /** CPU time the database's backends spent meanwhile (read from /proc: a server on this machine; NaN otherwise). */
  dbCpuMs: number;
  /** The same rows (the export's statement without its pages) by one COPY … TO STDOUT in psql. */
  psqlRowsPerS: number;
}

// BENCH_REPORT_RUNS: fewer for the bench's smoke (npm test), which only proves rows are read.
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 20);
const END = '2026-11-01';
const DAYS = 120;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];
const load = () => spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ').slice(0, 3).join(' ');

/**
 * CPU milliseconds the database's client backends have spent so far, by pid (their /proc/<pid>/stat,
 * in clock ticks of 10 ms): what an export costs the server beside what it costs the API. Empty when
 * the server is not on this machine.
 */
async function backendCpu(url: string): Promise<Map<number, number>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
      } catch {
        // not on this machine
      }
    }
    return out;
  } finally {
    await c.end();
  }
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>): number =>
  after.size ? [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0) : NaN;

/** Records the statements a read-model call sends, to replay them in psql. */
function recorder(tx: Queryable, log: { sql: string; params: unknown[] }[]): Queryable {
  return { query: (sql, params) => (log.push({ sql, params: params ?? [] }), tx.query(sql, params)) };
}

const literal = (v: unknown): string => {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return `'${v.toISOString()}'`;
  if (Array.isArray(v)) return `'{${v.map(String).join(',')}}'`;
  return `'${String(v).replace(/'/g, "''")}'`;
};

/** psql as app_user inside the tenant, the statements after `\timing on`; the times it printed. */
function psqlTimes(url: string, tenantId: number, setup: string[], timed: string[]): number[] {
  const script = ['set role app_user;', `select set_config('app.tenant_id', '${tenantId}', false);`, ...setup, '\\timing on', ...timed].join('\n');
  const r = spawnSync('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-o', '/dev/null'], { input: script, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  return [...r.stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
}

/** p95 of the statement run RUNS times in psql (server-side plan with its values, as the API's unnamed statements are). */
function psqlP95(url: string, tenantId: number, sql: string, params: unknown[]): number {
  const exec = params.length ? `execute q(${params.map(literal).join(', ')});` : 'execute q;';
  return p95(psqlTimes(url, tenantId, ['set plan_cache_mode = force_custom_plan;', `prepare q as ${sql};`], Array.from({ length: RUNS }, () => exec)));
}

async function measure(db: Db, url: string | null, tenantId: number, name: string, goalMs: number, fn: (tx: Queryable) => Promise<unknown>): Promise<ReportFigure> {
  const log: { sql: string; params: unknown[] }[] = [];
  await db.withTenant(tenantId, (tx) => fn(recorder(tx, log)));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await db.withTenant(tenantId, fn);
    times.push(performance.now() - t0);
  }
  const main = log.filter((l) => !/set_config/.test(l.sql)).at(-1)!;
  const psql = url ? psqlP95(url, tenantId, main.sql, main.params) : NaN;
  const api = p95(times);
  return { name, p95Ms: api, psqlP95Ms: psql, ratio: api / psql, goalMs };
}

/**
 * Outside numbers become customers (one in 20), once per database, so the export's lookup finds some;
 * stored as the API stores a customer's phone (84…, ADR 0016: the generator's numbers are 0… or 1900…).
 * Customers an earlier bench stored as 0… are rewritten.
 */
async function ensureCustomers(db: Db, tenantId: number): Promise<number> {
  return db.withSystem(async (tx) => {
    await tx.query(`update customers set phone = '84' || substr(phone, 2) where tenant_id = $1 and name like 'Khách %' and phone like '0%'`, [tenantId]);
    const had = await tx.query<{ n: number }>(`select count(*)::int as n from customers where tenant_id = $1 and name like 'Khách %'`, [tenantId]);
    if (had.rows[0].n) return had.rows[0].n;
    const r = await tx.query<{ n: number }>(
      `with ins as (insert into customers (tenant_id, name, phone, status)
       select $1, 'Khách ' || n, case when n like '0%' then '84' || substr(n, 2) else n end, 'customer' from (
         select distinct case when direction = 'inbound' then caller else callee end as n
           from cdrs where tenant_id = $1 and direction in ('inbound', 'outbound')) x
       where hashtext(n) % 20 = 0 returning 1) select count(*)::int as n from ins`,
      [tenantId],
    );
    return r.rows[0].n;
  });
}

/**
 * One export through the API's code (call-history service: filter checks, keyset pages of lines,
 * names, customers by batch, masking; the CSV or XLSX writer) into /dev/null as the reply's socket
 * would take it, over Vietnam days `from`..`to`; beside the same rows by one COPY in psql.
 */
async function measureExport(db: Db, url: string, tenantId: number, format: 'CSV' | 'XLSX', from: string, to: string): Promise<ExportFigure> {
  const q = v.parse(CallReportQuerySchema, { from, to });
  const viewer = { tenantId, userId: 0, wholeTenant: true };
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 20);
  let rows = 0;
  // The pool's connections opened first, so the backends that serve the export are counted from zero or from before.
  await Promise.all(Array.from({ length: 4 }, () => db.withTenant(tenantId, (tx) => tx.query('select pg_sleep(0.01)'))));
  const db0 = await backendCpu(url);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sink = createWriteStream('/dev/null');
  try {
    const pages = await createCallHistoryService(db).exportPages(viewer, q);
    const counted = (async function* () {
      for await (const page of pages) {
        rows += page.length;
        sample();
        yield page;
      }
    })();
    const file: Readable = format === 'CSV' ? csvFile(CALL_REPORT_EXPORT_HEADERS, counted) : xlsxFile('Lịch sử cuộc gọi', CALL_REPORT_EXPORT_HEADERS, counted);
    await pipeline(file, sink);
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const dbCpuMs = cpuSince(db0, await backendCpu(url));
  // The database alone: the export's statement without pages, every row out through COPY.
  const { sql, params } = lineStatement({ from: vnDayStart(from)!, to: new Date(vnDayStart(to)!.getTime() + 86_400_000) }, null, null);
  const inlined = sql.replace(/\$(\d+)/g, (_, i: string) => literal(params[Number(i) - 1]));
  const [copyMs] = psqlTimes(url, tenantId, [], [`copy (${inlined}) to stdout;`]);
  return { format, days: `${from}..${to}`, rows, bytes: sink.bytesWritten, ms, rowsPerS: rows / (ms / 1000), rssGrowthMb: (peak - base) / 2 ** 20, cpuMs: (cpu.user + cpu.system) / 1000, dbCpuMs, psqlRowsPerS: rows / (copyMs / 1000) };
}

/** A database holding `rows` generated records: the one named (reused when it holds this run), else a throwaway cluster. */
async function benchDatabase(rows: number, given: string | undefined, log: (s: string) => void): Promise<{ url: string; gen: GenResult; reused: boolean; stop(): Promise<void> }> {
  let url = given;
  let stop = async (): Promise<void> => undefined;
  if (!url) {
    const cluster = await startPgCluster();
    stop = () => cluster.stop();
    const admin = new Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database reports_bench');
    await admin.end();
    const u = new URL(cluster.url);
    u.pathname = '/reports_bench';
    url = u.toString();
  }
  const planned = plannedRows(rows);
  const have = await held(url, planned.map((p) => p.ma_dn));
  if (planned.every((p) => have.get(p.ma_dn)?.rows === p.rows)) {
    const to = Date.parse(`${END}T00:00:00Z`) - 7 * 3_600_000;
    const tenants = planned.map((p) => ({ id: have.get(p.ma_dn)!.id, ma_dn: p.ma_dn, rows: p.rows }));
    return { url, gen: { tenants, copyMs: NaN, rollupMs: NaN, from: new Date(to - DAYS * 86_400_000), to: new Date(to) }, reused: true, stop };
  }
  return { url, gen: await generateCdrs({ url, rows, end: END, days: DAYS, log }), reused: false, stop };
}

/** The generated tenants a database holds, with their record counts (none when it is not migrated yet). */
async function held(url: string, names: string[]): Promise<Map<string, { id: number; rows: number }>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const exists = await c.query(`select 1 from pg_tables where tablename = 'tenants'`);
    if (!exists.rowCount) return new Map();
    const r = await c.query<{ ma_dn: string; id: number; rows: number }>(
      `select t.ma_dn, t.id, (select count(*)::int from cdrs where tenant_id = t.id) as rows from tenants t where ma_dn = any($1)`,
      [names],
    );
    return new Map(r.rows.map((x) => [x.ma_dn, { id: x.id, rows: x.rows }]));
  } finally {
    await c.end();
  }
}

/** Generates `rows` records (or reuses a database holding them) and measures the report reads and exports. */
export async function reportFigures(rows: number, opts: { url?: string; pgliteRows?: number; pagesOnly?: boolean; exportsOnly?: boolean; log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => undefined);
  const bench = await benchDatabase(rows, opts.url, log);
  try {
    const { url, gen } = bench;
    // Its setup (customers from 10 M records' numbers) is a statement of minutes; a page that took
    // over the API's 15 s would be a figure against its goal, not a section that measured nothing.
    const db = await openDb({ databaseUrl: url, queryTimeoutMs: 60 * 60_000 });
    try {
      const main = gen.tenants[0];
      const loadBefore = load();
      const figures = opts.exportsOnly ? [] : await pageFigures(db, url, main.id);
      const customers = await ensureCustomers(db, main.id);
      // As autovacuum would after the customers were written: the lookup's plan reads the statistics.
      psqlTimes(url, main.id, ['reset role;', 'vacuum (analyze) customers;'], []);
      // A month as CSV (the goal's export), a week as XLSX.
      const exports = opts.pagesOnly ? [] : [await measureExport(db, url, main.id, 'CSV', '2026-10-01', '2026-10-31'), await measureExport(db, url, main.id, 'XLSX', '2026-10-20', '2026-10-26')];
      const pglite = opts.pgliteRows === 0 || opts.exportsOnly ? null : await pgliteFigures(opts.pgliteRows ?? Math.min(rows, 1_000_000), log);
      return { rows, reused: bench.reused, copyMs: gen.copyMs, rollupMs: gen.rollupMs, mainRows: main.rows, customers, figures, exports, pglite, load: `${loadBefore} → ${load()}` };
    } finally {
      await db.close();
    }
  } finally {
    await bench.stop();
  }
}

/** The page and summary reads of the main tenant (PostgreSQL: beside psql; PGlite: url null). */
async function pageFigures(db: Db, url: string | null, tenant: number): Promise<ReportFigure[]> {
  const month = vnDays('2026-10-01', '2026-10-31');
  const month30 = vnDays('2026-10-02', '2026-10-31');
  // A deep page: the cursor of page 50, reached once, then read repeatedly.
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) cursor = (await db.withTenant(tenant, (tx) => listTenantCdrs(tx, { ...month, limit: 10, cursor }))).next;
  const filtered = { ...month, limit: 10, direction: 'inbound', disposition: 'ANSWERED', extensions: ['1007'] } as const;
  const picked = await db.withTenant(tenant, async (tx) => ({
    queueId: (await tx.query<{ id: number }>('select id from pbx_queues order by id limit 1')).rows[0]?.id ?? 0,
    department: (await tx.query<{ extension: string }>(
      'select s.extension from subscribers s join users u on u.id = s.user_id where u.department_id = (select min(id) from departments)',
    )).rows.map((r) => r.extension),
  }));
  const pages = [
    await measure(db, url, tenant, '31-day page 1', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10 })),
    await measure(db, url, tenant, '31-day page 51', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, cursor })),
    await measure(db, url, tenant, '31-day filtered page 1', 100, (tx) => listTenantCdrs(tx, filtered)),
    // The worst cases (ADR 0029): filters that match nothing or little, which walked the whole month.
    await measure(db, url, tenant, '31-day 3 ext missed in', 100, (tx) =>
      listTenantCdrs(tx, { ...month, limit: 10, direction: 'inbound', disposition: 'NO ANSWER', extensions: ['1001', '1002', '1003'] })),
    await measure(db, url, tenant, '31-day dept missed in', 100, (tx) =>
      listTenantCdrs(tx, { ...month, limit: 10, direction: 'inbound', disposition: 'NO ANSWER', extensions: picked.department })),
    await measure(db, url, tenant, '31-day department', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, extensions: picked.department })),
    await measure(db, url, tenant, '31-day agent, other ext', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, scope: ['1007'], extensions: ['1008'] })),
    await measure(db, url, tenant, '31-day queue outbound', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, queueId: picked.queueId, direction: 'outbound' })),
    await measure(db, url, tenant, '31-day internal blocked', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, direction: 'internal', disposition: 'BLOCKED' })),
    // A number nobody called (the trigram keys, migration 0035), as a keyset page and as the numbered page with its total.
    await measure(db, url, tenant, '31-day number search miss', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, number: '0999888777' })),
    await measure(db, url, tenant, '31-day number miss numbered', 100, (tx) => pageTenantCdrs(tx, { ...month, limit: 10, number: '0999888777' }, 1)),
    // The screen's numbered page (rows and the total).
    await measure(db, url, tenant, '31-day 3 ext numbered', 100, (tx) =>
      pageTenantCdrs(tx, { ...month, limit: 10, direction: 'inbound', disposition: 'NO ANSWER', extensions: ['1001', '1002', '1003'] }, 1)),
  ];
  if (!url) return pages; // PGlite: the page only
  return [
    ...pages,
    await measure(db, url, tenant, '30-day department/team', 300, (tx) => departmentTeamSummary(tx, month30)),
    await measure(db, url, tenant, '30-day per extension', 300, (tx) => extensionSummary(tx, month30)),
    await measure(db, url, tenant, '30-day calls per day', 300, (tx) => callSeries(tx, { ...month30, bucket: 'day' })),
    await measure(db, url, tenant, '1-day calls per hour', 300, (tx) => callSeries(tx, { ...vnDays('2026-10-20', '2026-10-20'), bucket: 'hour' })),
    // Filtered as the screens filter (ADR 0031): one queue's answered calls; a department's inbound calls; missed calls.
    await measure(db, url, tenant, '30-day dept/team queue+res', 300, (tx) => departmentTeamSummary(tx, { ...month30, queueId: picked.queueId, result: 'answered' })),
    await measure(db, url, tenant, '30-day per ext dept inbnd', 300, (tx) => extensionSummary(tx, { ...month30, extensions: picked.department, direction: 'inbound' })),
    await measure(db, url, tenant, '30-day per ext missed', 300, (tx) => extensionSummary(tx, { ...month30, result: 'no_answer' })),
  ];
}

/** The same generator into PGlite (a folder on disk, COPY from its /dev/blob), then the pages. */
async function pgliteFigures(rows: number, log: (s: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-bench-pglite-'));
  const db = await openDb({ dataDir: dir });
  try {
    // COPY from a file and ANALYZE need the owner: the session's superuser for this transaction only.
    const asOwner = (sql: string, options?: object) =>
      db.withSystem(async (tx) => {
        await tx.query('set local role postgres');
        await (tx as unknown as { query(s: string, p: unknown[], o?: object): Promise<unknown> }).query(sql, [], options);
      });
    const gen = await generateInto(
      {
        db,
        copy: async (fill) => {
          const parts: Uint8Array<ArrayBuffer>[] = [];
          const utf8 = new TextEncoder();
          await fill(new Writable({ write: (chunk: Buffer | string, _e, done) => (parts.push(typeof chunk === 'string' ? utf8.encode(chunk) : new Uint8Array(chunk)), done()) }));
          await asOwner(`copy cdrs (${GEN_COPY_COLUMNS}) from '/dev/blob'`, { blob: new Blob(parts) });
        },
        analyze: async () => {
          for (const t of ['cdrs', 'cdr_hourly', 'cdr_daily']) await asOwner(`analyze ${t}`);
          // What the VACUUM after COPY does on PostgreSQL (none runs in a transaction, PGlite's only
          // way): the trigram index's pending entries merged, so a search does not scan the COPY's.
          await asOwner(`select gin_clean_pending_list(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
            join pg_am a on a.oid = c.relam where a.amname = 'gin' and i.indrelid in (select inhrelid from pg_inherits where inhparent = 'cdrs'::regclass)`);
        },
        owner: (statements) =>
          db.withSystem(async (tx) => {
            await tx.query('set local role postgres');
            for (const sql of statements) await tx.query(sql);
          }),
      },
      { rows, end: END, days: DAYS, log: (s) => log(`PGlite ${s}`) },
    );
    const loadBefore = load();
    const figures = await pageFigures(db, null, gen.tenants[0].id);
    return { rows, mainRows: gen.tenants[0].rows, copyMs: gen.copyMs, figures, load: `${loadBefore} → ${load()}` };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = Awaited<ReturnType<typeof reportFigures>>;
const mb = (n: number) => `${n.toFixed(0)} MB`;
const rate = (n: number) => Math.round(n).toLocaleString('en');
const usPerRow = (ms: number, rows: number) => (Number.isNaN(ms) ? '?' : `${((ms * 1000) / rows).toFixed(1)} µs`);

/** The bench's table lines. */
export function printReportFigures(r: Figures, print: (s: string) => void = console.log): void {
  const made = r.reused ? 'reused' : `COPY ${(r.copyMs / 1000).toFixed(1)} s, rollups ${(r.rollupMs / 1000).toFixed(1)} s`;
  print(`Reports on PostgreSQL, ${r.rows.toLocaleString('en')} generated records (${r.mainRows.toLocaleString('en')} in one tenant; ${made}); load average ${r.load}`);
  for (const f of r.figures) {
    const ok = f.p95Ms <= f.goalMs ? 'ok' : 'OVER';
    print(`  ${f.name.padEnd(26)} p95 ${f.p95Ms.toFixed(1).padStart(7)} ms (goal ≤ ${f.goalMs}, ${ok})  psql p95 ${f.psqlP95Ms.toFixed(1).padStart(7)} ms  ratio ${f.ratio.toFixed(2)}`);
  }
  for (const e of r.exports) {
    const ok = e.rowsPerS >= 50_000 && e.rssGrowthMb < 150 ? 'ok' : 'OVER';
    print(
      `  ${e.format} export ${e.days}, ${e.rows.toLocaleString('en')} rows (${r.customers.toLocaleString('en')} customers): ${rate(e.rowsPerS)} rows/s, ${(e.ms / 1000).toFixed(1)} s, ${mb(e.bytes / 2 ** 20)}, ` +
        `${rate(e.rows / (e.cpuMs / 1000))} rows per CPU second (CPU per row: API ${usPerRow(e.cpuMs, e.rows)}, PostgreSQL ${usPerRow(e.dbCpuMs, e.rows)}), ` +
        `RSS growth ${mb(e.rssGrowthMb)} (goal ≥ 50,000 rows/s, < 150 MB, ${ok})  psql COPY ${rate(e.psqlRowsPerS)} rows/s  ratio ${(e.psqlRowsPerS / e.rowsPerS).toFixed(2)}`,
    );
  }
  if (r.pglite) printPglite(r.pglite, print);
}

function printPglite(p: Awaited<ReturnType<typeof pgliteFigures>>, print: (s: string) => void): void {
  print(`Reports on PGlite, ${p.rows.toLocaleString('en')} generated records (${p.mainRows.toLocaleString('en')} in one tenant; COPY ${(p.copyMs / 1000).toFixed(1)} s); load average ${p.load}`);
  for (const f of p.figures) print(`  ${f.name.padEnd(26)} p95 ${f.p95Ms.toFixed(1).padStart(7)} ms (goal ≤ ${f.goalMs}, ${f.p95Ms <= f.goalMs ? 'ok' : 'OVER'})`);
}

/** Rows of `npm run bench`'s table: [measure, result, goal]. */
/** The bench's rows: measure, result, goal, and why it measured nothing (no record generated, an export that read no row). */
export async function reportRows(rows: number, url?: string, pgliteRows?: number): Promise<[string, string, string, string?][]> {
  const r = await reportFigures(rows, { url, pgliteRows, log: (s) => console.log(`reports: ${s}`) });
  const at = `${(r.rows / 1e6).toLocaleString('en')}M records, ${(r.mainRows / 1e6).toLocaleString('en')}M in one tenant`;
  return [
    [`Generate ${at} (COPY / rollups)`, r.reused ? 'reused' : `${(r.copyMs / 1000).toFixed(1)} s / ${(r.rollupMs / 1000).toFixed(1)} s`, 'minutes', r.mainRows ? undefined : 'no record in the main tenant'],
    ...r.figures.map((f): [string, string, string] => [
      `Reports on PostgreSQL: ${f.name} (p95; psql p95, ratio)`,
      `${f.p95Ms.toFixed(1)} ms; ${f.psqlP95Ms.toFixed(1)} ms, ×${f.ratio.toFixed(2)}`,
      `≤ ${f.goalMs} ms`,
    ]),
    ...r.exports.map((e): [string, string, string, string?] => [
      `Reports: ${e.format} export ${e.days}, ${e.rows.toLocaleString('en')} rows (rows/s, per CPU s; CPU per row API/PostgreSQL; RSS growth; psql COPY rows/s, ratio)`,
      `${rate(e.rowsPerS)}, ${rate(e.rows / (e.cpuMs / 1000))}; ${usPerRow(e.cpuMs, e.rows)}/${usPerRow(e.dbCpuMs, e.rows)}; ${mb(e.rssGrowthMb)}; ${rate(e.psqlRowsPerS)}, ×${(e.psqlRowsPerS / e.rowsPerS).toFixed(2)}`,
      '≥ 50,000 rows/s; < 150 MB',
      e.rows ? undefined : 'the export read no row',
    ]),
    ...(r.pglite?.figures ?? []).map((f): [string, string, string] => [
      `Reports on PGlite (${(r.pglite!.rows / 1e6).toLocaleString('en')}M records): ${f.name} (p95)`,
      `${f.p95Ms.toFixed(1)} ms`,
      `≤ ${f.goalMs} ms`,
    ]),
    ['Reports: load average (1, 5, 15 min) before → after', r.load, '2 shared cores'],
  ];
}

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const rows = Number(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 100_000);
  const pg = arg('pglite-rows');
  if (process.argv.includes('--pglite-only')) {
    pgliteFigures(rows, console.log).then((p) => printPglite(p, console.log), (err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  } else reportFigures(rows, { url: arg('url') ?? process.env.BENCH_CDR_URL, pgliteRows: pg === undefined ? undefined : Number(pg), pagesOnly: process.argv.includes('--pages-only'), exportsOnly: process.argv.includes('--exports-only'), log: console.log })
    .then((r) => printReportFigures(r))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
