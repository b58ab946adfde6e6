import { ERROR_MESSAGES, PERMISSION_CATALOGUE, REFRESHED_TOKEN_HEADER } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, type TestApp } from '../../../test/helpers';

describe('control panel, settings, roles and the HTTP shell', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = bearer(await login(t.app, 'demo', DEMO.admin));
    staff = bearer(await login(t.app, 'demo', DEMO.staff));
  });
  afterAll(() => t.close());
  const get = (url: string, headers = admin) => t.app.inject({ url, headers });

  it('POST /cp/get-max-user-company-tenancy answers for the own tenant only', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/cp/get-max-user-company-tenancy', headers: admin, payload: { ma_dn: 'demo' } });
    expect([ok.statusCode, ok.json()]).toEqual([200, { data: { ma_dn: 'demo', max_user: 20, current_user: 2 } }]);
    const other = await t.app.inject({ method: 'POST', url: '/cp/get-max-user-company-tenancy', headers: admin, payload: { ma_dn: 'abc' } });
    expect([other.statusCode, other.json()]).toEqual([401, { status: 401, code: 'UNAUTHORIZED_TENANT', message: ERROR_MESSAGES.UNAUTHORIZED_TENANT }]);
    const anonymous = await t.app.inject({ method: 'POST', url: '/cp/get-max-user-company-tenancy', payload: { ma_dn: 'demo' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /get-system-setting and /payment-check', async () => {
    expect((await get('/t/demo/get-system-setting', staff)).json()).toEqual({
      data: { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 },
    });
    const pay = (await get('/t/demo/payment-check')).json().data;
    expect(pay.feature_name_data).toEqual(['customer', 'popupcustomer', 'pbx', 'report', 'survey', 'marketing', 'voiceotp']);
    expect(pay.date_expired).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('normalises a non-numeric provider to 1', async () => {
    await t.db.withSystem((tx) => tx.query(`update system_settings set voice_over_internet_protocol = 'sip'`));
    expect((await get('/t/demo/get-system-setting')).json().data.voice_over_internet_protocol).toBe(1);
  });

  it('GET /roles pages and returns all with per_page=9999999; GET /permissions', async () => {
    const page = (await get('/t/demo/roles?page=1&per_page=1')).json();
    expect(page.meta).toEqual({ page: 1, per_page: 1, total: 2 });
    const all = (await get('/t/demo/roles?page=1&per_page=9999999')).json();
    expect(all.data.map((r: { name: string }) => r.name)).toEqual(['super-admin', 'nhan-vien']);
    expect(all.data[1].permissions.map((p: { name: string }) => p.name)).toEqual(['customer.view', 'customer.create', 'customer.edit']);
    const perms = (await get('/t/demo/permissions')).json().data;
    expect(perms.map((p: { name: string }) => p.name)).toEqual(PERMISSION_CATALOGUE.map((p) => p.name));
    expect(perms[0]).toEqual({ id: expect.any(Number), name: 'customer.view', group: 'Khách hàng', label: 'Xem khách hàng' });
    expect((await get('/t/demo/roles', staff)).statusCode).toBe(403);
  });

  it('answers unknown routes with the one error body', async () => {
    const res = await get('/khong-co');
    expect([res.statusCode, res.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
  });

  it('answers malformed JSON with a 400 body, not a stack', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/identity/login/tenant', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('serves health, surface health checks and the OpenAPI document', async () => {
    expect((await get('/health')).json()).toEqual({ status: 'ok', db: 'postgres' });
    for (const p of ['cp', 'identity', 'pbx', 'telecom']) expect((await get(`/${p}/health`)).statusCode).toBe(200);
    const doc = (await get('/docs/json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/identity/login/tenant', '/t/{ma_dn}/customers', '/cp/get-max-user-company-tenancy']));
    expect((await get('/docs')).statusCode).toBeLessThan(400);
  });

  it('lets local origins read the refreshed-token header through CORS', async () => {
    const res = await t.app.inject({ url: '/health', headers: { origin: 'http://localhost:3000' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-expose-headers']).toContain(REFRESHED_TOKEN_HEADER);
    const evil = await t.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });
});
