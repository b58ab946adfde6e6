import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { seed } from '../../db/seed';
import { freshDatabase } from '../../../test/helpers';
import type { CdrRow } from './cdr';
import { CdrWriter } from './cdr.repository';
import { listTenantCdrs, type CdrRecord } from './cdr-read.repository';

const T0 = Date.parse('2026-03-02T01:00:00Z');
const minute = (n: number) => new Date(T0 + n * 60_000);

function record(tenantId: number, n: number, callId = `call-${tenantId}-${n}`): CdrRow {
  return {
    tenant_id: tenantId, call_id: callId, caller: `09020000${String(n).padStart(2, '0')}`, callee: '02873000001', did: '02873000001',
    direction: 'inbound', route: [], ring_group_id: null, queue_id: null, extension: '101', trunk: null,
    started_at: minute(n), answered_at: minute(n), ended_at: new Date(minute(n).getTime() + 30_000),
    duration: 30, billsec: 30, disposition: 'ANSWERED', sip_code: 200, reason: '',
  };
}

/** The tenant CDR read model reports use: time range, newest first, keyset pages, RLS. */
describe('listTenantCdrs (PostgreSQL)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let demo: number;
  let abc: number;
  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    db = await openDb({ databaseUrl: fresh.url });
    await seed(db);
    const { rows } = await db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'));
    const ids = Object.fromEntries(rows.map((r) => [r.ma_dn, r.id]));
    [demo, abc] = [ids.demo, ids.abc];
    const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
    // demo: calls at minutes 0..9, two of them at the same instant (minute 5); abc: minutes 0..4.
    for (let n = 0; n < 10; n++) writer.add(record(demo, n));
    writer.add(record(demo, 5, 'call-demo-5-twin'));
    for (let n = 0; n < 5; n++) writer.add(record(abc, n));
    await writer.flush();
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  const all = async (tenantId: number, from: Date, to: Date, limit: number) => {
    const pages: CdrRecord[][] = [];
    let cursor: string | null = null;
    do {
      const page = await db.withTenant(tenantId, (tx) => listTenantCdrs(tx, { from, to, limit, cursor }));
      pages.push(page.rows);
      cursor = page.next;
    } while (cursor);
    return pages;
  };

  it('pages a time range newest first, each record once, ties on started_at split by id', async () => {
    const pages = await all(demo, minute(2), minute(8), 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    const rows = pages.flat();
    // [from, to): minute 8 is out, minute 2 is in; minute 5 has two calls.
    expect(rows.map((r) => r.started_at)).toEqual([7, 6, 5, 5, 4, 3, 2].map((n) => minute(n).toISOString()));
    expect(new Set(rows.map((r) => r.id)).size).toBe(7);
    expect(rows[0]).toMatchObject({ tenant_id: demo, call_id: `call-${demo}-7`, disposition: 'ANSWERED', billsec: 30, ended_at: '2026-03-02T01:07:30.000Z' });
  });

  it('shows a tenant only its own records, and nothing without a tenant (RLS)', async () => {
    const abcRows = (await all(abc, minute(0), minute(60), 100)).flat();
    expect(abcRows.map((r) => r.tenant_id)).toEqual([abc, abc, abc, abc, abc]);
    const none = await db.query<{ n: number }>('select count(*)::int as n from cdrs');
    expect(none.rows[0].n).toBe(0);
  });

  it('reads a cursor that does not decode as the first page', async () => {
    const page = await db.withTenant(demo, (tx) => listTenantCdrs(tx, { from: minute(0), to: minute(60), limit: 3, cursor: 'not-a-cursor' }));
    expect(page.rows.map((r) => r.started_at)).toEqual([9, 8, 7].map((n) => minute(n).toISOString()));
    expect(page.next).not.toBeNull();
  });
});
