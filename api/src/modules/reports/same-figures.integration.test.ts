import {
  CALL_RESULTS, MONITOR_API, storedForm, vnDay,
  type CallFigures, type CallReportRow, type CallResult, type CarrierReportRow, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse,
  type Hotline, type Kpi, type KpiMeasure, type MonitorHourly, type MonitorSnapshot, type Paged, type RecentCallsPage,
} from '@tongdai/contracts';
import { callRecord, type CallRecordOptions } from '@tongdai/testkit/call-records';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { startTestApp, type TestApp } from '../../../test/helpers';
import { seedReportCalls, vnAt, type ReportFixture } from './reports.fixture';

/**
 * One set of calls, the same figures on every screen family (issue 30, ADR 0045): calls written
 * today through the CDR writer — answered by 102, taken by 102's mailbox, answered only by an IVR,
 * missed on 102, busy on 102, out from 101 through hotline H, internal 101 → 102 answered — read
 * back as each screen asks for them, each user with their own token: call history and its export,
 * per extension, department/team, the dashboard (the wall's "today" and the hourly chart), /monitor,
 * KPIs, the softphone's recent calls, the hotline's calls and its count today. "Answered" is a
 * person's answer; a mailbox's is "Hộp thư thoại", never 102's answer nor its talk; "missed" is
 * rang and nobody answered. The fixture's own calls are on another day (REPORT_DAY).
 */
const TODAY = vnDay(new Date());
const today = `from=${TODAY}&to=${TODAY}`;
/** Hotline H of demo, bound to a switchboard: national form, and the form an inbound record holds. */
const H = '02873007001';
const H_STORED = storedForm(H);

let t: TestApp;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];

beforeAll(async () => {
  t = await startTestApp();
  ({ h, ids } = await seedReportCalls(t));
  const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
  const [board] = await sys<{ id: number }>(
    `insert into telecom_switchboards (tenant_id, name, carrier, host) values ($1, 'Viettel HCM', 'viettel', '127.0.0.1') returning id`, [ids.demo]);
  await sys('insert into pbx_numbers (tenant_id, number, switchboard_id) values ($1, $2, $3)', [ids.demo, H_STORED, board.id]);

  // Minutes after midnight today (Vietnam): inside every "today" (the wall's whole hours, the KPIs' day, the phone's 30 days).
  const call = (id: string, minute: number, o: CallRecordOptions) =>
    callRecord<CdrRow>(ids.demo, `same-${id}`, vnAt(`${TODAY}T00:${String(minute).padStart(2, '0')}:00`), o);
  const inbound = { direction: 'inbound', callee: H_STORED, did: H_STORED };
  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  writer.add(call('answered', 1, { ...inbound, caller: '0905000001', extension: '102', ring: 5, talk: 60 }));
  // 102 did not answer; its mailbox took the call after 20 s and recorded 25 s: billed, nobody's talk.
  writer.add(call('voicemail', 2, { ...inbound, caller: '0905000002', extension: '102', disposition: 'VOICEMAIL', ring: 20, talk: 25 }));
  // The caller heard the IVR and hung up: the PBX answered, nobody's call (no extension).
  writer.add(call('ivr', 3, {
    ...inbound, caller: '0905000003', route: [{ type: 'inbound', id: '1', name: 'Tuyến chính' }, { type: 'ivr', id: '3', name: 'IVR chào mừng' }],
    disposition: 'AUTO', ring: 1, talk: 15,
  }));
  writer.add(call('missed', 4, { ...inbound, caller: '0905000004', extension: '102', disposition: 'NO ANSWER', sip_code: 487, ring: 20 }));
  writer.add(call('busy', 5, { ...inbound, caller: '0905000005', extension: '102', disposition: 'BUSY', sip_code: 486, ring: 3 }));
  // 101 calls out presenting H (national form, as the tracker names it) through a trunk; the customer answers.
  writer.add(call('out', 6, { direction: 'outbound', caller: '101', callee: '0912000006', did: H, trunk: 'viettel-hcm', ring: 6, talk: 40 }));
  writer.add(call('internal', 7, { direction: 'internal', caller: '101', callee: '102', extension: '102', ring: 4, talk: 30 }));
  await writer.flush();
});
afterAll(() => t?.close());

