import { REPORT_MSG, type CallReportOptions, type CallReportRow } from '@tongdai/contracts';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { demoHeaders, DEMO, startTestApp, type TestApp } from '../../../test/helpers';

/**
 * Calls through each hotline (issue 15, /etelecom/call-history): the call history's `hotline`
 * filter on a real PostgreSQL with records written by CdrWriter, and the tenant's hotlines as
 * filter choices. A hotline is a number of the tenant bound to a carrier switchboard.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
const DAY = '2026-05-12';
const A = '02873005001';
const B = '19005002';
const ABC_LINE = '02873005009';

function call(tenantId: number, id: string, minute: number, o: Partial<CdrRow>): CdrRow {
  const started = new Date(`${DAY}T09:${String(minute).padStart(2, '0')}:00+07:00`);
  const answered = new Date(started.getTime() + 4000);
  const ended = new Date(answered.getTime() + 30_000);
  return {
    tenant_id: tenantId, call_id: id, caller: '0987000001', callee: '101', did: null, direction: 'inbound', route: [], ring_group_id: null, queue_id: null,
    extension: '101', trunk: null, started_at: started, answered_at: answered, ended_at: ended, duration: 34, billsec: 30, disposition: 'ANSWERED',
    sip_code: 200, reason: '', ...o,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
  const [{ demo, abc }] = await sys<{ demo: number; abc: number }>(
    'select (select id from tenants where ma_dn = $1) as demo, (select id from tenants where ma_dn = $2) as abc', [DEMO.tenants.demo, DEMO.tenants.abc]);
  const switchboard = async (tenantId: number, name: string, carrier: string) =>
    (await sys<{ id: number }>('insert into telecom_switchboards (tenant_id, name, carrier, host) values ($1, $2, $3, $4) returning id', [tenantId, name, carrier, '127.0.0.1']))[0].id;
  const [vt, fpt, other] = [await switchboard(demo, 'Viettel HCM', 'viettel'), await switchboard(demo, 'FPT 1900', 'fpt'), await switchboard(abc, 'VNPT ABC', 'vnpt')];
  for (const [tenantId, number, sb] of [[demo, '842873005001', vt], [demo, '19005002', fpt], [abc, '842873005009', other]] as const) {
    await sys('insert into pbx_numbers (tenant_id, number, switchboard_id) values ($1, $2, $3)', [tenantId, number, sb]);
  }
  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  writer.add(call(demo, 'h1', 1, { did: '842873005001', extension: '102', callee: '102' })); // inbound on A (stored form), answered by 102
  writer.add(call(demo, 'h2', 2, { direction: 'outbound', caller: '101', callee: '0912000002', did: A, extension: null })); // outbound presenting A (national form)
  writer.add(call(demo, 'h3', 3, { did: '19005002' })); // inbound on B
  writer.add(call(demo, 'h4', 4, { direction: 'internal', caller: '101', callee: '102', extension: '102' })); // through no hotline
  writer.add(call(abc, 'h5', 5, { did: '842873005009' })); // abc's own hotline
  await writer.flush();
});
afterAll(() => t?.close());

const list = async (query: string, headers = h.admin) => {
  const res = await t.app.inject({ url: `/t/${headers === h.abcAdmin ? 'abc' : 'demo'}/reports/call-history?from=${DAY}&to=${DAY}&${query}`, headers });
  return res;
};
const callers = (rows: CallReportRow[]) => rows.map((r) => [r.direction, r.did]);

describe('GET /reports/call-history?hotline=', () => {
  it("lists only the calls through that hotline, whichever form the record holds it in; a call on hotline A is not under B", async () => {
    const a = await list(`hotline=${A}`);
    expect(a.statusCode).toBe(200);
    expect(callers(a.json().data)).toEqual([['outbound', A], ['inbound', A]]);
    expect(a.json().meta.total).toBe(2);
    const b = await list(`hotline=${B}`);
    expect(callers(b.json().data)).toEqual([['inbound', B]]);
    expect((await list('hotline=%2B842873005001')).json().meta.total).toBe(2);
    expect((await list('')).json().meta.total).toBe(4);
    // `*`: through any of the tenant's hotlines (not the internal call, not abc's line).
    expect(callers((await list('hotline=*')).json().data)).toEqual([['inbound', B], ['outbound', A], ['inbound', A]]);
  });

  it("keeps the viewer's own scope: the agent on 102 sees only their call through A", async () => {
    expect(callers((await list(`hotline=${A}`, h.staff)).json().data)).toEqual([['inbound', A]]);
  });

  it("is tenant-checked: another tenant's hotline is a 400 naming the filter, never its calls", async () => {
    const foreign = await list(`hotline=${ABC_LINE}`);
    expect([foreign.statusCode, foreign.json().message, foreign.json().details]).toEqual([400, REPORT_MSG.unknownHotline, [{ field: 'hotline', message: REPORT_MSG.unknownHotline }]]);
    expect((await list(`hotline=${A}`, h.abcAdmin)).statusCode).toBe(400);
    const own = await list(`hotline=${ABC_LINE}`, h.abcAdmin);
    expect(callers(own.json().data)).toEqual([['inbound', ABC_LINE]]);
    expect((await list('hotline=abc')).json().message).toBe(REPORT_MSG.badHotline);
  });

  it("offers the tenant's hotlines with carrier and switchboard as filter choices (every viewer, each tenant its own)", async () => {
    const options = async (headers: Record<string, string>, maDn = 'demo'): Promise<CallReportOptions> =>
      (await t.app.inject({ url: `/t/${maDn}/reports/call-history/options`, headers })).json().data;
    const demo = [{ number: B, carrier: 'fpt', switchboard: 'FPT 1900' }, { number: A, carrier: 'viettel', switchboard: 'Viettel HCM' }];
    expect((await options(h.admin)).hotlines).toEqual(demo);
    expect((await options(h.staff)).hotlines).toEqual(demo);
    expect((await options(h.abcAdmin, 'abc')).hotlines).toEqual([{ number: ABC_LINE, carrier: 'vnpt', switchboard: 'VNPT ABC' }]);
  });
});

describe('GET /reports/call-history/:id/dial (click-to-call from a row)', () => {
  const idOf = async (query: string, callee: string) => ((await list(query)).json().data as CallReportRow[]).find((r) => r.callee === callee || r.caller === callee)!.id;
  const dial = (id: number, headers = h.admin, maDn = 'demo') => t.app.inject({ url: `/t/${maDn}/reports/call-history/${id}/dial`, headers });

  it('answers the outside party of a call (the callee of an outbound call, the caller of an inbound one), masked rows or not', async () => {
    const outbound = await idOf(`hotline=${A}`, '0912000002');
    expect((await dial(outbound)).json()).toEqual({ data: { number: '0912000002' } });
    const inbound = ((await list(`hotline=${B}`)).json().data as CallReportRow[])[0].id;
    expect((await dial(inbound)).json()).toEqual({ data: { number: '0987000001' } });
  });

  it("only for a call the viewer may see: the agent on 102 dials their own call, not 101's (404), nor another tenant's", async () => {
    const rows = (await list(`hotline=${A}`)).json().data as CallReportRow[];
    const [own, other] = [rows.find((r) => r.direction === 'inbound')!.id, rows.find((r) => r.direction === 'outbound')!.id];
    expect((await dial(own, h.staff)).statusCode).toBe(200);
    expect((await dial(other, h.staff)).statusCode).toBe(404);
    expect((await dial(own, h.abcAdmin, 'abc')).statusCode).toBe(404);
  });
});
