import { REPORT_MSG, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse } from '@tongdai/contracts';
import { startTestApp, type TestApp } from '../../../test/helpers';
import { REPORT_DAY, seedReportCalls, vnAt, type ReportFixture } from './reports.fixture';

/**
 * Call summaries (issue 13) on a real PostgreSQL: the records go through the CDR writer (so the
 * rollups fill), and every figure of /reports/by-extension and /reports/by-department-team equals
 * what the call-history list counts for the same range and filters; every permission scope, tenant
 * isolation, Vietnam-midnight boundaries, bad ranges.
 */
const at = vnAt;
const DAY = REPORT_DAY;
const day = `from=${DAY}&to=${DAY}`;

let t: TestApp;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];

beforeAll(async () => {
  t = await startTestApp();
  ({ h, ids } = await seedReportCalls(t));
});
afterAll(() => t?.close());

const get = (url: string, headers = h.admin) => t.app.inject({ method: 'GET', url, headers });
async function json<T>(url: string, headers = h.admin): Promise<T> {
  const res = await get(url, headers);
  expect(res.statusCode).toBe(200);
  return res.json();
}
/** What the call-history list says for the same filters: how many calls, and their talk time. */
async function listed(query: string, headers = h.admin) {
  const page = await json<{ data: { billsec: number }[]; meta: { total: number } }>(`/t/demo/reports/call-history?${query}&per_page=100`, headers);
  return { total: page.meta.total, talk: page.data.reduce((s, r) => s + r.billsec, 0) };
}
/** A row's figures, each as call history counts it for `filter` (an extension or a department). */
async function asListed(filter: string, headers = h.admin) {
  const n = async (q: string) => (await listed(`${day}&${filter}${q}`, headers)).total;
  const all = await listed(`${day}&${filter}`, headers);
  return {
    calls: all.total, talk_sec: all.talk, calls_in: await n('&direction=inbound'), calls_out: await n('&direction=outbound'),
    calls_internal: await n('&direction=internal'), answered: await n('&result=answered'), missed: await n('&result=no_answer'), busy: await n('&result=busy'),
  };
}

describe('GET /t/:ma_dn/reports/by-extension', () => {
  it("gives each extension the figures the call-history list counts for it over the same day", async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${day}`);
    expect(data.map((r) => r.extension)).toEqual(['101', '102']);
    for (const row of data) expect(row).toMatchObject(await asListed(`extension=${row.extension}`));
    expect(data[0]).toMatchObject({
      full_name: expect.any(String), calls: 3, calls_in: 1, calls_out: 1, calls_internal: 1, answered: 1, missed: 1, busy: 1, talk_sec: 40, avg_talk_sec: 40,
    });
    expect(data[0].answer_rate).toBeCloseTo(1 / 3);
    expect(data[1]).toMatchObject({ full_name: 'Nhân viên tổng đài', calls: 2, answered: 1, missed: 1, busy: 0, talk_sec: 95, answer_rate: 0.5 });
    // The next Vietnam day holds only the call after midnight.
    const next = await json<ExtensionSummaryResponse>('/t/demo/reports/by-extension?from=2026-03-11&to=2026-03-11');
    expect(next.data.map((r) => [r.extension, r.calls])).toEqual([['101', 1]]);
  });

  it('gives an agent without report.view only their own extension\'s row', async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${day}`, h.staff);
    expect(data.map((r) => r.extension)).toEqual(['102']);
    expect(data[0]).toMatchObject(await asListed('extension=102', h.staff));
  });
});

