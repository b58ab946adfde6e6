import { CALL_REPORT_EXPORT_HEADERS, callReportCells, displayForm, REPORT_MSG, type CallReportRow } from '@tongdai/contracts';
import { readSheet } from 'read-excel-file/node';
import { startTestApp, type TestApp } from '../../../test/helpers';
import { REPORT_DAY, seedReportCalls, vnAt, type ReportFixture } from './reports.fixture';

/**
 * Call history (issue 13) on a real PostgreSQL: every filter, the agent's own-calls scope, tenant
 * isolation, Vietnam-time day boundaries, numbered and keyset pages, masking, bad filters → 400.
 */
const at = vnAt;
const DAY = REPORT_DAY;

let t: TestApp;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];
let customer: ReportFixture['customer'];

beforeAll(async () => {
  t = await startTestApp();
  ({ h, ids, customer } = await seedReportCalls(t));
});
afterAll(() => t?.close());

const get = (url: string, headers = h.admin) => t.app.inject({ method: 'GET', url, headers });
async function calls(query: string, headers = h.admin, path = 'call-history'): Promise<{ data: CallReportRow[]; meta: { total: number; page: number; per_page: number } }> {
  const res = await get(`/t/${headers === h.abcAdmin ? 'abc' : 'demo'}/reports/${path}?${query}`, headers);
  expect(res.statusCode).toBe(200);
  return res.json();
}
/** The call ids of an answer, by their caller→callee (CDR ids are not the call ids). */
const day = `from=${DAY}&to=${DAY}`;
const shape = (rows: CallReportRow[]) => rows.map((r) => `${r.direction}:${r.caller}>${r.callee}:${r.result}`);
const C = {
  c1: () => `inbound:${displayForm(customer.phone)}>02873000001:answered`,
  c2: 'internal:101>102:no_answer',
  c3: 'outbound:101>0987000111:busy',
  c4: 'inbound:0999888777>02873000001:blocked',
  c5: 'inbound:0902000005>02873000001:answered',
};

