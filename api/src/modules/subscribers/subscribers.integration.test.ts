import { createHash } from 'node:crypto';
import { ERROR_MESSAGES, MSG, PBX_MSG, SUBSCRIBER_MSG } from '@tongdai/contracts';
import { DEMO_SIP } from '../../db/seed-data';
import { INTERNAL_HEADERS, startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

describe('subscribers, SIP account and call log (tenant surface)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = (url: string, headers = admin) => t.app.inject({ url, headers });
  const post = (url: string, payload: unknown, headers = admin) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

  it('lists the seeded extensions, 10 per page, without passwords', async () => {
    const res = await get('/t/demo/subscribers');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, per_page: 10, total: 2 });
    expect(body.data.map((s: { extension: string }) => s.extension)).toEqual(['101', '102']);
    expect(body.data[0]).toEqual({ id: expect.any(Number), extension: '101', display_name: 'Quản trị viên', user_id: expect.any(Number), user_name: 'Quản trị viên', created_at: expect.any(String), registered: false, ring_time: null, voicemail_enabled: false, voicemail_pin: null, voicemail_greeting_id: null, voicemail_max_seconds: 120, recording_mode: null });
    expect(res.body).not.toContain(DEMO_SIP.demo.admin.password);
    expect((await get('/t/demo/subscribers?search=102')).json().meta.total).toBe(1);
    expect((await get('/t/demo/subscribers?search=%25')).json().meta.total).toBe(0);
  });

  it('shows which extensions a phone is registered with now, from the one registration store (ADR 0038)', async () => {
    const internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub } });
    const report = (user: string, expires: number) =>
      internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires } });
    const registered = async () => (await get('/t/demo/subscribers')).json().data.map((s: { extension: string; registered: boolean }) => [s.extension, s.registered]);
    try {
      expect((await report('102', 60)).statusCode).toBe(200);
      expect(await registered()).toEqual([['101', false], ['102', true]]);
      expect((await report('102', 0)).statusCode).toBe(200);
      expect(await registered()).toEqual([['101', false], ['102', false]]);
    } finally {
      await internal.close();
    }
  });

  it('creates with a generated password shown once, edits, resets and deletes', async () => {
    const created = await post('/t/demo/subscribers', { extension: '2001', display_name: 'Lễ tân' });
    expect(created.statusCode).toBe(201);
    const s = created.json().data;
    expect(s).toMatchObject({ extension: '2001', display_name: 'Lễ tân', user_id: null, user_name: null });
    expect(s.password).toMatch(/^[A-Za-z0-9]{16}$/);
    const read = (await get(`/t/demo/subscribers/${s.id}`)).json().data;
    expect(read).not.toHaveProperty('password');
    expect(JSON.stringify((await get('/t/demo/subscribers?per_page=100')).json())).not.toContain(s.password);

    const updated = await t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${s.id}`, headers: admin, payload: { extension: '2002', display_name: 'Lễ tân tầng 1', user_id: '' } });
    expect([updated.statusCode, updated.json().data]).toEqual([200, { ...read, extension: '2002', display_name: 'Lễ tân tầng 1' }]);

    const reset = await post(`/t/demo/subscribers/${s.id}/reset-password`, {});
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(reset.json().data.password).not.toBe(s.password);

    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/subscribers/${s.id}`, headers: admin })).statusCode).toBe(204);
    const gone = await get(`/t/demo/subscribers/${s.id}`);
    expect([gone.statusCode, gone.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    expect((await get('/t/demo/subscribers/abc')).statusCode).toBe(404);
  });

  it('keeps an extension the PBX still uses: no delete, no renumbering (409 naming the user), nothing changed', async () => {
    // As the list shows it, less whether it is registered now (the list's alone).
    const { registered: _now, ...ext101 } = (await get('/t/demo/subscribers?search=101')).json().data[0];
    const inUse = PBX_MSG.inUse('Nhóm đổ chuông "Kinh doanh"');
    const del = await t.app.inject({ method: 'DELETE', url: `/t/demo/subscribers/${ext101.id}`, headers: admin });
    expect([del.statusCode, del.json().code, del.json().message]).toEqual([409, 'CONFLICT', inUse]);
    const renumber = await t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${ext101.id}`, headers: admin, payload: { extension: '199', display_name: 'x', user_id: ext101.user_id } });
    expect([renumber.statusCode, renumber.json().message]).toEqual([409, inUse]);
    expect((await get(`/t/demo/subscribers/${ext101.id}`)).json().data).toEqual(ext101);
    const rename = await t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${ext101.id}`, headers: admin, payload: { extension: '101', display_name: ext101.display_name, user_id: ext101.user_id } });
    expect(rename.statusCode).toBe(200);
  });

  it('validates the extension and refuses duplicates per field, but the same number in another tenant is fine', async () => {
    const bad = await post('/t/demo/subscribers', { extension: '1a', display_name: '' });
    expect([bad.statusCode, bad.json().details]).toEqual([
      400,
      [
        { field: 'extension', message: SUBSCRIBER_MSG.extensionFormat },
        { field: 'display_name', message: MSG.required },
      ],
    ]);
    const dup = await post('/t/demo/subscribers', { extension: '101', display_name: 'Trùng' });
    expect([dup.statusCode, dup.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: SUBSCRIBER_MSG.extensionTaken, details: [{ field: 'extension', message: SUBSCRIBER_MSG.extensionTaken }] }]);
    const linked = (await get('/t/demo/subscriber-has-user')).json().data as { user_id: number; extension: string }[];
    const owner = linked.find((x) => x.extension === '102')!.user_id;
    const taken = await post('/t/demo/subscribers', { extension: '3001', display_name: 'Hai máy', user_id: owner });
    expect([taken.statusCode, taken.json().details]).toEqual([409, [{ field: 'user_id', message: SUBSCRIBER_MSG.userTaken }]]);
    // abc's admin is not a user of demo: "does not exist", not a foreign key leak.
    const abcOwner = ((await get('/t/abc/subscriber-has-user', abcAdmin)).json().data as { user_id: number }[])[0].user_id;
    const foreign = await post('/t/demo/subscribers', { extension: '3002', display_name: 'Người ngoài', user_id: abcOwner });
    expect([foreign.statusCode, foreign.json().details]).toEqual([400, [{ field: 'user_id', message: SUBSCRIBER_MSG.userNotFound }]]);
    const abcNew = await post('/t/abc/subscribers', { extension: '102', display_name: 'Cùng số với demo' }, abcAdmin);
    expect(abcNew.statusCode).toBe(201);
  });

  it('enforces the subscriber permissions (nhanvien: 403) and hides other tenants (404)', async () => {
    expect((await get('/t/demo/subscribers', staff)).json()).toEqual({ status: 403, code: 'FORBIDDEN', message: ERROR_MESSAGES.FORBIDDEN });
    expect((await post('/t/demo/subscribers', { extension: '4001', display_name: 'X' }, staff)).statusCode).toBe(403);
    const demo101 = (await get('/t/demo/subscribers?search=101')).json().data[0].id;
    expect((await post(`/t/demo/subscribers/${demo101}/reset-password`, {}, staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/demo/subscribers/${demo101}`, headers: staff })).statusCode).toBe(403);
    // abc's admin asking for demo's row through its own tenant: invisible under RLS.
    expect((await get(`/t/abc/subscribers/${demo101}`, abcAdmin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/t/abc/subscribers/${demo101}`, headers: abcAdmin, payload: { extension: '999', display_name: 'x' } })).statusCode).toBe(404);
    expect((await post(`/t/abc/subscribers/${demo101}/reset-password`, {}, abcAdmin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/t/abc/subscribers/${demo101}`, headers: abcAdmin })).statusCode).toBe(404);
    expect((await get('/t/demo/subscribers', abcAdmin)).statusCode).toBe(401);
  });

  it('needs the purchased PBX feature for the admin routes, not for the own SIP account', async () => {
    await t.db.withSystem((tx) => tx.query("update payment_checks set feature_name_data = array_remove(feature_name_data, 'pbx') where tenant_id = (select id from tenants where ma_dn = 'abc')"));
    expect((await get('/t/abc/subscribers', abcAdmin)).json()).toEqual({ status: 403, code: 'FEATURE_NOT_PURCHASED', message: ERROR_MESSAGES.FEATURE_NOT_PURCHASED });
    expect((await get('/t/abc/sip-account', abcAdmin)).statusCode).toBe(200);
    await t.db.withSystem((tx) => tx.query("update payment_checks set feature_name_data = array_append(feature_name_data, 'pbx') where tenant_id = (select id from tenants where ma_dn = 'abc')"));
    expect((await get('/t/abc/subscribers', abcAdmin)).statusCode).toBe(200);
  });

  it('gives each user their own SIP account in their tenant domain', async () => {
    const mine = await get('/t/demo/sip-account');
    expect([mine.statusCode, mine.json().data]).toEqual([
      200,
      { provider: 1, username_telecom: '101', domain_telecom: 'demo.tongdai.local', password_telecom: DEMO_SIP.demo.admin.password, ws_url: 'ws://127.0.0.1:8088', display_name: 'Quản trị viên' },
    ]);
    expect((await get('/t/demo/sip-account', staff)).json().data).toMatchObject({ username_telecom: '102', password_telecom: DEMO_SIP.demo.staff.password });
    expect((await get('/t/abc/sip-account', abcAdmin)).json().data).toMatchObject({ username_telecom: '101', domain_telecom: 'abc.tongdai.local', password_telecom: DEMO_SIP.abc.admin.password });
    expect((await get('/t/demo/sip-account', {})).statusCode).toBe(401);
  });

  it('answers 404 for a user without an extension', async () => {
    const linked = (await get('/t/demo/subscriber-has-user')).json().data as { id: number; extension: string; user_id: number; display_name: string }[];
    const s102 = linked.find((x) => x.extension === '102')!;
    await t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${s102.id}`, headers: admin, payload: { extension: '102', display_name: s102.display_name, user_id: null } });
    expect((await get('/t/demo/sip-account', staff)).statusCode).toBe(404);
    await t.app.inject({ method: 'PUT', url: `/t/demo/subscribers/${s102.id}`, headers: admin, payload: { extension: '102', display_name: s102.display_name, user_id: s102.user_id } });
    expect((await get('/t/demo/sip-account', staff)).statusCode).toBe(200);
  });

  it('logs dialled numbers per user (POST create-histories-call); GET /histories-call reads the call records (recent-calls test)', async () => {
    const a = await post('/t/demo/create-histories-call', { phone: '0912345678' });
    expect([a.statusCode, a.json().data]).toEqual([201, { id: expect.any(Number), phone: '0912345678', direction: 'outgoing', user_id: expect.any(Number), created_at: expect.any(String) }]);
    expect((await post('/t/demo/create-histories-call', { phone: '102', direction: 'incoming' })).statusCode).toBe(201);
    expect((await post('/t/abc/create-histories-call', { phone: '0900000000' }, abcAdmin)).statusCode).toBe(201);
    // A dial the browser logged is not a call that happened: the recent list does not show it.
    expect(JSON.stringify((await get('/t/demo/histories-call')).json().data)).not.toContain('0912345678');
    const bad = await post('/t/demo/create-histories-call', { phone: 'abc' });
    expect([bad.statusCode, bad.json().details]).toEqual([400, [{ field: 'phone', message: MSG.phoneFormat }]]);
    expect((await post('/t/demo/create-histories-call', {})).json().details).toEqual([{ field: 'phone', message: MSG.required }]);
  });
});

