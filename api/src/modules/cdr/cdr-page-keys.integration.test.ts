import type { Db, Queryable } from '../../db/db';
import { openDb } from '../../db/open';
import { generateCdrs, type GenResult } from '../../../scripts/gen-cdrs';
import { freshDatabase } from '../../../test/helpers';
import type { CdrRow } from './cdr';
import { CdrWriter } from './cdr.repository';
import { conditions, listTenantCdrLines, listTenantCdrs, pageTenantCdrs, type CdrFilter, type LineKey } from './cdr-read.repository';
import { openPgliteFromImage } from '../../../test/pglite-image';

/**
 * Filtered pages read by exact index ranges (cdr-page-keys.ts, migration 0030) hold exactly the
 * rows, in exactly the order, of the plain statement (every condition, newest first), for every
 * kind of filter the screens send: keyset pages, numbered pages and export lines alike.
 */
let db: Db;
let drop: () => Promise<void>;
let gen: GenResult;
const tenant = () => gen.tenants[0].id;
const from = new Date('2026-10-30T17:00:00Z');
const to = new Date('2026-11-01T17:00:00Z');

/** Calls the generator may not make: an outbound call whose extension is not its caller, internal calls answered by another. */
function odd(n: number, over: Partial<CdrRow>): CdrRow {
  const at = new Date(Date.parse('2026-10-31T03:00:00Z') + n * 1000);
  return {
    tenant_id: tenant(), call_id: `odd-${n}`, caller: '1007', callee: '0912000001', did: null, direction: 'outbound', route: [], ring_group_id: null,
    queue_id: null, extension: '1008', trunk: null, started_at: at, answered_at: at, ended_at: new Date(at.getTime() + 20_000),
    duration: 20, billsec: 20, disposition: 'ANSWERED', sip_code: 200, reason: '', ...over,
  };
}

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  gen = await generateCdrs({ url: fresh.url, rows: 4000, seed: 13, days: 2, end: '2026-11-02' });
  db = await openDb({ databaseUrl: fresh.url });
  const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
  writer.add(odd(1, {}));
  writer.add(odd(2, { direction: 'internal', callee: '1009', extension: '1010', disposition: 'NO ANSWER', answered_at: null, billsec: 0 }));
  writer.add(odd(3, { direction: 'internal', callee: '1007', caller: '1011', extension: null, disposition: 'BUSY', answered_at: null, billsec: 0 }));
  writer.add(odd(4, { direction: 'inbound', caller: '0912000002', callee: '02873000001', extension: null, disposition: 'NO ANSWER', answered_at: null, billsec: 0 }));
  await writer.flush();
}, 180_000);
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** Stands for the tenant's busiest queue in a filter (its id is known once the records are written). */
const QUEUE = -1;
/** Stands for a number only another tenant's calls have (a search must not find it through the trigram keys). */
const OTHERS = 'others';
const othersOnly = () =>
  db.withSystem(async (tx) => (await tx.query<{ n: string }>(
    `select caller as n from cdrs where tenant_id = $1 and direction = 'inbound'
        and caller not in (select caller from cdrs where tenant_id = $2) order by id limit 1`, [gen.tenants[1].id, tenant()])).rows[0].n);
const busiestQueue = () =>
  db.withTenant(tenant(), async (tx) => (await tx.query<{ q: number }>('select queue_id as q from cdrs where queue_id is not null group by 1 order by count(*) desc limit 1')).rows[0].q);

/** The ids the plain statement gives: every condition, newest first. */
async function expected(f: CdrFilter): Promise<number[]> {
  return db.withTenant(tenant(), async (tx: Queryable) => {
    const params: unknown[] = [];
    const where = conditions({ from, to, ...f }, params);
    return (await tx.query<{ id: number }>(`select id::int as id from cdrs where ${where} order by started_at desc, id desc`, params)).rows.map((r) => r.id);
  });
}

async function keysetIds(f: CdrFilter, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await db.withTenant(tenant(), (tx) => listTenantCdrs(tx, { from, to, ...f, limit, cursor }));
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.next;
  } while (cursor);
  return ids;
}

async function numberedIds(f: CdrFilter, limit: number): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await db.withTenant(tenant(), (tx) => pageTenantCdrs(tx, { from, to, ...f, limit }, page));
    total = res.total;
    ids.push(...res.rows.map((r) => r.id));
    if (res.rows.length < limit) return { ids, total };
  }
}