describe('GET /t/:ma_dn/reports/call-history', () => {
  it('lists one Vietnam day newest first, the call after midnight +07:00 on the next day', async () => {
    const page = await calls(day);
    expect(shape(page.data)).toEqual([C.c5, C.c4, C.c3, C.c2, C.c1()]);
    expect(page.meta).toEqual({ page: 1, per_page: 10, total: 5 });
    expect(shape((await calls('from=2026-03-11&to=2026-03-11')).data)).toEqual(['inbound:0902000006>02873000001:answered']);
    expect((await calls(`from=2026-03-09&to=2026-03-11`)).meta.total).toBe(6);
  });

  it('shows path names, who answered, wait and talk time, the Vietnamese reason and the matched customer', async () => {
    const rows = (await calls(day)).data;
    // The carrier sent 84…; the report reads it as every screen does (0…, ADR 0016).
    const c1 = rows.find((r) => r.caller === displayForm(customer.phone))!;
    expect(c1).toMatchObject({
      started_at: at(`${DAY}T09:00:00`).toISOString(), did: '02873000001',
      path: [{ type: 'ivr', name: 'IVR chào mừng' }, { type: 'queue', name: 'Hàng đợi CSKH' }],
      answered_by: { extension: '102', name: 'Nhân viên tổng đài' }, wait: 15, billsec: 95, result: 'answered', reason: '',
      customer: { id: customer.id, name: customer.name, phone: displayForm(customer.phone) },
    });
    expect(rows.find((r) => r.result === 'blocked')!.reason).toBe('Số gọi đến nằm trong danh sách chặn');
    expect(rows.find((r) => r.result === 'busy')!.reason).toBe('Bên nhận đang bận hoặc đã từ chối cuộc gọi');
    expect(rows.find((r) => r.result === 'no_answer')).toMatchObject({ reason: 'Người gọi gác máy trước khi có người nghe', answered_by: null, wait: 20 });
  });

  it('filters by direction, result, extension, department, team, queue and number', async () => {
    expect(shape((await calls(`${day}&direction=internal`)).data)).toEqual([C.c2]);
    expect(shape((await calls(`${day}&direction=outbound`)).data)).toEqual([C.c3]);
    expect(shape((await calls(`${day}&result=busy`)).data)).toEqual([C.c3]);
    expect(shape((await calls(`${day}&result=blocked`)).data)).toEqual([C.c4]);
    expect(shape((await calls(`${day}&result=no_answer`)).data)).toEqual([C.c2]);
    // An extension's calls: those it answered, placed, or was called on.
    expect(shape((await calls(`${day}&extension=102`)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&extension=101`)).data)).toEqual([C.c5, C.c3, C.c2]);
    // The staff member (102) sits in customer care and its first team; the admin (101) in sales.
    expect(shape((await calls(`${day}&department_id=${ids.care}`)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&team_id=${ids.team}`)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&team_id=${ids.team}&extension=101`)).data)).toEqual([]);
    expect(shape((await calls(`${day}&queue_id=${ids.queue}`)).data)).toEqual([C.c1()]);
    expect(shape((await calls(`${day}&search=0987000`)).data)).toEqual([C.c3]);
    expect(shape((await calls(`${day}&search=02873000001&direction=inbound&result=answered`)).data)).toEqual([C.c5, C.c1()]);
  });

  it('/reports/success-calls lists answered calls only, with the same filters', async () => {
    expect(shape((await calls(day, h.admin, 'success-calls')).data)).toEqual([C.c5, C.c1()]);
    expect(shape((await calls(`${day}&extension=102`, h.admin, 'success-calls')).data)).toEqual([C.c1()]);
  });

  it('gives an agent without report.view only the calls of their own extension; another extension, department or team is a 400', async () => {
    expect(shape((await calls(day, h.staff)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&extension=102&direction=inbound`, h.staff)).data)).toEqual([C.c1()]);
    for (const [query, field, message] of [
      ['extension=101', 'extension', REPORT_MSG.extensionOutOfScope],
      [`department_id=${ids.care}`, 'department_id', REPORT_MSG.departmentOutOfScope],
      [`team_id=${ids.team}`, 'team_id', REPORT_MSG.teamOutOfScope],
    ]) {
      const res = await get(`/t/demo/reports/call-history?${day}&${query}`, h.staff);
      expect([res.statusCode, res.json()]).toEqual([400, { status: 400, code: 'VALIDATION_FAILED', message, details: [{ field, message }] }]);
    }
    const options = (await get('/t/demo/reports/call-history/options', h.staff)).json().data;
    expect(options).toEqual({ extensions: [{ extension: '102', name: 'Nhân viên tổng đài' }], departments: [], teams: [], queues: [], hotlines: [] });
    // Granted report.view, the same agent sees the tenant.
    await t.db.withSystem((tx) =>
      tx.query(`insert into role_permissions (tenant_id, role_id, permission_id)
        select ur.tenant_id, ur.role_id, p.id from user_roles ur, permissions p where ur.user_id = $1 and p.name = 'report.view'`, [ids.staffId]));
    try {
      expect((await calls(day, h.staff)).meta.total).toBe(5);
    } finally {
      await t.db.withSystem((tx) => tx.query(`delete from role_permissions where permission_id = (select id from permissions where name = 'report.view')
        and role_id in (select role_id from user_roles where user_id = $1)`, [ids.staffId]));
    }
  });

  it("gives a department manager their department's calls (its teams too), its filters, and nothing else", async () => {
    // Customer care is the staff member's (102): c1 and the internal c2 with 101.
    expect(shape((await calls(day, h.manager)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&department_id=${ids.care}`, h.manager)).data)).toEqual([C.c2, C.c1()]);
    expect(shape((await calls(`${day}&team_id=${ids.team}&result=answered`, h.manager)).data)).toEqual([C.c1()]);
    expect(shape((await calls(`${day}&queue_id=${ids.queue}`, h.manager)).data)).toEqual([C.c1()]);
    expect(shape((await calls(day, h.manager, 'success-calls')).data)).toEqual([C.c1()]);
    for (const query of ['extension=101', `department_id=${ids.sales}`, `team_id=${ids.salesTeam}`]) {
      expect((await get(`/t/demo/reports/call-history?${day}&${query}`, h.manager)).statusCode).toBe(400);
    }
    const options = (await get('/t/demo/reports/call-history/options', h.manager)).json().data;
    expect(options.extensions).toEqual([{ extension: '102', name: 'Nhân viên tổng đài' }]);
    expect(options.departments.map((d: { id: number }) => d.id)).toEqual([ids.care]);
    expect(options.teams.every((x: { department_id: number }) => x.department_id === ids.care)).toBe(true);
    expect(options.teams.map((x: { id: number }) => x.id)).toContain(ids.team);
    expect(options.queues.map((q: { id: number }) => q.id)).toEqual([ids.queue]);
  });

  it("gives a team leader their team's calls only: the sales team the admin (101) sits in", async () => {
    expect(shape((await calls(day, h.leader)).data)).toEqual([C.c5, C.c3, C.c2]);
    expect(shape((await calls(`${day}&team_id=${ids.salesTeam}&direction=outbound`, h.leader)).data)).toEqual([C.c3]);
    expect((await get(`/t/demo/reports/call-history?${day}&department_id=${ids.sales}`, h.leader)).statusCode).toBe(400);
    expect((await get(`/t/demo/reports/call-history?${day}&extension=102`, h.leader)).statusCode).toBe(400);
    const options = (await get('/t/demo/reports/call-history/options', h.leader)).json().data;
    expect([options.extensions.map((e: { extension: string }) => e.extension), options.departments, options.teams.map((x: { id: number }) => x.id)])
      .toEqual([['101'], [], [ids.salesTeam]]);
  });

  it('gives an agent without an extension no calls, no choices, and no export rows', async () => {
    expect(await calls(day, h.noExt)).toEqual({ data: [], meta: { page: 1, per_page: 10, total: 0 } });
    expect((await get('/t/demo/reports/call-history/options', h.noExt)).json().data).toEqual({ extensions: [], departments: [], teams: [], queues: [], hotlines: [] });
    expect((await get(`/t/demo/reports/carrier-calls?${day}`, h.noExt)).json().data).toEqual([]);
    expect((await get(`/t/demo/reports/call-history?${day}&extension=102`, h.noExt)).statusCode).toBe(400);
  });

  it("scopes the carrier view and exports as the list: a manager's export holds their department's calls", async () => {
    await t.db.withSystem((tx) => tx.query(`insert into role_permissions (tenant_id, role_id, permission_id)
      select ur.tenant_id, ur.role_id, p.id from user_roles ur, permissions p where ur.user_id = $1 and p.name = 'report.export'`, [ids.staffId]));
    try {
      const lines = (await get(`/t/demo/reports/call-history/export?${day}`, h.manager)).body.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
      expect(lines.slice(1)).toEqual((await calls(day, h.manager)).data.map((r) => callReportCells(r).map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')));
      expect(lines).toHaveLength(3);
      expect((await get(`/t/demo/reports/call-history/export?${day}&extension=101`, h.manager)).statusCode).toBe(400);
    } finally {
      await t.db.withSystem((tx) => tx.query(`delete from role_permissions where permission_id = (select id from permissions where name = 'report.export')
        and role_id in (select role_id from user_roles where user_id = $1)`, [ids.staffId]));
    }
    const carrier = (await get(`/t/demo/reports/carrier-calls?${day}`, h.manager)).json().data;
    // Through the hotline: c1 (care's) only; the admin's c3 and c5 are not the manager's.
    expect(carrier.reduce((n: number, r: { calls: number }) => n + r.calls, 0)).toBe(1);
  });

  it("keeps tenants apart: abc sees its own calls, never demo's, and demo's ids are unknown there", async () => {
    expect(shape((await calls(day, h.abcAdmin)).data)).toEqual(['internal:101>102:busy', 'inbound:0903000001>02873000001:answered']);
    const res = await get(`/t/abc/reports/call-history?${day}&queue_id=${ids.queue}`, h.abcAdmin);
    expect(res.statusCode).toBe(400);
    expect((await get(`/t/demo/reports/call-history?${day}`, h.abcAdmin)).statusCode).toBe(401);
    const options = (await get('/t/abc/reports/call-history/options', h.abcAdmin)).json().data;
    expect(options.queues).toEqual([]);
  });

  it('pages by number (?page=) and by keyset cursor, each call once', async () => {
    const p2 = await calls(`${day}&per_page=2&page=2`);
    expect(shape(p2.data)).toEqual([C.c3, C.c2]);
    expect(p2.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const res = (await get(`/t/demo/reports/call-history?${day}&per_page=2&cursor=${cursor}`)).json();
      seen.push(...shape(res.data));
      if (!res.next) break;
      cursor = res.next;
    }
    expect(seen).toEqual([C.c5, C.c4, C.c3, C.c2, C.c1()]);
  });

  it("masks customers' numbers as the tenant's setting says", async () => {
    await t.db.withSystem((tx) => tx.query('update system_settings set hidden_phone_customer = 1, position_hidden_phone_customer = 0 where tenant_id = $1', [ids.demo]));
    try {
      const c1 = (await calls(`${day}&queue_id=${ids.queue}`)).data[0];
      expect(c1.caller).toContain('***');
      expect(c1.caller).not.toBe(customer.phone);
      expect(c1.customer!.phone).toBe(c1.caller);
      // The search still finds the call by its real number.
      expect((await calls(`${day}&search=${customer.phone}`)).meta.total).toBe(1);
    } finally {
      await t.db.withSystem((tx) => tx.query('update system_settings set hidden_phone_customer = 0 where tenant_id = $1', [ids.demo]));
    }
  });

  it.each([
    [`from=2026-03-10&to=2026-03-09`, 'to', REPORT_MSG.endBeforeStart],
    [`from=2025-01-01&to=2026-03-10`, 'from', REPORT_MSG.rangeTooLong],
    [`from=2026-02-30`, 'from', REPORT_MSG.badDate],
    [`${day}&extension=999`, 'extension', REPORT_MSG.unknownExtension],
    [`${day}&direction=sideways`, 'direction', REPORT_MSG.badDirection],
    [`${day}&result=maybe`, 'result', REPORT_MSG.badResult],
    [`${day}&department_id=abc`, 'department_id', REPORT_MSG.badId],
    [`${day}&department_id=999999`, 'department_id', REPORT_MSG.unknownDepartment],
    [`${day}&team_id=999999`, 'team_id', REPORT_MSG.unknownTeam],
    [`${day}&search=abc`, 'search', REPORT_MSG.badNumber],
    [`${day}&page=0`, 'page', REPORT_MSG.badId],
  ])('refuses %s with a 400 naming the filter in Vietnamese', async (query, field, message) => {
    const res = await get(`/t/demo/reports/call-history?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, code: 'VALIDATION_FAILED', message, details: [{ field, message }] });
  });

  it('exports exactly the filtered rows as CSV with Vietnamese headers, for report.export holders only', async () => {
    const res = await get(`/t/demo/reports/call-history/export?${day}&per_page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="lich-su-cuoc-goi.csv"');
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(CALL_REPORT_EXPORT_HEADERS.join(','));
    // All five calls of the day (not one page of two), as the screen shows them.
    const shown = (await calls(day)).data.map((r) => callReportCells(r).map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','));
    expect(lines.slice(1)).toEqual(shown);
    expect(lines[1]).toContain(`${DAY} 23:59:00,Gọi vào,0902000005`);
    expect(lines.find((l) => l.includes('Hàng đợi CSKH'))).toContain('IVR: IVR chào mừng → Hàng đợi: Hàng đợi CSKH,102,Nhân viên tổng đài,00:15,01:35,Trả lời');
    const answered = (await get(`/t/demo/reports/success-calls/export?${day}`)).body.split('\r\n').filter(Boolean);
    expect(answered).toHaveLength(3);
    expect((await get(`/t/demo/reports/call-history/export?${day}`, h.staff)).statusCode).toBe(403);
    const bad = await get(`/t/demo/reports/call-history/export?from=2026-03-10&to=2026-03-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(REPORT_MSG.endBeforeStart);
  });

  it('exports the same rows as an XLSX file (read back with read-excel-file), CSV by name too, for report.export holders only', async () => {
    const res = await get(`/t/demo/reports/call-history/export.xlsx?${day}&per_page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="lich-su-cuoc-goi.xlsx"');
    const sheet = (await readSheet(res.rawPayload)).map((row) => row.map((c) => (c === null ? '' : String(c))));
    expect(sheet[0]).toEqual([...CALL_REPORT_EXPORT_HEADERS]);
    expect(sheet.slice(1)).toEqual((await calls(day)).data.map(callReportCells));
    // The sheet is stored, not deflated: the browser counts rows in the bytes for its progress bar.
    expect(res.rawPayload.toString('latin1').split('</row>')).toHaveLength(sheet.length + 1);
    const answered = await readSheet((await get(`/t/demo/reports/success-calls/export.xlsx?${day}`)).rawPayload);
    expect(answered.slice(1).map((r) => r[10])).toEqual(['Trả lời', 'Trả lời']);
    const csv = await get(`/t/demo/reports/call-history/export.csv?${day}`);
    expect([csv.headers['content-disposition'], csv.body]).toEqual(['attachment; filename="lich-su-cuoc-goi.csv"', (await get(`/t/demo/reports/call-history/export?${day}`)).body]);
    expect((await get(`/t/demo/reports/call-history/export.xlsx?${day}`, h.staff)).statusCode).toBe(403);
    expect((await get(`/t/demo/reports/call-history/export.pdf?${day}`)).statusCode).toBe(404);
    const bad = await get(`/t/demo/reports/call-history/export.xlsx?from=2026-03-10&to=2026-03-01`);
    expect([bad.statusCode, bad.json().message]).toEqual([400, REPORT_MSG.endBeforeStart]);
  });

  it('answers 403 FEATURE_NOT_PURCHASED when the tenant has not bought "report"', async () => {
    await t.db.withSystem((tx) => tx.query(`update payment_checks set feature_name_data = array_remove(feature_name_data, 'report') where tenant_id = $1`, [ids.demo]));
    try {
      const res = await get(`/t/demo/reports/call-history?${day}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FEATURE_NOT_PURCHASED');
    } finally {
      await t.db.withSystem((tx) => tx.query(`update payment_checks set feature_name_data = array_append(feature_name_data, 'report') where tenant_id = $1`, [ids.demo]));
    }
  });
});
