import * as v from 'valibot';
import { CallReportQuerySchema, type CallReportRow, type Paged } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { generateCdrs, type GenResult } from '../../../scripts/gen-cdrs';
import { freshDatabase } from '../../../test/helpers';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { createCallHistoryService } from './call-history.service';

/**
 * The screen's numbered page takes its total from the read model when the rollups hold the filter
 * (direction, result, queue over whole days; ADR 0029): it is the number of records the filter
 * matches, as counting them gives, and the rows are the records' first page. One extension's
 * total is the rollups' plus the few records whose legs differ from the filter (written below).
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
  // Records whose rollup legs differ from what an extension filter matches, written as calls end
  // (the writer keeps the rollups): an outbound call placed by 1107 but recorded with 1108, an
  // internal call to 1109 answered by 1110, an internal call 1112 placed to itself.
  const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
  const at = Date.parse('2026-10-30T03:00:00Z');
  const odd = (n: number, over: Partial<CdrRow>): CdrRow => ({
    tenant_id: gen.tenants[0].id, call_id: `odd-${n}`, caller: '1107', callee: '0912000001', did: null, direction: 'outbound', route: [], ring_group_id: null,
    queue_id: null, extension: '1108', trunk: null, started_at: new Date(at + n * 1000), answered_at: new Date(at + n * 1000), ended_at: new Date(at + n * 1000 + 20_000),
    duration: 20, billsec: 20, disposition: 'ANSWERED', sip_code: 200, reason: '', ...over,
  });
  writer.add(odd(1, {}));
  writer.add(odd(2, { direction: 'internal', caller: '1111', callee: '1109', extension: '1110' }));
  writer.add(odd(3, { direction: 'internal', caller: '1112', callee: '1112', extension: '1112' }));
  await writer.flush();
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

/** What an extension filter matches in a record (cdr conditions()). */
const ext = (e: string) => `and (extension = '${e}' or (direction <> 'inbound' and caller = '${e}') or (direction = 'internal' and callee = '${e}'))`;

describe('call-history totals from the read model (PostgreSQL)', () => {
  it.each<[Record<string, string>, string, boolean]>([
    [{}, '', false],
    [{ direction: 'inbound' }, `and direction = 'inbound'`, false],
    [{ result: 'no_answer' }, `and disposition = 'NO ANSWER'`, false],
    [{ direction: 'outbound', result: 'busy' }, `and direction = 'outbound' and disposition = 'BUSY'`, false],
    [{ direction: 'internal' }, `and direction = 'internal' and disposition = 'ANSWERED'`, true],
    [{ queue_id: 'QUEUE' }, 'and queue_id = $1', false],
    [{ queue_id: 'QUEUE', result: 'answered' }, `and queue_id = $1 and disposition = 'ANSWERED'`, false],
    // One extension: the rollups' legs, and the records whose legs differ.
    [{ extension: '1007' }, ext('1007'), false],
    [{ extension: '1007', direction: 'internal' }, `${ext('1007')} and direction = 'internal'`, false],
    [{ extension: '1007', direction: 'outbound' }, `${ext('1007')} and direction = 'outbound'`, false],
    [{ extension: '1107', direction: 'outbound' }, `${ext('1107')} and direction = 'outbound'`, false],
    [{ extension: '1108' }, ext('1108'), false],
    [{ extension: '1109' }, ext('1109'), false],
    [{ extension: '1110' }, ext('1110'), false],
    [{ extension: '1112' }, ext('1112'), false],
    [{ extension: '1112' }, `${ext('1112')} and disposition = 'ANSWERED'`, true],
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
