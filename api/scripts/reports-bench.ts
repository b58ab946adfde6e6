/**
 * Reports section of `npm run bench` (issue 13): on PostgreSQL with rows from the generator, the
 * p95 of a 31-day page (first and a deep keyset page), the 30-day department/team summary and the
 * per-extension summary and the day/hour series through the API's code (pool, tenant transaction, read model), and the
 * same statements run directly in psql (PREPARE/EXECUTE, `\timing`): the ratio is the API's
 * overhead over the database. Run alone: tsx scripts/reports-bench.ts [rows].
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import type { Db, Queryable } from '../src/db/db';
import { openDb } from '../src/db/open';
import { listTenantCdrs } from '../src/modules/cdr/cdr-read.repository';
import * as v from 'valibot';
import { CALL_REPORT_EXPORT_HEADERS, CallReportQuerySchema } from '@tongdai/contracts';
import { createCallHistoryService } from '../src/modules/reports/call-history.service';
import { csvFile } from '../src/modules/reports/export-formats';
import { callSeries, departmentTeamSummary, extensionSummary, vnDays } from '../src/modules/reports/read-model';
import { startPgCluster } from '../test/pg-cluster';
import { generateCdrs } from './gen-cdrs';

export interface ReportFigure {
  name: string;
  p95Ms: number;
  psqlP95Ms: number;
  ratio: number;
  goalMs: number;
}

export interface ExportFigure {
  rows: number;
  bytes: number;
  ms: number;
  rowsPerS: number;
  /** Resident memory of this process: the most it grew above where it started (sampled per chunk and every 20 ms). */
  rssGrowthMb: number;
  customers: number;
}

const RUNS = 20;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];

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

/** p95 of the statement run RUNS times in psql as app_user inside the tenant (server-side time). */
function psqlP95(url: string, tenantId: number, sql: string, params: unknown[]): number {
  const exec = params.length ? `execute q(${params.map(literal).join(', ')});` : 'execute q;';
  const script = [
    'set role app_user;',
    // The API sends unnamed statements, planned with their values each time: plan these the same way.
    'set plan_cache_mode = force_custom_plan;',
    `select set_config('app.tenant_id', '${tenantId}', false);`,
    `prepare q as ${sql};`,
    '\\timing on',
    ...Array.from({ length: RUNS }, () => exec),
  ].join('\n');
  const r = spawnSync('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-o', '/dev/null'], { input: script, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  const times = [...r.stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  return p95(times);
}

async function measure(db: Db, url: string, tenantId: number, name: string, goalMs: number, fn: (tx: Queryable) => Promise<unknown>): Promise<ReportFigure> {
  const log: { sql: string; params: unknown[] }[] = [];
  await db.withTenant(tenantId, (tx) => fn(recorder(tx, log)));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await db.withTenant(tenantId, fn);
    times.push(performance.now() - t0);
  }
  const main = log.filter((l) => !/set_config/.test(l.sql)).at(-1)!;
  const psql = psqlP95(url, tenantId, main.sql, main.params);
  const api = p95(times);
  return { name, p95Ms: api, psqlP95Ms: psql, ratio: api / psql, goalMs };
}

/**
 * The CSV export of every record of the tenant (the whole generated range, no filter) through the
 * API's code (call-history service: filter checks, keyset pages of 500, names, customers by batch,
 * masking, CSV lines), consumed as the HTTP reply would be. One customer per 20 outside numbers so
 * the lookup finds some. Rows/s and the growth of this process's RSS.
 */
async function measureExport(db: Db, tenantId: number, from: Date, to: Date): Promise<ExportFigure> {
  const customers = await db.withSystem(async (tx) => {
    const r = await tx.query<{ n: number }>(
      `with ins as (insert into customers (tenant_id, name, phone, status)
       select $1, 'Khách ' || n, n, 'customer' from (
         select distinct case when direction = 'inbound' then caller else callee end as n
           from cdrs where tenant_id = $1 and direction in ('inbound', 'outbound')) x
       where hashtext(n) % 20 = 0 returning 1) select count(*)::int as n from ins`,
      [tenantId],
    );
    return r.rows[0].n;
  });
  const day = (d: Date) => new Date(d.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);
  const q = v.parse(CallReportQuerySchema, { from: day(from), to: day(new Date(to.getTime() - 1)) });
  const viewer = { tenantId, userId: 0, wholeTenant: true };
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 20);
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  try {
    for await (const chunk of csvFile(CALL_REPORT_EXPORT_HEADERS, await createCallHistoryService(db).exportPages(viewer, q)) as AsyncIterable<string>) {
      bytes += Buffer.byteLength(chunk);
      for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) lines++;
      sample();
    }
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  const rows = lines - 1; // the header line
  return { rows, bytes, ms, rowsPerS: rows / (ms / 1000), rssGrowthMb: (peak - base) / 2 ** 20, customers };
}

