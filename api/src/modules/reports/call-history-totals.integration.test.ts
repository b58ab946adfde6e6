import * as v from 'valibot';
import { CallReportQuerySchema, type CallReportRow, type Paged } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { generateCdrs, type GenResult } from '../../../scripts/gen-cdrs';
import { freshDatabase } from '../../../test/helpers';
import { createCallHistoryService } from './call-history.service';

/**
 * The screen's numbered page takes its total from the read model when the rollups hold the filter
 * (direction, result, queue over whole days; ADR 0029): it is the number of records the filter
 * matches, as counting them gives, and the rows are the records' first page.
 */
let db: Db;
let drop: () => Promise<void>;
let gen: GenResult;
const viewer = () => ({ tenantId: gen.tenants[0].id, userId: 0, wholeTenant: true });

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  gen = await generateCdrs({ url: fresh.url, rows: 4000, seed: 17, days: 3, end: '2026-11-02' });
  db = await openDb({ databaseUrl: fresh.url });
}, 180_000);
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** The records a filter matches, counted (2026-10-30..31, Vietnam days). */
async function counted(where: string, params: unknown[]): Promise<number> {
  const sql = `select count(*)::int as n from cdrs where started_at >= '2026-10-29T17:00Z' and started_at < '2026-10-31T17:00Z' ${where}`;
  return db.withTenant(viewer().tenantId, async (tx) => (await tx.query<{ n: number }>(sql, params)).rows[0].n);
}

describe('call-history totals from the read model (PostgreSQL)', () => {
  it.each<[Record<string, string>, string, boolean]>([
    [{}, '', false],
    [{ direction: 'inbound' }, `and direction = 'inbound'`, false],
    [{ result: 'no_answer' }, `and disposition = 'NO ANSWER'`, false],
    [{ direction: 'outbound', result: 'busy' }, `and direction = 'outbound' and disposition = 'BUSY'`, false],
    [{ direction: 'internal' }, `and direction = 'internal' and disposition = 'ANSWERED'`, true],
    [{ queue_id: 'QUEUE' }, 'and queue_id = $1', false],
    [{ queue_id: 'QUEUE', result: 'answered' }, `and queue_id = $1 and disposition = 'ANSWERED'`, false],
  ])('%j counts as the records %s (answered only: %s)', async (given, where, answeredOnly) => {
    const queue = await db.withTenant(viewer().tenantId, async (tx) =>
      (await tx.query<{ q: number }>('select queue_id as q from cdrs where queue_id is not null group by 1 order by count(*) desc limit 1')).rows[0].q);
    const q = given.queue_id ? { ...given, queue_id: String(queue) } : given;
    const page = (await createCallHistoryService(db).list(viewer(), v.parse(CallReportQuerySchema, { from: '2026-10-30', to: '2026-10-31', ...q }), answeredOnly)) as Paged<CallReportRow>;
    const want = await counted(where, where.includes('$1') ? [queue] : []);
    expect(want).toBeGreaterThan(0);
    expect(page.meta.total).toBe(want);
    expect(page.data).toHaveLength(Math.min(want, page.meta.per_page));
  }, 60_000);
});
