import { ERROR_MESSAGES, MSG, PERMISSION_CATALOGUE, REFRESHED_TOKEN_HEADER } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { buildServer } from '../../server';
import { createTokenService, nowSeconds } from './tokens';

const loginUrl = '/identity/login/tenant';
const invalid = { status: 401, code: 'INVALID_CREDENTIALS', message: ERROR_MESSAGES.INVALID_CREDENTIALS };
const expired = { status: 401, code: 'SESSION_EXPIRED', message: MSG.sessionExpired };

describe('auth (identity + tenant surfaces)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ accountThrottle: { maxFailures: 3, windowMs: 60_000 } });
  });
  afterAll(() => t.close());
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

  it('logs in and answers a LoginResult', async () => {
    const res = await post(loginUrl, { ma_dn: 'demo', ...DEMO.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ token: expect.any(String), ma_dn: 'demo', tenant_name: 'Công ty TNHH Tổng Đài Demo', expires_in: 900 });
  });

  it('logs in on the tenant surface with ma_dn from the path', async () => {
    const res = await post('/t/abc/login', DEMO.staff);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.ma_dn).toBe('abc');
  });

  it('answers wrong password, unknown user and unknown tenant with the same body', async () => {
    const bodies = await Promise.all([
      post(loginUrl, { ma_dn: 'demo', username: 'nhanvien', password: 'sai-mat-khau' }),
      post(loginUrl, { ma_dn: 'demo', username: 'khong-ton-tai', password: 'x' }),
      post(loginUrl, { ma_dn: 'khong-co', username: 'admin', password: DEMO.admin.password }),
    ]);
    for (const res of bodies) expect([res.statusCode, res.json()]).toEqual([401, invalid]);
  });

  it('validates the login body with Vietnamese messages', async () => {
    const res = await post(loginUrl, { ma_dn: 'demo', username: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: 'username', message: MSG.required },
      { field: 'password', message: MSG.required },
    ]);
  });

  it('throttles an account after repeated failures, even with the right password', async () => {
    const wrong = { ma_dn: 'abc', username: 'admin', password: 'sai' };
    for (let i = 0; i < 3; i++) expect((await post(loginUrl, wrong)).statusCode).toBe(401);
    const res = await post(loginUrl, { ...wrong, password: DEMO.admin.password });
    expect([res.statusCode, res.json().code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
  });

  it('limits login attempts per IP', async () => {
    const app = await buildServer({ db: t.db, jwtSecret: TEST_JWT_SECRET, loginRateLimit: { max: 2, timeWindow: 60_000 } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await app.inject({ method: 'POST', url: loginUrl, payload: { ma_dn: 'x', username: `u${i}`, password: 'p' } })).statusCode);
    const last = await app.inject({ method: 'POST', url: '/t/demo/login', payload: { username: 'u', password: 'p' } });
    await app.close();
    expect(codes).toEqual([401, 401, 429]);
    expect(last.json()).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS', message: ERROR_MESSAGES.TOO_MANY_ATTEMPTS });
  });

  it('GET /me answers the user with roles and permission names', async () => {
    const token = await login(t.app, 'demo', DEMO.staff);
    const res = await t.app.inject({ url: '/t/demo/me', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const me = res.json().data;
    expect(me).toMatchObject({ username: 'nhanvien', tenant: { ma_dn: 'demo', name: 'Công ty TNHH Tổng Đài Demo' } });
    expect(me.roles[0]).toEqual({ id: expect.any(Number), name: 'nhan-vien', permissions: [{ name: 'customer.view' }, { name: 'customer.create' }, { name: 'customer.edit' }] });
    const admin = await t.app.inject({ url: '/t/demo/me', headers: bearer(await login(t.app, 'demo', DEMO.admin)) });
    expect(admin.json().data.roles[0].name).toBe('super-admin');
    expect(admin.json().data.roles[0].permissions).toHaveLength(PERMISSION_CATALOGUE.length);
  });

  it('refuses a request without, or with a garbage, token', async () => {
    for (const headers of [{}, bearer('abc.def.ghi')]) {
      const res = await t.app.inject({ url: '/t/demo/me', headers });
      expect([res.statusCode, res.json()]).toEqual([401, expired]);
    }
  });

  it('logout revokes the session: the token then gets 401', async () => {
    const token = await login(t.app, 'demo', DEMO.admin);
    expect((await t.app.inject({ method: 'POST', url: '/t/demo/logout', headers: bearer(token) })).statusCode).toBe(204);
    const res = await t.app.inject({ url: '/t/demo/me', headers: bearer(token) });
    expect([res.statusCode, res.json()]).toEqual([401, expired]);
  });

  it('refuses an expired token and renews an old one on x-refreshed-token', async () => {
    const token = await login(t.app, 'demo', DEMO.admin);
    const tokens = createTokenService(TEST_JWT_SECRET);
    const claims = tokens.read(token)!;
    const now = nowSeconds();
    const stale = tokens.issue(claims, now - 20 * 60, now - 20 * 60);
    const res = await t.app.inject({ url: '/t/demo/me', headers: bearer(stale) });
    expect([res.statusCode, res.json()]).toEqual([401, expired]);

    const old = tokens.issue(claims, now - 6 * 60, now - 6 * 60);
    const renewed = await t.app.inject({ url: '/t/demo/me', headers: bearer(old) });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.headers[REFRESHED_TOKEN_HEADER] as string;
    expect(tokens.read(fresh)).toMatchObject({ sid: claims.sid, iat: expect.any(Number) });
    expect(tokens.read(fresh)!.iat).toBeGreaterThanOrEqual(now);
    const young = await t.app.inject({ url: '/t/demo/me', headers: bearer(token) });
    expect(young.headers[REFRESHED_TOKEN_HEADER]).toBeUndefined();
  });

  it("reads a request's checks in one transaction: the session, the roles, the payment check, a renewal's touch (issue 38)", async () => {
    const token = await login(t.app, 'demo', DEMO.admin);
    const tokens = createTokenService(TEST_JWT_SECRET);
    const now = nowSeconds();
    const old = tokens.issue(tokens.read(token)!, now - 6 * 60, now - 6 * 60);
    const transactions = jest.spyOn(t.db, 'withTenant');
    try {
      // GET /customers: token, permission customer.view, feature customer; then the page. The roles, the
      // payment check and the masking setting are read once per tenant access version (ADR 0064): the first
      // request may read them (the first two in the checks' transaction), the next ones find them kept.
      expect((await t.app.inject({ url: '/t/demo/customers?page=1', headers: bearer(token) })).statusCode).toBe(200);
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(3);
      for (const [headers, renewed] of [[bearer(token), false], [bearer(old), true]] as const) {
        transactions.mockClear();
        const res = await t.app.inject({ url: '/t/demo/customers?page=1', headers });
        expect([res.statusCode, REFRESHED_TOKEN_HEADER in res.headers]).toEqual([200, renewed]);
        expect(transactions).toHaveBeenCalledTimes(2);
      }
    } finally {
      transactions.mockRestore();
    }
  });
});
