import { KPI_MSG, MSG, vnDay, type Kpi, type KpiByDepartmentResponse, type Paged } from '@tongdai/contracts';
import { callRecord, type CallRecordOptions } from '@tongdai/testkit/call-records';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { extensionSummary, legFigures } from '../reports/read-model.service';
import { kpiWindow } from './progress';
import { demoHeaders, DEMO, startTestApp, type TestApp } from '../../../test/helpers';

/**
 * KPIs on a real PostgreSQL: CRUD, Vietnamese 400s, tenant isolation, the agent's own scope, and
 * actuals equal to the reports read model's figures for calls written through the CDR writer in
 * the current hour (the KPIs' current period).
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let ids: { demo: number; abc: number; staffId: number; adminId: number; care: number; team: number };
const today = vnDay(new Date());
const hourStart = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);

/** A call in the current hour (the KPIs' period), as the writer takes it. */
const cdr = (tenantId: number, callId: string, o: CallRecordOptions = {}) => callRecord<CdrRow>(tenantId, callId, new Date(hourStart.getTime() + 60_000), o);

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
  const tenants = Object.fromEntries((await sys<{ id: number; ma_dn: string }>('select id, ma_dn from tenants')).map((r) => [r.ma_dn, r.id]));
  const [demo, abc] = [tenants[DEMO.tenants.demo], tenants[DEMO.tenants.abc]];
  const user = (name: string) => sys<{ id: number; department_id: number }>('select id, department_id from users where tenant_id = $1 and username = $2', [demo, name]);
  const [[staff], [admin]] = [await user(DEMO.staff.username), await user(DEMO.admin.username)];
  const [team] = await sys<{ id: number }>('select id from teams where tenant_id = $1 and department_id = $2 order by id limit 1', [demo, staff.department_id]);
  await sys('update users set team_id = $1 where id = $2', [team.id, staff.id]);
  ids = { demo, abc, staffId: staff.id, adminId: admin.id, care: staff.department_id, team: team.id };

  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  writer.add(cdr(demo, 'k1', { extension: '102', talk: 95 }));
  writer.add(cdr(demo, 'k2', { direction: 'internal', caller: '101', callee: '102', extension: '102', talk: 30 }));
  writer.add(cdr(demo, 'k3', { direction: 'outbound', caller: '102', callee: '0987000111', disposition: 'NO ANSWER' }));
  writer.add(cdr(demo, 'k4', { direction: 'internal', caller: '102', callee: '101', disposition: 'BUSY', sip_code: 486 }));
  writer.add(cdr(abc, 'a1', { direction: 'outbound', caller: '102', callee: '0987000222', talk: 50 }));
  await writer.flush();
});
afterAll(() => t?.close());

const kpi = (o: Record<string, unknown> = {}) => ({
  name: 'Gọi ra trong ngày', measure: 'calls_made', target: 10, period: 'day', start_date: today, assignee: { type: 'user', id: ids.staffId }, ...o,
});
const post = (payload: unknown, headers = h.admin) => t.app.inject({ method: 'POST', url: '/t/demo/kpis', headers, payload: payload as object });
async function created(o: Record<string, unknown> = {}): Promise<Kpi> {
  const res = await post(kpi(o));
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Kpi }>().data;
}
const get = (url: string, headers = h.admin) => t.app.inject({ method: 'GET', url, headers });

