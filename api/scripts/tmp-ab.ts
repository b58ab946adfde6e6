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
    await su.query(`create table cdr_daily_noq as select tenant_id, day, extension, direction, leg, sum(calls)::int calls, sum(answered)::int answered, sum(no_answer)::int no_answer, sum(busy)::int busy, sum(failed)::int failed, sum(blocked)::int blocked, sum(billsec)::bigint billsec, sum(duration)::bigint duration, sum(wait_sec)::bigint wait_sec, sum(no_answer_wait_sec)::bigint no_answer_wait_sec, sum(busy_wait_sec)::bigint busy_wait_sec, sum(failed_wait_sec)::bigint failed_wait_sec, sum(blocked_wait_sec)::bigint blocked_wait_sec from cdr_daily group by 1,2,3,4,5`);
    await su.query('alter table cdr_daily_noq add primary key (tenant_id, day, extension, direction, leg); analyze cdr_daily_noq; analyze cdr_daily');
    const counts = await su.query(`select (select count(*) from cdr_daily)::int q, (select count(*) from cdr_daily_noq)::int noq, (select count(*) from cdr_hourly)::int h`);
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
      for (const table of ['cdr_daily', 'cdr_daily_noq']) {
        const s = sql.replace(/cdr_daily\b/g, table);
        const times: number[] = [];
        for (let i = 0; i < 20; i++) { const t0 = performance.now(); await su.query(s, params); times.push(performance.now() - t0); }
        times.sort((a, b) => a - b);
        console.log(name, table, 'p50', times[10].toFixed(1), 'p95', times[18].toFixed(1));
      }
    }
    await su.end();
    await db.close();
  } finally {
    await cluster.stop();
  }
}
main();