async function json<T>(url: string, headers = h.admin): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json();
}

const ZERO = { failed: 0, blocked: 0 };
/** The tenant's calls, each once: 7 calls, 3 answered by a person (102's, 101's out, 102's internal). */
const TENANT: Partial<CallFigures> = {
  calls: 7, calls_in: 5, calls_out: 1, calls_internal: 1, answered: 3, voicemail: 1, auto: 1, missed: 1, busy: 1, ...ZERO,
  talk_sec: 60 + 40 + 30, avg_talk_sec: 43,
};
/** 102's calls (received): its answer, its mailbox's, its miss, its busy, the internal one answered. Talk: its two answers only. */
const EXT_102: Partial<CallFigures> = {
  calls: 5, calls_in: 4, calls_out: 0, calls_internal: 1, answered: 2, voicemail: 1, auto: 0, missed: 1, busy: 1, ...ZERO,
  talk_sec: 90, avg_talk_sec: 45, answer_rate: 0.4, wait_sec: 5 + 20 + 20 + 3 + 4,
};
/** 101's calls (placed): out through H and the internal call, both answered by the other end; 101 picked up none. */
const EXT_101: Partial<CallFigures> = {
  calls: 2, calls_in: 0, calls_out: 1, calls_internal: 1, answered: 2, voicemail: 0, auto: 0, missed: 0, busy: 0, ...ZERO, talk_sec: 70, answer_rate: 1,
};
/** 102's calls by result, as every list of calls shows them. */
const RESULTS_102: Partial<Record<CallResult, number>> = { answered: 2, voicemail: 1, no_answer: 1, busy: 1 };

const countBy = <T>(rows: T[], key: (r: T) => string) => rows.reduce<Record<string, number>>((n, r) => ({ ...n, [key(r)]: (n[key(r)] ?? 0) + 1 }), {});
const history = (query: string, headers = h.admin) =>
  json<Paged<CallReportRow>>(`/t/demo/reports/call-history?${today}&per_page=100${query ? `&${query}` : ''}`, headers);