describe('KPIs API', () => {
  it('refuses bad input with 400 and Vietnamese messages per field', async () => {
    const empty = await post({ name: '', measure: '', target: '', period: '', start_date: '', assignee: { type: 'user', id: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const fields = Object.fromEntries(empty.json<{ details: { field: string; message: string }[] }>().details.map((d) => [d.field, d.message]));
    expect(fields).toEqual({ name: MSG.required, measure: MSG.required, target: MSG.required, period: MSG.required, start_date: MSG.required, 'assignee.id': MSG.required });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ target: 0 }, 'target', KPI_MSG.targetPositive],
      [{ target: -3 }, 'target', KPI_MSG.targetPositive],
      [{ start_date: '2020-01-01' }, 'start_date', KPI_MSG.startInPast],
      [{ assignee: { type: 'team', id: 999999 } }, 'assignee.id', KPI_MSG.unknownAssignee],
    ];
    for (const [o, field, message] of cases) {
      const res = await post(kpi(o));
      expect([res.statusCode, res.json().details]).toEqual([400, [{ field, message }]]);
    }
  });

  it('creates, lists with filters, edits and deletes', async () => {
    const k = await created({ name: 'KPI tuần nhóm', period: 'week', assignee: { type: 'team', id: ids.team } });
    expect(k).toMatchObject({ name: 'KPI tuần nhóm', period: 'week', target: 10, assignee: { type: 'team', id: ids.team }, assignee_name: expect.any(String) });
    const weekly = await get('/t/demo/kpis?period=week&assignee_type=team');
    expect(weekly.json<Paged<Kpi>>().data.map((x) => x.id)).toContain(k.id);
    expect((await get('/t/demo/kpis?period=month')).json<Paged<Kpi>>().data.map((x) => x.id)).not.toContain(k.id);
    const put = await t.app.inject({ method: 'PUT', url: `/t/demo/kpis/${k.id}`, headers: h.admin, payload: { ...kpi(), target: 25, start_date: '2020-01-01' } });
    expect(put.statusCode).toBe(200);
    expect(put.json<{ data: Kpi }>().data).toMatchObject({ target: 25, start_date: '2020-01-01', period: 'day' });
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/kpis/${k.id}`, headers: h.admin })).statusCode).toBe(204);
    expect((await get(`/t/demo/kpis/${k.id}`)).statusCode).toBe(404);
  });

  it('actuals are the read model figures of the assignee extensions for the current period', async () => {
    const w = kpiWindow({ period: 'day', start_date: today }, new Date());
    const read = w.read!;
    const [ext102] = await t.db.withTenant(ids.demo, (tx) => extensionSummary(tx, { ...read, extensions: ['102'] }));
    const dept = await t.db.withTenant(ids.demo, async (tx) => {
      const { rows } = await tx.query<{ extension: string }>('select s.extension from subscribers s join users u on u.id = s.user_id where u.department_id = $1', [ids.care]);
      return legFigures(tx, { ...read, extensions: rows.map((r) => r.extension) });
    });
    const actual = async (o: Record<string, unknown>) => (await created(o)).progress.actual;
    // 102 placed k3 and k4 (outbound, internal), received k1 and k2, answered both; 95 + 30 s of talk.
    expect(await actual({ measure: 'calls_made' })).toBe(2);
    expect(await actual({ measure: 'calls_answered' })).toBe(2);
    expect(await actual({ measure: 'talk_time' })).toBe(Math.round((ext102.talk_sec / 60) * 10) / 10);
    expect(await actual({ measure: 'answer_rate', target: 90 })).toBe(Math.round(ext102.answer_rate * 1000) / 10);
    expect(await actual({ measure: 'avg_handle_time', target: 120 })).toBe(ext102.avg_talk_sec);
    expect(ext102).toMatchObject({ calls: 4, answered: 2, talk_sec: 125 });
    // Per leg, the read model splits exactly the per-extension summary's figures.
    const legs = await t.db.withTenant(ids.demo, (tx) => legFigures(tx, { ...read, extensions: ['102'] }));
    expect(legs.all).toEqual(Object.fromEntries(Object.keys(legs.all).map((k) => [k, ext102[k as keyof typeof ext102]])));
    expect([legs.placed.calls, legs.received.calls, legs.placed.calls + legs.received.calls]).toEqual([2, 2, ext102.calls]);
    const d = await created({ measure: 'calls_answered', assignee: { type: 'department', id: ids.care } });
    expect(d.progress.actual).toBe(dept.received.answered);
    expect(d.progress).toMatchObject({ period_from: today, period_to: today });
  });

  it('keeps tenants apart', async () => {
    const k = await created({ name: 'Riêng demo' });
    expect((await get(`/t/abc/kpis/${k.id}`, h.abcAdmin)).statusCode).toBe(404);
    expect((await get('/t/abc/kpis', h.abcAdmin)).json<Paged<Kpi>>().data.map((x) => x.id)).not.toContain(k.id);
    const put = await t.app.inject({ method: 'PUT', url: `/t/abc/kpis/${k.id}`, headers: h.abcAdmin, payload: kpi({ assignee: { type: 'user', id: 1 } }) });
    expect([400, 404]).toContain(put.statusCode);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/abc/kpis/${k.id}`, headers: h.abcAdmin })).statusCode).toBe(404);
    // A demo user named in an abc KPI is no user of abc: refused.
    const foreign = await t.app.inject({ method: 'POST', url: '/t/abc/kpis', headers: h.abcAdmin, payload: kpi({ assignee: { type: 'user', id: ids.staffId } }) });
    expect([foreign.statusCode, foreign.json().details]).toEqual([400, [{ field: 'assignee.id', message: KPI_MSG.unknownAssignee }]]);
  });

  it('an agent without kpi.view sees only their own, their team and department KPIs, and may not write', async () => {
    const mine = await created({ name: 'Của nhân viên' });
    const team = await created({ name: 'Của nhóm', assignee: { type: 'team', id: ids.team } });
    const dept = await created({ name: 'Của phòng', assignee: { type: 'department', id: ids.care } });
    const other = await created({ name: 'Của quản trị', assignee: { type: 'user', id: ids.adminId } });
    const seen = (await get('/t/demo/kpis?per_page=100', h.staff)).json<Paged<Kpi>>().data.map((x) => x.id);
    expect(seen).toEqual(expect.arrayContaining([mine.id, team.id, dept.id]));
    expect(seen).not.toContain(other.id);
    expect((await get(`/t/demo/kpis/${other.id}`, h.staff)).statusCode).toBe(404);
    expect((await post(kpi(), h.staff)).statusCode).toBe(403);
    const byDept = (await get('/t/demo/kpis/by-department', h.staff)).json<KpiByDepartmentResponse>();
    expect(byDept.data.flatMap((d) => d.kpis.map((k) => k.id))).toContain(dept.id);
    expect(byDept.data.every((d) => d.department_id === ids.care)).toBe(true);
  });
});