/** Generates `rows` records into a throwaway cluster and measures the report reads. */
export async function reportFigures(rows: number, log: (s: string) => void = () => undefined) {
  const cluster = await startPgCluster();
  try {
    const admin = new Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database reports_bench');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/reports_bench';
    const gen = await generateCdrs({ url: url.toString(), rows, end: '2026-11-01', days: 120, log });
    const db = await openDb({ databaseUrl: url.toString() });
    try {
      const main = gen.tenants[0];
      const month = vnDays('2026-10-01', '2026-10-31');
      const month30 = vnDays('2026-10-02', '2026-10-31');
      // A deep page: the cursor of page 50, reached once, then read repeatedly.
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) cursor = (await db.withTenant(main.id, (tx) => listTenantCdrs(tx, { ...month, limit: 10, cursor }))).next;
      const picked = await db.withTenant(main.id, async (tx) => ({
        queueId: (await tx.query<{ id: number }>('select id from pbx_queues order by id limit 1')).rows[0]?.id ?? 0,
        department: (await tx.query<{ extension: string }>(
          'select s.extension from subscribers s join users u on u.id = s.user_id where u.department_id = (select min(id) from departments)',
        )).rows.map((r) => r.extension),
      }));
      const figures = [
        await measure(db, url.toString(), main.id, '31-day page 1', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10 })),
        await measure(db, url.toString(), main.id, '31-day page 51', 100, (tx) => listTenantCdrs(tx, { ...month, limit: 10, cursor })),
        await measure(db, url.toString(), main.id, '30-day department/team', 300, (tx) => departmentTeamSummary(tx, month30)),
        await measure(db, url.toString(), main.id, '30-day per extension', 300, (tx) => extensionSummary(tx, month30)),
        await measure(db, url.toString(), main.id, '30-day calls per day', 300, (tx) => callSeries(tx, { ...month30, bucket: 'day' })),
        await measure(db, url.toString(), main.id, '1-day calls per hour', 300, (tx) => callSeries(tx, { ...vnDays('2026-10-20', '2026-10-20'), bucket: 'hour' })),
        // Filtered as the screens filter (ADR 0031): one queue's answered calls; a department manager's inbound calls.
        await measure(db, url.toString(), main.id, '30-day dept/team queue+res', 300, (tx) => departmentTeamSummary(tx, { ...month30, queueId: picked.queueId, result: 'answered' })),
        await measure(db, url.toString(), main.id, '30-day per ext dept inbnd', 300, (tx) => extensionSummary(tx, { ...month30, extensions: picked.department, direction: 'inbound' })),
        await measure(db, url.toString(), main.id, '30-day per ext missed', 300, (tx) => extensionSummary(tx, { ...month30, result: 'no_answer' })),
      ];
      const exported = await measureExport(db, main.id, gen.from, gen.to);
      return { rows, copyMs: gen.copyMs, rollupMs: gen.rollupMs, mainRows: main.rows, figures, exported };
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}

/** The bench's table lines. */
export function printReportFigures(r: Awaited<ReturnType<typeof reportFigures>>, print: (s: string) => void = console.log): void {
  print(`Reports on PostgreSQL, ${r.rows.toLocaleString('en')} generated records (${r.mainRows.toLocaleString('en')} in one tenant): COPY ${(r.copyMs / 1000).toFixed(1)} s, rollups ${(r.rollupMs / 1000).toFixed(1)} s`);
  for (const f of r.figures) {
    const ok = f.p95Ms <= f.goalMs ? 'ok' : 'OVER';
    print(`  ${f.name.padEnd(26)} p95 ${f.p95Ms.toFixed(1).padStart(7)} ms (goal ≤ ${f.goalMs}, ${ok})  psql p95 ${f.psqlP95Ms.toFixed(1).padStart(7)} ms  ratio ${f.ratio.toFixed(2)}`);
  }
  const e = r.exported;
  const ok = e.rowsPerS >= 50_000 && e.rssGrowthMb < 150 ? 'ok' : 'OVER';
  print(
    `  CSV export, all ${e.rows.toLocaleString('en')} rows (${e.customers.toLocaleString('en')} customers): ${Math.round(e.rowsPerS).toLocaleString('en')} rows/s, ${(e.ms / 1000).toFixed(1)} s, ${(e.bytes / 2 ** 20).toFixed(0)} MB, RSS growth ${e.rssGrowthMb.toFixed(0)} MB (goal ≥ 50,000 rows/s, < 150 MB, ${ok})`,
  );
}

/** Rows of `npm run bench`'s table: [measure, result, goal]. */
export async function reportRows(rows: number): Promise<[string, string, string][]> {
  const r = await reportFigures(rows);
  const at = `${(r.rows / 1e6).toLocaleString('en')}M records, ${(r.mainRows / 1e6).toLocaleString('en')}M in one tenant`;
  return [
    [`Generate ${at} (COPY / rollups)`, `${(r.copyMs / 1000).toFixed(1)} s / ${(r.rollupMs / 1000).toFixed(1)} s`, 'minutes'],
    ...r.figures.map((f): [string, string, string] => [
      `Reports on PostgreSQL: ${f.name} (p95; psql p95, ratio)`,
      `${f.p95Ms.toFixed(1)} ms; ${f.psqlP95Ms.toFixed(1)} ms, ×${f.ratio.toFixed(2)}`,
      `≤ ${f.goalMs} ms`,
    ]),
    [
      `Reports: CSV export of ${r.exported.rows.toLocaleString('en')} rows (rows/s; RSS growth)`,
      `${Math.round(r.exported.rowsPerS).toLocaleString('en')} rows/s; ${r.exported.rssGrowthMb.toFixed(0)} MB`,
      '≥ 50,000 rows/s; < 150 MB',
    ],
  ];
}

if (require.main === module) {
  reportFigures(Number(process.argv[2] ?? 100_000), console.log)
    .then((r) => printReportFigures(r))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