describe('internal SIP credentials listener', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers the digest HA1 per (extension, tenant domain) in plain text, never the password; 404 otherwise', async () => {
    const internal = buildInternalServer(t.db);
    const ask = (user: string, domain: string) => internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/credentials?user=${user}&domain=${domain}` });
    const ha1 = (user: string, realm: string, password: string) => createHash('md5').update(`${user}:${realm}:${password}`).digest('hex');
    const demo = await ask('101', 'demo.tongdai.local');
    expect([demo.statusCode, demo.headers['content-type'], demo.body]).toEqual([200, 'text/plain', ha1('101', 'demo.tongdai.local', DEMO_SIP.demo.admin.password)]);
    expect(demo.body).not.toContain(DEMO_SIP.demo.admin.password);
    expect((await ask('101', 'abc.tongdai.local')).body).toBe(ha1('101', 'abc.tongdai.local', DEMO_SIP.abc.admin.password));
    expect((await ask('999', 'demo.tongdai.local')).statusCode).toBe(404);
    expect((await ask('101', 'nope.tongdai.local')).statusCode).toBe(404);
    expect((await ask('101', 'demo.example.com')).statusCode).toBe(404);
    expect((await ask("101'", 'demo.tongdai.local')).statusCode).toBe(404);
    expect((await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/credentials' })).statusCode).toBe(404);
    await internal.close();
  });

  it('is never served by the public API', async () => {
    const res = await t.app.inject({ url: '/internal/sip/credentials?user=101&domain=demo.tongdai.local' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(DEMO_SIP.demo.admin.password);
  });

  it('refuses an extension whose account is locked', async () => {
    await t.db.withSystem((tx) => tx.query("update users set status = 'locked' where username = 'nhanvien'"));
    const internal = buildInternalServer(t.db);
    expect((await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/credentials?user=102&domain=demo.tongdai.local' })).statusCode).toBe(404);
    await internal.close();
  });
});