describe('GET /t/:ma_dn/reports/by-department-team', () => {
  it('sums departments and their teams as call history filters them, with calls per hour for one day', async () => {
    const res = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}`);
    const care = res.data.find((d) => d.department_id === ids.care)!;
    const sales = res.data.find((d) => d.department_id === ids.sales)!;
    expect(care).toMatchObject(await asListed(`department_id=${ids.care}`));
    expect(sales).toMatchObject(await asListed(`department_id=${ids.sales}`));
    expect(care.teams.find((x) => x.team_id === ids.team)).toMatchObject(await asListed(`team_id=${ids.team}`));
    expect(res.series.bucket).toBe('hour');
    expect(res.series.points).toHaveLength(24);
    expect(res.series.points[0].at).toBe(at(`${DAY}T00:00:00`).toISOString());
    // Each call once, as many as the day's list.
    expect(res.series.points.reduce((s, p) => s + p.calls, 0)).toBe((await listed(day)).total);
    expect(res.series.points.filter((p) => p.calls).map((p) => new Date(Date.parse(p.at) + 7 * 3_600_000).getUTCHours())).toEqual([9, 10, 11, 12, 23]);
  });

  it('charts per Vietnam day past two days', async () => {
    const res = await json<DepartmentTeamSummaryResponse>('/t/demo/reports/by-department-team?from=2026-03-09&to=2026-03-11');
    expect(res.series.bucket).toBe('day');
    expect(res.series.points.map((p) => p.calls)).toEqual([0, 5, 1]);
  });

  it("gives an agent only their own extension's share", async () => {
    const res = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}`, h.staff);
    expect(res.data.map((d) => [d.department_id, d.calls, d.teams.map((x) => [x.team_id, x.calls])])).toEqual([[ids.care, 2, [[ids.team, 2]]]]);
    expect(res.series.points.reduce((s, p) => s + p.calls, 0)).toBe(2);
  });
});

/** What the call-history list shows for a query: how many calls, their talk and wait (a key given twice: one value). */
async function listedFigures(query: string, headers = h.admin) {
  const q = new URLSearchParams(Object.fromEntries(new URLSearchParams(`${day}&${query}&per_page=100`)));
  // A later value wins: extension=101 then extension=102 asks for 102.
  const page = await json<{ data: { billsec: number; wait: number }[]; meta: { total: number } }>(`/t/demo/reports/call-history?${q}`, headers);
  return { calls: page.meta.total, talk_sec: page.data.reduce((s, r) => s + r.billsec, 0), wait_sec: page.data.reduce((s, r) => s + r.wait, 0) };
}

describe('summaries apply every filter of the call-history screens (from the rollups)', () => {
  const filters = () => [
    'direction=inbound', 'direction=outbound', 'direction=internal', 'result=answered', 'result=no_answer', 'result=busy', 'result=blocked',
    `queue_id=${ids.queue}`, 'extension=101', `department_id=${ids.care}`, `team_id=${ids.team}`, 'direction=internal&result=no_answer',
  ];

  // Twelve filters, each read from the list and from a summary: about 10 s at load 7, over Jest's 30 s at
  // load 13 with npm test's main part niced (ci6 of the twenty-third session).
  it('per extension: each row is what the list counts for that extension and filter', async () => {
    for (const q of filters()) {
      const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${day}&${q}`);
      for (const row of data) expect([q, row]).toMatchObject([q, await listedFigures(`extension=${row.extension}&${q}`)]);
      // An extension with a call under the filter has a row; none other does.
      const expected = [];
      for (const ext of ['101', '102'].filter((e) => !q.startsWith('extension=') || q === `extension=${e}`)) {
        if ((await listedFigures(`${q}&extension=${ext}`)).calls) expected.push(ext);
      }
      expect([q, data.map((r) => r.extension)]).toEqual([q, expected]);
    }
  }, 90_000);

  it('per department and team, and the series: the same figures as the list, each call once', async () => {
    for (const q of filters()) {
      const res = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}&${q}`);
      for (const d of res.data.filter((x) => x.department_id !== null)) expect([q, d]).toMatchObject([q, await listedFigures(`department_id=${d.department_id}&${q}`)]);
      if (!q.includes('_id=') && !q.includes('extension')) {
        const total = res.series.points.reduce((s, p) => s + p.calls, 0);
        expect([q, total]).toEqual([q, (await listedFigures(q)).calls]);
      }
    }
    const answered = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}&result=answered`);
    expect(answered.data.every((d) => d.missed === 0 && d.busy === 0 && d.answered === d.calls)).toBe(true);
  }, 90_000);

  it('reads whole-day ranges of a queue from cdr_daily_queue, as the hours add up', async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?from=2026-03-09&to=2026-03-11&queue_id=${ids.queue}`);
    expect(data.map((r) => [r.extension, r.calls, r.talk_sec, r.wait_sec])).toEqual([['102', 1, 95, 15]]);
  });
});