async function lineIds(f: CdrFilter, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let after: LineKey | null = null;
  do {
    const page: { rows: { id: number }[]; next: LineKey | null } = await db.withTenant(tenant(), (tx) => listTenantCdrLines(tx, { from, to, ...f, limit }, after));
    ids.push(...page.rows.map((r) => r.id));
    after = page.next;
  } while (after);
  return ids;
}

describe('filtered call-history pages by index ranges (PostgreSQL)', () => {
  it.each<[string, CdrFilter, 'some' | 'none']>([
    ['one extension', { extensions: ['1007'] }, 'some'],
    ['an outbound call answered by another extension, by either', { extensions: ['1008'], direction: 'outbound' }, 'some'],
    ['internal calls by the callee', { extensions: ['1009'], direction: 'internal', disposition: 'NO ANSWER' }, 'some'],
    ["three extensions' missed inbound calls (none)", { extensions: ['1001', '1002', '1003'], direction: 'inbound', disposition: 'NO ANSWER' }, 'none'],
    ['a department with a result', { extensions: ['1001', '1002', '1003', '1004', '1005', '1007'], disposition: 'ANSWERED' }, 'some'],
    ['an agent (scope) filtering another extension', { scope: ['1007'], extensions: ['1008', '1011'] }, 'some'],
    ['a queue', { queueId: QUEUE }, 'some'],
    ['a queue, outbound (none)', { queueId: QUEUE, direction: 'outbound' }, 'none'],
    ['a direction', { direction: 'internal' }, 'some'],
    ['a result', { disposition: 'BLOCKED' }, 'some'],
    ['a direction and result', { direction: 'inbound', disposition: 'BUSY' }, 'some'],
    ['a number and an extension', { extensions: ['1007'], number: '09' }, 'some'],
    // Four digits or more: the trigram index's keys (migration 0035).
    ['a whole number', { number: '0912000002' }, 'some'],
    ['part of numbers', { number: '2000' }, 'some'],
    ['a number nobody called (none)', { number: '0999888777' }, 'none'],
    ['a number with a direction and a result', { number: '0912000', direction: 'inbound', disposition: 'NO ANSWER' }, 'some'],
    ['a number and an extension (long)', { extensions: ['1007'], number: '0912000001' }, 'some'],
    ["another tenant's number (none)", { number: OTHERS }, 'none'],
    ['an empty extension list', { extensions: [] }, 'none'],
  ])('%s', async (_name, given, matches) => {
    const f = given.queueId === QUEUE ? { ...given, queueId: await busiestQueue() } : given.number === OTHERS ? { ...given, number: await othersOnly() } : given;
    const want = await expected(f);
    expect(want.length > 0).toBe(matches === 'some');
    expect(await keysetIds(f, 7)).toEqual(want);
    expect(await lineIds(f, 50)).toEqual(want);
    const numbered = await numberedIds(f, 9);
    expect(numbered).toEqual({ ids: want, total: want.length });
  }, 60_000);
});

describe('number search by the trigram keys on embedded PGlite', () => {
  it('finds a call by its number, and nothing for a number nobody called', async () => {
    const lite = await openPgliteFromImage('migrated');
    try {
      const t = await lite.withSystem(async (tx) => (await tx.query<{ id: number }>(`insert into tenants (ma_dn, name) values ('lite13', 'Lite') returning id`)).rows[0].id);
      const writer = new CdrWriter(lite, { onError: (err) => { throw err; } });
      const at = new Date('2026-10-31T03:00:00Z');
      for (const [i, caller] of ['0912345678', '0987000111', '0912349999'].entries()) {
        writer.add({ ...odd(i, {}), tenant_id: t, call_id: `lite-${i}`, direction: 'inbound', caller, callee: '02873000001', extension: '1001', started_at: new Date(at.getTime() + i * 1000) });
      }
      await writer.flush();
      const ids = async (number: string) => {
        const page = await lite.withTenant(t, (tx) => listTenantCdrs(tx, { from, to, number, limit: 10 }));
        const numbered = await lite.withTenant(t, (tx) => pageTenantCdrs(tx, { from, to, number, limit: 10 }, 1));
        expect(numbered.total).toBe(page.rows.length);
        return page.rows.map((r) => r.caller);
      };
      expect(await ids('12345')).toEqual(['0912345678']);
      expect(await ids('091234')).toEqual(['0912349999', '0912345678']);
      expect(await ids('0999888777')).toEqual([]);
    } finally {
      await lite.close();
    }
  }, 120_000);
});
