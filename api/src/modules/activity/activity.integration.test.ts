import type { FastifyInstance } from 'fastify';
import type { ActivityDayRow, ActivityTimeline, Paged } from '@tongdai/contracts';
import { vnDay } from '@tongdai/contracts';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { bearer, DEMO, demoHeaders, INTERNAL_HEADERS, login, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

/**
 * User activity (issue 14) on a real PostgreSQL: events written by real logins, logouts, status
 * changes and Kamailio's registration reports; days summed in Asia/Ho_Chi_Minh across midnight;
 * calls handled from the reports read model; scopes, tenant isolation, append-only.
 */
const at = (local: string) => new Date(`${local}+07:00`);
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let internal: FastifyInstance;
let ids: { demo: number; abc: number; admin: number; staff: number };
const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  internal = buildInternalServer(t.db, { calls: { lapseCheckMs: 50 } });
  const tenants = Object.fromEntries((await sys<{ id: number; ma_dn: string }>('select id, ma_dn from tenants')).map((r) => [r.ma_dn, r.id]));
  const users = await sys<{ id: number; username: string }>('select id, username from users where tenant_id = $1', [tenants.demo]);
  const idOf = (u: string) => users.find((r) => r.username === u)!.id;
  ids = { demo: tenants.demo, abc: tenants.abc, admin: idOf(DEMO.admin.username), staff: idOf(DEMO.staff.username) };
});
afterAll(async () => {
  await internal?.close();
  await t?.close();
});

const get = (url: string, headers = h.admin) => t.app.inject({ method: 'GET', url, headers });
async function rows(query: string, headers = h.admin): Promise<Paged<ActivityDayRow>> {
  const res = await get(`/t/demo/activity/users?${query}`, headers);
  expect(res.statusCode).toBe(200);
  return res.json();
}
const eventsOf = (userId: number) =>
  sys<{ kind: string; status: number | null; extension: string | null; reason: string }>(
    'select kind, status, extension, reason from user_activity_events where user_id = $1 order by id', [userId]);

describe('events recorded by the real calls', () => {
  it('records a login with its status, each status change and the logout', async () => {
    const before = (await eventsOf(ids.staff)).length;
    const token = await login(t.app, 'demo', DEMO.staff);
    const put = (status: number) => t.app.inject({ method: 'PUT', url: '/t/demo/update-activity-status', headers: bearer(token), payload: { status } });
    expect((await put(2)).statusCode).toBe(200);
    expect((await put(3)).statusCode).toBe(200);
    expect((await put(1)).statusCode).toBe(200);
    expect((await put(1)).statusCode).toBe(200); // the same status again: not a change
    expect((await t.app.inject({ method: 'POST', url: '/t/demo/logout', headers: bearer(token) })).statusCode).toBe(204);
    const added = (await eventsOf(ids.staff)).slice(before);
    expect(added.map((e) => [e.kind, e.status])).toEqual([['login', 1], ['status', 2], ['status', 3], ['status', 1], ['logout', null]]);

    const today = vnDay(new Date());
    const { data } = await rows(`from=${today}&to=${today}&user_id=${ids.staff}`);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ user_id: ids.staff, day: today, status_changes: expect.any(Number) });
    expect(data[0].status_changes).toBeGreaterThanOrEqual(3);
    expect(data[0].first_login).not.toBeNull();
    expect(Date.parse(data[0].last_logout!)).toBeGreaterThanOrEqual(Date.parse(data[0].first_login!));
  });

  it("records Kamailio's registration reports: begun once, refreshes not repeated, ended explicitly or at expiry", async () => {
    const report = (expires: number) =>
      internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user: '101', domain: 'demo.tongdai.local', expires } });
    const before = (await eventsOf(ids.admin)).length;
    expect((await report(60)).statusCode).toBe(200);
    expect((await report(60)).statusCode).toBe(200); // a refresh
    expect((await report(0)).statusCode).toBe(200);
    expect((await report(1)).statusCode).toBe(200); // nobody refreshes it: lapses after 1 s
    let added: Awaited<ReturnType<typeof eventsOf>> = [];
    for (let i = 0; i < 100 && added.length < 4; i++) {
      added = (await eventsOf(ids.admin)).slice(before).filter((e) => e.extension === '101');
      if (added.length < 4) await new Promise((r) => setTimeout(r, 50));
    }
    expect(added.map((e) => [e.kind, e.reason])).toEqual([['registered', ''], ['unregistered', ''], ['registered', ''], ['unregistered', 'expired']]);
  });
});