describe('summaries per permission scope', () => {
  it("a department manager sees their department's extensions and figures only", async () => {
    const ext = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${day}`, h.manager);
    expect(ext.data.map((r) => r.extension)).toEqual(['102']);
    expect(ext.data[0]).toMatchObject(await listedFigures('extension=102', h.manager));
    const org = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}&team_id=${ids.team}`, h.manager);
    expect(org.data.map((d) => [d.department_id, d.calls, d.teams.map((x) => [x.team_id, x.calls])])).toEqual([[ids.care, 2, [[ids.team, 2]]]]);
    expect((await get(`/t/demo/reports/by-extension?${day}&extension=101`, h.manager)).json().message).toBe(REPORT_MSG.extensionOutOfScope);
    expect((await get(`/t/demo/reports/by-department-team?${day}&department_id=${ids.sales}`, h.manager)).statusCode).toBe(400);
  });

  it("a team leader sees their team's; an agent without an extension sees nothing", async () => {
    const ext = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${day}`, h.leader);
    expect(ext.data.map((r) => [r.extension, r.calls])).toEqual([['101', 3]]);
    const org = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${day}`, h.leader);
    expect(org.data.map((d) => [d.department_id, d.calls, d.teams.map((x) => [x.team_id, x.calls])])).toEqual([[ids.sales, 3, [[ids.salesTeam, 3]]]]);
    expect(await json(`/t/demo/reports/by-extension?${day}`, h.noExt)).toEqual({ data: [] });
    expect(await json(`/t/demo/reports/by-department-team?${day}`, h.noExt)).toEqual({ data: [], series: { bucket: 'hour', points: [] } });
  });
});

describe('summaries across tenants and bad ranges', () => {
  it("keeps tenants apart: abc's figures are its own calls only", async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/abc/reports/by-extension?${day}`, h.abcAdmin);
    expect(data.map((r) => [r.extension, r.calls, r.answered, r.busy])).toEqual([['101', 2, 1, 1], ['102', 1, 0, 1]]);
    const org = await json<DepartmentTeamSummaryResponse>(`/t/abc/reports/by-department-team?${day}`, h.abcAdmin);
    expect(org.series.points.reduce((s, p) => s + p.calls, 0)).toBe(2);
    // Filtered, still abc's own: its busy internal call, never demo's busy outbound one.
    const busy = await json<ExtensionSummaryResponse>(`/t/abc/reports/by-extension?${day}&result=busy`, h.abcAdmin);
    expect(busy.data.map((r) => [r.extension, r.calls, r.calls_internal, r.calls_out])).toEqual([['101', 1, 1, 0], ['102', 1, 1, 0]]);
    // demo's queue is unknown in abc.
    expect((await get(`/t/abc/reports/by-extension?${day}&queue_id=${ids.queue}`, h.abcAdmin)).json().message).toBe(REPORT_MSG.unknownQueue);
    expect((await get(`/t/demo/reports/by-extension?${day}`, h.abcAdmin)).statusCode).toBe(401);
  });

  it.each([
    ['by-extension', 'from=2026-03-10&to=2026-03-09', 'to', REPORT_MSG.endBeforeStart],
    ['by-department-team', 'from=2025-01-01&to=2026-03-10', 'from', REPORT_MSG.rangeTooLong],
    ['by-extension', 'from=2026-02-30', 'from', REPORT_MSG.badDate],
  ])('/reports/%s?%s → 400 naming the filter in Vietnamese', async (path, query, field, message) => {
    const res = await get(`/t/demo/reports/${path}?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, code: 'VALIDATION_FAILED', message, details: [{ field, message }] });
  });

  it('answers 403 FEATURE_NOT_PURCHASED without the "report" feature', async () => {
    await t.db.withSystem((tx) => tx.query(`update payment_checks set feature_name_data = array_remove(feature_name_data, 'report') where tenant_id = $1`, [ids.demo]));
    try {
      expect((await get(`/t/demo/reports/by-department-team?${day}`)).json().code).toBe('FEATURE_NOT_PURCHASED');
    } finally {
      await t.db.withSystem((tx) => tx.query(`update payment_checks set feature_name_data = array_append(feature_name_data, 'report') where tenant_id = $1`, [ids.demo]));
    }
  });
});
