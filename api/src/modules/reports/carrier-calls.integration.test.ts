import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { demoHeaders, DEMO, startTestApp, type TestApp } from '../../../test/helpers';

/** The carrier view (issue 13, /reports/fpt/call-history) on a real PostgreSQL with records written by CdrWriter. */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;

/** One record of 2026-04-15 (Vietnam time), `talk` seconds answered or not answered at all. */
function call(tenantId: number, id: string, o: Partial<CdrRow> & { minute: number; talk: number }): CdrRow {
  const started = new Date(`2026-04-15T10:${String(o.minute).padStart(2, '0')}:00+07:00`);
  const answered = o.talk > 0 ? new Date(started.getTime() + 3000) : null;
  const ended = new Date((answered ?? started).getTime() + Math.max(o.talk, 10) * 1000);
  const { minute: _m, talk, ...rest } = o;
  return {
    tenant_id: tenantId, call_id: id, caller: '101', callee: '102', did: null, direction: 'inbound', route: [], ring_group_id: null, queue_id: null,
    extension: talk > 0 ? '101' : null, trunk: null, started_at: started, answered_at: answered, ended_at: ended,
    duration: Math.round((ended.getTime() - started.getTime()) / 1000), billsec: talk, disposition: talk > 0 ? 'ANSWERED' : 'NO ANSWER',
    sip_code: talk > 0 ? 200 : 487, reason: '', ...rest,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  const tenants = Object.fromEntries(
    (await t.db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'))).rows.map((r) => [r.ma_dn, r.id]),
  );
  const demo = tenants[DEMO.tenants.demo];
  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  const hotline = '842873000001';
  writer.add(call(demo, 'k1', { minute: 1, caller: '0987654321', callee: '101', did: hotline, talk: 61 })); // Viettel: 6 + 55 × 1 s
  writer.add(call(demo, 'k2', { minute: 2, caller: '84912345678', callee: '101', did: hotline, talk: 5 })); // Vinaphone: first block 6 s
  writer.add(call(demo, 'k3', { minute: 3, caller: '0912345679', callee: '101', did: hotline, talk: 0 })); // not answered: nothing billed
  writer.add(call(demo, 'k4', { minute: 4, direction: 'outbound', caller: '101', callee: '02438251234', trunk: 'fpt', talk: 61 })); // landline: 2 whole minutes
  writer.add(call(demo, 'k5', { minute: 5, direction: 'outbound', caller: '101', callee: '19001234', trunk: 'fpt', talk: 30 })); // service: 1 minute
  writer.add(call(demo, 'k6', { minute: 6, direction: 'internal', caller: '101', callee: '102', talk: 20 })); // internal: not through a hotline
  writer.add(call(tenants[DEMO.tenants.abc], 'k7', { minute: 7, caller: '0987654321', callee: '101', did: hotline, talk: 100 })); // another tenant
  await writer.flush();
});
afterAll(() => t?.close());

describe('GET /t/:ma_dn/reports/carrier-calls', () => {
  it('groups calls through a hotline or trunk by hotline, carrier and destination type, billed by the carrier rule', async () => {
    const res = await t.app.inject({ url: '/t/demo/reports/carrier-calls?from=2026-04-15&to=2026-04-15', headers: h.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { hotline: '02873000001', direction: 'inbound', carrier: 'viettel', destination: 'mobile', calls: 1, answered: 1, billsec: 61, billed_seconds: 61 },
      { hotline: '02873000001', direction: 'inbound', carrier: 'vinaphone', destination: 'mobile', calls: 2, answered: 1, billsec: 5, billed_seconds: 6 },
      { hotline: 'fpt', direction: 'outbound', carrier: 'other', destination: 'landline', calls: 1, answered: 1, billsec: 61, billed_seconds: 120 },
      { hotline: 'fpt', direction: 'outbound', carrier: 'other', destination: 'service', calls: 1, answered: 1, billsec: 30, billed_seconds: 60 },
    ]);
    const outbound = await t.app.inject({ url: '/t/demo/reports/carrier-calls?from=2026-04-15&to=2026-04-15&direction=outbound', headers: h.admin });
    expect(outbound.json().data.map((r: { destination: string }) => r.destination)).toEqual(['landline', 'service']);
    // Another tenant sees only its own call; a bad range is a 400, not a 500.
    const abc = await t.app.inject({ url: '/t/abc/reports/carrier-calls?from=2026-04-15&to=2026-04-15', headers: h.abcAdmin });
    expect(abc.json().data).toEqual([{ hotline: '02873000001', direction: 'inbound', carrier: 'viettel', destination: 'mobile', calls: 1, answered: 1, billsec: 100, billed_seconds: 100 }]);
    const bad = await t.app.inject({ url: '/t/demo/reports/carrier-calls?from=2026-04-15&to=2026-04-01', headers: h.admin });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