describe('days in Asia/Ho_Chi_Minh', () => {
  beforeAll(async () => {
    // One evening across midnight (events at chosen instants, as the recorder writes them).
    const add = (kind: string, local: string, o: { status?: number; extension?: string; session?: string } = {}) =>
      t.db.withTenant(ids.demo, (tx) =>
        tx.query('insert into user_activity_events (tenant_id, user_id, kind, at, status, extension, session_id) values ($1, $2, $3, $4, $5, $6, $7)', [
          ids.demo, ids.admin, kind, at(local), o.status ?? null, o.extension ?? null, o.session ?? null,
        ]),
      );
    const session = '00000000-0000-4000-8000-000000000028';
    await add('login', '2026-02-10T23:00:00', { status: 1, session });
    await add('registered', '2026-02-10T23:00:00', { extension: '101' });
    await add('status', '2026-02-10T23:30:00', { status: 2 });
    await add('logout', '2026-02-11T00:30:00', { session });
    await add('unregistered', '2026-02-11T01:00:00', { extension: '101' });
    const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
    const started = at('2026-02-10T23:50:00');
    writer.add({
      tenant_id: ids.demo, call_id: 'activity-1', caller: '0901000001', callee: '02873000001', did: null, direction: 'inbound', route: [], ring_group_id: null,
      queue_id: null, extension: '101', trunk: null, started_at: started, answered_at: new Date(started.getTime() + 5000), ended_at: new Date(started.getTime() + 65_000),
      duration: 65, billsec: 60, disposition: 'ANSWERED', sip_code: 200, reason: '',
    } as CdrRow);
    await writer.flush();
  });

  it('splits durations at midnight Vietnam time and takes calls handled from the read model', async () => {
    const { data, meta } = await rows(`from=2026-02-10&to=2026-02-11&user_id=${ids.admin}`);
    expect(meta.total).toBe(2);
    const [d11, d10] = data;
    expect(d10).toMatchObject({
      day: '2026-02-10', first_login: at('2026-02-10T23:00:00').toISOString(), last_logout: null,
      registered_sec: 3600, status_sec: { 1: 1800, 2: 1800, 3: 0 }, status_changes: 1, calls_handled: 1, extension: '101',
    });
    expect(d11).toMatchObject({
      day: '2026-02-11', first_login: null, last_logout: at('2026-02-11T00:30:00').toISOString(),
      registered_sec: 3600, status_sec: { 1: 0, 2: 1800, 3: 0 }, status_changes: 0, calls_handled: 0,
    });
  });

  it("draws one user's day as periods clipped to the day", async () => {
    const res = await get(`/t/demo/activity/timeline?user_id=${ids.admin}&day=2026-02-11`);
    expect(res.statusCode).toBe(200);
    const tl: ActivityTimeline = res.json().data;
    const day = at('2026-02-11T00:00:00').toISOString();
    expect(tl.sessions).toEqual([{ from: day, to: at('2026-02-11T00:30:00').toISOString(), end: 'logout' }]);
    expect(tl.statuses).toEqual([{ from: day, to: at('2026-02-11T00:30:00').toISOString(), status: 2 }]);
    expect(tl.registered).toEqual([{ from: day, to: at('2026-02-11T01:00:00').toISOString(), extension: '101' }]);
    expect(tl.events.map((e) => e.kind)).toEqual(['logout', 'unregistered']);
  });

  it('exports the same rows as CSV (report.export)', async () => {
    const res = await get(`/t/demo/activity/users/export.csv?from=2026-02-10&to=2026-02-11&user_id=${ids.admin}`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Ngày,Người dùng,Máy nhánh,Phòng ban,Nhóm,Đăng nhập đầu,Đăng xuất cuối,Thời gian đăng ký SIP,Sẵn sàng,Tạm nghỉ,Ngừng nhận cuộc gọi,Số lần đổi trạng thái,Cuộc gọi đã xử lý');
    expect(lines.slice(1).map((l) => l.split(',').slice(5))).toEqual([
      ['', '00:30:00', '1:00:00', '0:00:00', '0:30:00', '0:00:00', '0', '0'],
      ['23:00:00', '', '1:00:00', '0:30:00', '0:30:00', '0:00:00', '1', '1'],
    ]);
    expect((await get(`/t/demo/activity/users/export.xlsx?from=2026-02-10&to=2026-02-10`)).statusCode).toBe(200);
    expect((await get(`/t/demo/activity/users/export.csv?from=2026-02-10&to=2026-02-10`, h.staff)).statusCode).toBe(403);
  });
});

describe('who sees what', () => {
  it('shows an agent without activity.view only themselves', async () => {
    const today = vnDay(new Date());
    const { data } = await rows(`from=2026-02-10&to=${today}`, h.staff);
    expect(data.length).toBeGreaterThan(0);
    // Someone outside their scope reads like an unknown account.
    expect((await get(`/t/demo/activity/users?from=2026-02-10&to=${today}&user_id=${ids.admin}`, h.staff)).statusCode).toBe(400);
    expect(data.every((r) => r.user_id === ids.staff)).toBe(true);
    expect((await get(`/t/demo/activity/timeline?user_id=${ids.admin}&day=2026-02-10`, h.staff)).statusCode).toBe(403);
    expect((await get('/t/demo/activity/options', h.staff)).json().data.users.map((u: { id: number }) => u.id)).toEqual([ids.staff]);
    expect((await get('/t/demo/activity/options')).json().data.users.length).toBeGreaterThanOrEqual(2);
  });

  it('finds people by name or extension', async () => {
    expect((await rows('from=2026-02-10&to=2026-02-11&search=101')).data.map((r) => r.user_id)).toEqual([ids.admin, ids.admin]);
    expect((await rows('from=2026-02-10&to=2026-02-11&search=khong-ai')).data).toEqual([]);
  });

  it("never shows one tenant's events to another", async () => {
    const abc = await t.app.inject({ method: 'GET', url: `/t/abc/activity/users?from=2026-02-10&to=2026-02-11`, headers: h.abcAdmin });
    expect(abc.statusCode).toBe(200);
    expect((abc.json() as Paged<ActivityDayRow>).data.map((r) => r.day)).not.toContain('2026-02-10');
    expect((await t.app.inject({ method: 'GET', url: `/t/abc/activity/timeline?user_id=${ids.admin}&day=2026-02-10`, headers: h.abcAdmin })).statusCode).toBe(400);
    const seen = await t.db.withTenant(ids.abc, (tx) => tx.query<{ n: number }>('select count(*)::int as n from user_activity_events where user_id = $1', [ids.admin]));
    expect(seen.rows[0].n).toBe(0);
    expect((await get('/t/demo/activity/users', h.abcAdmin)).statusCode).toBe(401);
  });

  it('refuses a bad range with a Vietnamese message', async () => {
    const res = await get('/t/demo/activity/users?from=2026-02-11&to=2026-02-10');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');
    expect(res.json().details[0]).toMatchObject({ field: 'to', message: 'Ngày kết thúc phải sau hoặc bằng ngày bắt đầu' });
  });
});

describe('append-only', () => {
  it('lets the app insert and read events but never change or remove one', async () => {
    const update = t.db.withTenant(ids.demo, (tx) => tx.query("update user_activity_events set kind = 'login' where user_id = $1", [ids.admin]));
    await expect(update).rejects.toThrow(/permission denied|append-only/);
    const remove = t.db.withTenant(ids.demo, (tx) => tx.query('delete from user_activity_events where user_id = $1', [ids.admin]));
    await expect(remove).rejects.toThrow(/permission denied|append-only/);
    // Even the role that bypasses row security cannot.
    await expect(sys("update user_activity_events set reason = 'x'")).rejects.toThrow(/permission denied|append-only/);
    const [grants] = await sys<{ u: boolean; d: boolean; i: boolean }>(
      "select has_table_privilege('app_user', 'user_activity_events', 'UPDATE') as u, has_table_privilege('app_user', 'user_activity_events', 'DELETE') as d, has_table_privilege('app_user', 'user_activity_events', 'INSERT') as i");
    expect(grants).toEqual({ u: false, d: false, i: true });
  });

  it("goes with its tenant (the foreign key's cascade is the one delete allowed)", async () => {
    const [tenant] = await sys<{ id: number }>("insert into tenants (ma_dn, name, max_user) values ('act0028', 'Tạm', 1) returning id");
    await t.db.withTenant(tenant.id, (tx) => tx.query("insert into user_activity_events (tenant_id, user_id, kind) values ($1, 1, 'login')", [tenant.id]));
    await sys('delete from tenants where id = $1', [tenant.id]);
    expect(await sys('select 1 from user_activity_events where tenant_id = $1', [tenant.id])).toEqual([]);
  });
});
