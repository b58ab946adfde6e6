import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../test/helpers';
import { seedReportCalls } from './reports.fixture';

/**
 * Migrations 0025 and 0027 backfill what they add to rollups written before them (per-result waits,
 * cdr_daily_queue; answered within the SLA): run over rollups the CDR writer filled, its backfill gives back exactly what the
 * writer wrote (cdr-rollup.ts), so old and new days read the same.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedReportCalls(t);
});
afterAll(() => t?.close());

const snapshot = () =>
  t.db.withSystem(async (tx) => ({
    hourly: (await tx.query('select * from cdr_hourly order by tenant_id, hour, extension, queue_id, direction, leg')).rows,
    daily: (await tx.query('select * from cdr_daily order by tenant_id, day, extension, direction, leg')).rows,
    queued: (await tx.query('select * from cdr_daily_queue order by tenant_id, day, queue_id, extension, direction, leg')).rows,
  }));

it("0025's backfill rebuilds the per-result waits and the per-queue days as the writer wrote them", async () => {
  const written = await snapshot();
  expect(written.queued.some((r) => Number(r.queue_id) > 0 && Number(r.wait_sec) > 0)).toBe(true);
  expect(written.queued.some((r) => Number(r.busy_wait_sec) > 0)).toBe(true);
  expect(written.hourly.some((r) => Number(r.no_answer_wait_sec) > 0) && written.hourly.some((r) => Number(r.busy_wait_sec) > 0)).toBe(true);
  expect(written.daily.some((r) => Number(r.answered_sla) > 0)).toBe(true);
  // The backfills in the order migrations run them: 0025's, then 0027's answered-within-SLA counts.
  const backfillOf = (file: string) => {
    const sql = readFileSync(join(__dirname, '../../db/migrations', file), 'utf8');
    return sql.slice(sql.indexOf('set local role app_system;')).split(/;\s*\n/).map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean);
  };
  await t.db.withSystem(async (tx) => {
    await tx.query('update cdr_hourly set no_answer_wait_sec = 0, busy_wait_sec = 0, failed_wait_sec = 0, blocked_wait_sec = 0, answered_sla = 0');
    await tx.query('update cdr_daily set answered_sla = 0');
    await tx.query('delete from cdr_daily_queue');
    for (const statement of [...backfillOf('0025_rollup_queue_result_wait.sql'), ...backfillOf('0027_monitor_thresholds.sql')]) await tx.query(statement);
  });
  expect(await snapshot()).toEqual(written);
});
