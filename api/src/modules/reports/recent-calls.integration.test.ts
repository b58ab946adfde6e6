import { displayForm, type RecentCall } from '@tongdai/contracts';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { demoHeaders, DEMO, startTestApp, type TestApp } from '../../../test/helpers';

/**
 * GET /histories-call (the softphone's "Gần đây"): the agent's own calls from the call records on a
 * real PostgreSQL — newest first, from the agent's side, masked, keyset pages, the missed count.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let ids: Record<string, number>;
let customer: { name: string; phone: string };
const base = Date.now() - 3_600_000;

/** A record `minutes` after an hour ago; answered when `talk` > 0. */
function call(tenantId: number, id: string, o: Partial<CdrRow> & { minute: number; talk: number }): CdrRow {
  const started = new Date(base + o.minute * 60_000);
  const answered = o.talk > 0 ? new Date(started.getTime() + 2000) : null;
  const ended = new Date((answered ?? started).getTime() + Math.max(o.talk, 8) * 1000);
  const { minute: _m, talk, ...rest } = o;
  return {
    tenant_id: tenantId, call_id: `recent-${id}`, caller: '101', callee: '102', did: null, direction: 'internal', route: [], ring_group_id: null, queue_id: null,
    extension: talk > 0 ? '102' : null, trunk: null, started_at: started, answered_at: answered, ended_at: ended,
    duration: Math.round((ended.getTime() - started.getTime()) / 1000), billsec: talk, disposition: talk > 0 ? 'ANSWERED' : 'NO ANSWER',
    sip_code: talk > 0 ? 200 : 487, reason: '', ...rest,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  ids = Object.fromEntries((await t.db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'))).rows.map((r) => [r.ma_dn, r.id]));
  const demo = ids[DEMO.tenants.demo];
  customer = (await t.db.withSystem((tx) => tx.query<{ name: string; phone: string }>('select name, phone from customers where tenant_id = $1 order by id limit 1', [demo]))).rows[0];
  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  writer.add(call(demo, 'a', { minute: 1, talk: 75 })); // 101 → 102, answered
  writer.add(call(demo, 'b', { minute: 2, caller: '102', callee: '101', talk: 0 })); // 102 → 101, 101 missed it
  writer.add(call(demo, 'c', { minute: 3, direction: 'outbound', callee: customer.phone, trunk: 'fpt', extension: '101', talk: 30 }));
  writer.add(call(demo, 'd', { minute: 4, direction: 'inbound', caller: '0987654321', callee: '842873000001', did: '842873000001', extension: '101', talk: 12 }));
  writer.add(call(demo, 'e', { minute: 5, caller: '102', callee: '103', talk: 0 })); // not 101's call
  writer.add(call(demo, 'old', { minute: -60 * 24 * 40, talk: 10 })); // older than the recent window
  writer.add(call(ids[DEMO.tenants.abc], 'f', { minute: 6, callee: '0911111111', direction: 'outbound', talk: 9 })); // another tenant's 101
  await writer.flush();
});
afterAll(() => t?.close());

const get = (url: string, headers = h.admin) => t.app.inject({ url, headers });
const mine = (rows: RecentCall[]) => rows.filter((r) => Date.parse(r.started_at) >= base);

describe('GET /t/:ma_dn/histories-call', () => {
  it("lists the agent's own calls from the records, newest first, from the agent's side", async () => {
    const res = await get('/t/demo/histories-call');
    expect(res.statusCode).toBe(200);
    expect(mine(res.json().data)).toEqual([
      { id: expect.any(Number), started_at: expect.any(String), direction: 'incoming', number: '0987654321', dial: '0987654321', name: null, result: 'answered', missed: false, billsec: 12 },
      { id: expect.any(Number), started_at: expect.any(String), direction: 'outgoing', number: displayForm(customer.phone), dial: displayForm(customer.phone), name: customer.name, result: 'answered', missed: false, billsec: 30 },
      { id: expect.any(Number), started_at: expect.any(String), direction: 'incoming', number: '102', dial: '102', name: expect.any(String), result: 'no_answer', missed: true, billsec: 0 },
      { id: expect.any(Number), started_at: expect.any(String), direction: 'outgoing', number: '102', dial: '102', name: expect.any(String), result: 'answered', missed: false, billsec: 75 },
    ]);
    // 102 sees the same internal calls from the other side, and its own call to 103.
    const staff = mine((await get('/t/demo/histories-call', h.staff)).json().data);
    expect(staff.map((r) => [r.direction, r.number, r.missed])).toEqual([
      ['outgoing', '103', false], ['outgoing', '101', false], ['incoming', '101', false],
    ]);
    // Another tenant's 101 sees only its own.
    expect(mine((await get('/t/abc/histories-call', h.abcAdmin)).json().data).map((r) => r.number)).toEqual(['0911111111']);
  });

  it('pages by cursor, 10 by default, and counts missed calls since a given instant', async () => {
    const one = (await get('/t/demo/histories-call?per_page=1')).json();
    expect(one.data).toHaveLength(1);
    const two = (await get(`/t/demo/histories-call?per_page=1&cursor=${one.next}`)).json();
    expect(two.data[0].started_at < one.data[0].started_at).toBe(true);
    expect((await get(`/t/demo/histories-call?per_page=1&missed_since=${new Date(base).toISOString()}`)).json().missed).toBe(1);
    expect((await get(`/t/demo/histories-call?missed_since=${new Date(base + 150_000).toISOString()}`)).json().missed).toBe(0);
    const bad = await get('/t/demo/histories-call?missed_since=hôm-qua');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("masks outside numbers as the tenant's setting says, and still redials them", async () => {
    await t.db.withSystem((tx) => tx.query('update system_settings set hidden_phone_customer = 1, position_hidden_phone_customer = 0 where tenant_id = $1', [ids.demo]));
    try {
      const [inbound] = mine((await get('/t/demo/histories-call')).json().data);
      expect([inbound.number, inbound.dial]).toEqual(['098***4321', '0987654321']);
    } finally {
      await t.db.withSystem((tx) => tx.query('update system_settings set hidden_phone_customer = 0 where tenant_id = $1', [ids.demo]));
    }
  });

  it('tells when a call is recorded: CdrWriter.written() resolves at its batch, and the call is then listed', async () => {
    const writer = new CdrWriter(t.db, { intervalMs: 20, onError: (err) => { throw err; } });
    writer.add(call(ids[DEMO.tenants.demo], 'late', { minute: 50, callee: '0977000111', direction: 'outbound', talk: 3 }));
    await writer.written();
    expect((await get('/t/demo/histories-call')).json().data[0].dial).toBe('0977000111');
  });

  it('needs a session', async () => {
    expect((await get('/t/demo/histories-call', {})).statusCode).toBe(401);
  });
});
