// Temporary A/B (not committed): cdr_daily with queue_id vs the same rows summed without it.
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import type { Queryable } from '../src/db/db';
import { openDb } from '../src/db/open';
import { departmentTeamSummary, extensionSummary, callSeries, vnDays } from '../src/modules/reports/read-model';
import { startPgCluster } from '../test/pg-cluster';
import { generateCdrs } from './gen-cdrs';

async function main() {
  const cluster = await startPgCluster();
  try {
    const admin = new Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database ab');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/ab';
    const gen = await generateCdrs({ url: url.toString(), rows: Number(process.argv[2] ?? 1_000_000), end: '2026-11-01', days: 120, log: console.log });
    const su = new Client({ connectionString: url.toString() });
    await su.connect();
    await su.query(`create table cdr_daily_noq as select tenant_id, day, extension, direction, leg, calls, answered, no_answer, busy, failed, blocked, billsec, duration, wait_sec from cdr_daily`);
    await su.query('alter table cdr_daily_noq add primary key (tenant_id, day, extension, direction, leg); analyze cdr_daily_noq; analyze cdr_daily');
    const counts = await su.query(`select (select count(*) from cdr_daily)::int q, (select count(*) from cdr_daily_noq)::int noq, (select count(*) from cdr_daily_queue)::int dq, (select count(*) from cdr_hourly)::int h`);
    console.log('rows', counts.rows[0]);
    const db = await openDb({ databaseUrl: url.toString() });
    const tid = gen.tenants[0].id;
    const month30 = vnDays('2026-10-02', '2026-10-31');
    const logs: Record<string, { sql: string; params: unknown[] }> = {};
    const rec = (name: string, fn: (tx: Queryable) => Promise<unknown>) => db.withTenant(tid, (tx) => fn({ query: (sql, params) => { logs[name] = { sql, params: params ?? [] }; return tx.query(sql, params); } } as Queryable));
    await rec('dept', (tx) => departmentTeamSummary(tx, month30));
    await rec('ext', (tx) => extensionSummary(tx, month30));
    await rec('series', (tx) => callSeries(tx, { ...month30, bucket: 'day' }));
    await su.query(`select set_config('app.tenant_id', '${tid}', false)`);
    for (const [name, { sql, params }] of Object.entries(logs)) {
      const times: Record<string, number[]> = { cdr_daily: [], cdr_daily_noq: [] };
      for (let i = 0; i < 40; i++) {
        for (const table of i % 2 ? ['cdr_daily', 'cdr_daily_noq'] : ['cdr_daily_noq', 'cdr_daily']) {
          const t0 = performance.now(); await su.query(sql.replace(/cdr_daily\b/g, table), params); times[table].push(performance.now() - t0);
        }
      }
      for (const [table, xs] of Object.entries(times)) { xs.sort((a, b) => a - b); console.log(name, table, 'p50', xs[20].toFixed(1), 'p95', xs[37].toFixed(1)); }
    }
    await su.end();
    await db.close();
  } finally {
    await cluster.stop();
  }
}
main();