describe('one set of calls, the same figures on every screen family', () => {
  it('call history: 102 answered twice, its mailbox once ("Hộp thư thoại", not 102\'s answer nor talk), missed once, busy once', async () => {
    expect((await history('')).meta.total).toBe(7);
    const own = await history('extension=102');
    expect(own.meta.total).toBe(5);
    expect(countBy(own.data, (r) => r.result)).toEqual(RESULTS_102);
    // The list's own filters count the same.
    for (const [result, n] of Object.entries({ ...RESULTS_102, auto: 0, failed: 0 })) {
      expect([result, (await history(`extension=102&result=${result}`)).meta.total]).toEqual([result, n]);
    }
    const vm = own.data.find((r) => r.result === 'voicemail')!;
    expect(CALL_RESULTS[vm.result]).toBe('Hộp thư thoại');
    expect(vm).toMatchObject({ answered_by: null, wait: 20, billsec: 0 });
    // Talk and wait add up to the per-extension figures.
    expect(own.data.reduce((s, r) => s + r.billsec, 0)).toBe(EXT_102.talk_sec);
    expect(own.data.reduce((s, r) => s + r.wait, 0)).toBe(EXT_102.wait_sec);
    expect(own.data.filter((r) => r.answered_by?.extension === '102')).toHaveLength(2);
    // The IVR's call is the tenant's, nobody's: an automatic answer.
    expect(countBy((await history('result=auto')).data, (r) => r.answered_by?.extension ?? 'nobody')).toEqual({ nobody: 1 });
    // 102's user sees their own 5 calls, the same results.
    const mine = await history('', h.staff);
    expect([mine.meta.total, countBy(mine.data, (r) => r.result)]).toEqual([5, RESULTS_102]);
  });

  it('export: the same 102 lines, "Hộp thư thoại" with no talk', async () => {
    const res = await t.app.inject({ url: `/t/demo/reports/call-history/export.csv?${today}&extension=102`, headers: h.admin });
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => l.split(','));
    expect(lines).toHaveLength(5);
    expect(countBy(lines, (c) => c[10])).toEqual({ [CALL_RESULTS.answered]: 2, [CALL_RESULTS.voicemail]: 1, [CALL_RESULTS.no_answer]: 1, [CALL_RESULTS.busy]: 1 });
    expect(lines.filter((c) => c[10] === CALL_RESULTS.voicemail).map((c) => [c[6], c[9]])).toEqual([['', '00:00']]);
  });

  it('per extension: 102 and 101 as defined once', async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}`);
    expect(data.map((r) => r.extension)).toEqual(['101', '102']);
    expect(data[0]).toMatchObject(EXT_101);
    expect(data[1]).toMatchObject(EXT_102);
    // Filtered by result: 102's mailbox call is under voicemail, not answered.
    const vm = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}&result=voicemail`);
    expect(vm.data.map((r) => [r.extension, r.calls, r.voicemail, r.answered, r.talk_sec, r.wait_sec])).toEqual([['102', 1, 1, 0, 0, 20]]);
    // 102's user: their own row, the same.
    expect((await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}`, h.staff)).data).toEqual([data[1]]);
  });

  it("department/team: customer care and its team are 102's figures, sales 101's", async () => {
    const res = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${today}`);
    const care = res.data.find((d) => d.department_id === ids.care)!;
    expect(care).toMatchObject(EXT_102);
    expect(care.teams.find((x) => x.team_id === ids.team)).toMatchObject(EXT_102);
    expect(res.data.find((d) => d.department_id === ids.sales)).toMatchObject(EXT_101);
    // The chart counts each call once: the tenant's.
    const sum = (k: keyof CallFigures) => res.series.points.reduce((s, p) => s + (p[k] as number), 0);
    expect({ calls: sum('calls'), answered: sum('answered'), voicemail: sum('voicemail'), auto: sum('auto'), missed: sum('missed'), busy: sum('busy') })
      .toEqual({ calls: 7, answered: 3, voicemail: 1, auto: 1, missed: 1, busy: 1 });
  });

  it("dashboard and /monitor: today's tiles, the hourly chart and each agent's 'Đã nghe hôm nay'", async () => {
    const wall = (await json<{ data: MonitorSnapshot }>(`/t/demo/${MONITOR_API.snapshot}`)).data;
    expect(wall.scope).toBe('tenant');
    expect(wall.today).toMatchObject(TENANT);
    // Answered by the agent: 102 picked up two calls; 101 none (its calls were answered at the other end).
    const handled = Object.fromEntries(wall.agents.filter((a) => ['101', '102'].includes(a.extension)).map((a) => [a.extension, a.handled_today]));
    expect(handled).toEqual({ 101: 0, 102: 2 });
    const chart = (await json<{ data: MonitorHourly }>(`/t/demo/${MONITOR_API.hourly}`)).data;
    expect(chart.today[0]).toMatchObject(TENANT);
    expect(chart.today.slice(1).every((p) => p.calls === 0)).toBe(true);

    // 102's own dashboard: its calls today, as per extension says.
    const own = (await json<{ data: MonitorSnapshot }>(`/t/demo/${MONITOR_API.snapshot}`, h.staff)).data;
    expect([own.scope, own.agents.map((a) => [a.extension, a.handled_today])]).toEqual(['own', [['102', 2]]]);
    expect(own.today).toMatchObject(EXT_102);
    expect((await json<{ data: MonitorHourly }>(`/t/demo/${MONITOR_API.hourly}`, h.staff)).data.today[0]).toMatchObject(EXT_102);
  });

  it("KPIs: 102's answered calls, talk, answer rate; 101's calls made, none answered", async () => {
    const actual = async (measure: KpiMeasure, assignee: { type: string; id: number }) => {
      const res = await t.app.inject({
        method: 'POST', url: '/t/demo/kpis', headers: h.admin,
        payload: { name: `${measure} ${assignee.type} ${assignee.id}`, measure, target: 10, period: 'day', start_date: TODAY, assignee },
      });
      expect(res.statusCode).toBe(201);
      const { id } = res.json<{ data: Kpi }>().data;
      return (await json<{ data: Kpi }>(`/t/demo/kpis/${id}`)).data.progress.actual;
    };
    const staff = { type: 'user', id: ids.staffId };
    expect({
      calls_answered: await actual('calls_answered', staff), calls_made: await actual('calls_made', staff), talk_time: await actual('talk_time', staff),
      answer_rate: await actual('answer_rate', staff), avg_handle_time: await actual('avg_handle_time', staff),
    }).toEqual({ calls_answered: 2, calls_made: 0, talk_time: 1.5, answer_rate: 40, avg_handle_time: 45 });
    expect(await actual('calls_answered', { type: 'team', id: ids.team })).toBe(2);
    expect(await actual('calls_answered', { type: 'department', id: ids.care })).toBe(2);
    const admin = { type: 'user', id: ids.adminId };
    // Talk minutes to one decimal: 70 s.
    expect([await actual('calls_made', admin), await actual('calls_answered', admin), await actual('talk_time', admin)]).toEqual([2, 0, 1.2]);
  });

  it("softphone's recent calls: 102's five calls with the same results; the mailbox's is missed and no talk", async () => {
    const page = await json<RecentCallsPage>(`/t/demo/histories-call?per_page=50&missed_since=${encodeURIComponent(vnAt(`${TODAY}T00:00:00`).toISOString())}`, h.staff);
    const mine = page.data.filter((r) => vnDay(new Date(r.started_at)) === TODAY);
    expect(mine).toHaveLength(5);
    expect(countBy(mine, (r) => r.result)).toEqual(RESULTS_102);
    expect(mine.reduce((s, r) => s + r.billsec, 0)).toBe(EXT_102.talk_sec);
    // The phone's badge: calls to 102 nobody took in person (ADR 0045: its mailbox's too).
    expect(mine.filter((r) => r.missed).map((r) => r.result).sort()).toEqual(['no_answer', 'voicemail']);
    expect(page.missed).toBe(2);
    // 101's phone: two calls placed, both answered at the other end; none it picked up.
    const admin = (await json<RecentCallsPage>('/t/demo/histories-call?per_page=50', h.admin)).data.filter((r) => vnDay(new Date(r.started_at)) === TODAY);
    expect(admin.map((r) => [r.direction, r.result, r.billsec])).toEqual([['outgoing', 'answered', 30], ['outgoing', 'answered', 40]]);
  });

  it('hotline H: its calls in the history, its carrier view and its count today', async () => {
    const through = await history(`hotline=${H}`);
    expect(through.meta.total).toBe(6);
    expect(countBy(through.data, (r) => r.result)).toEqual({ answered: 2, voicemail: 1, auto: 1, no_answer: 1, busy: 1 });
    const carrier = (await json<{ data: CarrierReportRow[] }>(`/t/demo/reports/carrier-calls?${today}&hotline=${H}`)).data;
    const per = (d: string) => carrier.filter((r) => r.direction === d).reduce((s, r) => ({ calls: s.calls + r.calls, answered: s.answered + r.answered }), { calls: 0, answered: 0 });
    expect({ inbound: per('inbound'), outbound: per('outbound') }).toEqual({ inbound: { calls: 5, answered: 1 }, outbound: { calls: 1, answered: 1 } });
    const lines = (await json<Paged<Hotline>>('/t/demo/etelecom/hotlines')).data;
    expect(lines.filter((l) => storedForm(l.number) === H_STORED).map((l) => l.calls_today)).toEqual([6]);
  });
});
