import { createVerifier } from 'fast-jwt';
import { ERROR_MESSAGES } from '@tongdai/contracts';
import { DEMO_SIP } from '../../db/seed-data';
import { startTestApp, type TestApp, demoHeaders, bearer } from '../../../test/helpers';

/** Telecom surface (GetShopKey, shop-key bearer) and the provider 2/3 parts of GET /sip-account. */
describe('telecom API and provider-specific SIP accounts', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ url, headers });
  const setProvider = async (maDn: string, provider: 1 | 2 | 3, headers: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'PUT', url: `/t/${maDn}/update-system-setting`, headers,
      payload: { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: provider },
    });
    expect(res.statusCode).toBe(200);
  };

  it("GET /telecom/etelecom/GetShopKey gives any logged-in user their tenant's key; no session, no key", async () => {
    const key = (await get('/telecom/etelecom/GetShopKey', staff)).json().data;
    expect(key).toMatch(/^demo\.[A-Za-z0-9_-]{43}$/);
    expect((await get('/telecom/etelecom/GetShopKey', admin)).json()).toEqual({ data: key });
    expect((await get('/telecom/etelecom/GetShopKey', abcAdmin)).json().data).toMatch(/^abc\./);
    const none = await get('/telecom/etelecom/GetShopKey', {});
    expect([none.statusCode, none.json().code]).toEqual([401, 'SESSION_EXPIRED']);
  });

  it('the key is the bearer of the telecom API: it opens its own tenant only; a session token or a forged key do not', async () => {
    const demoKey = (await get('/telecom/etelecom/GetShopKey', staff)).json().data as string;
    const abcKey = (await get('/telecom/etelecom/GetShopKey', abcAdmin)).json().data as string;
    const demo = await get('/telecom/etelecom/extensions', bearer(demoKey));
    expect([demo.statusCode, demo.json().data]).toEqual([200, [{ extension: '101', display_name: 'Quản trị viên' }, { extension: '102', display_name: 'Nhân viên tổng đài' }]]);
    expect(demo.body).not.toContain(DEMO_SIP.demo.admin.password);
    expect((await get('/telecom/etelecom/extensions', bearer(abcKey))).json().data).toEqual([{ extension: '101', display_name: 'Quản trị viên ABC' }]);
    for (const headers of [{}, staff, bearer(`abc.${demoKey.split('.')[1]}`), bearer(`${demoKey}x`), bearer('nope.xyz')]) {
      const res = await get('/telecom/etelecom/extensions', headers);
      expect([res.statusCode, res.json()]).toEqual([401, { status: 401, code: 'UNAUTHORIZED', message: ERROR_MESSAGES.UNAUTHORIZED }]);
    }
  });

  it('provider 2: the SIP account also carries extentions_number, tenant_domain, extension_password and the shop key (SPEC §3)', async () => {
    await setProvider('demo', 2, admin);
    const key = (await get('/telecom/etelecom/GetShopKey', staff)).json().data;
    expect((await get('/t/demo/sip-account', staff)).json().data).toEqual({
      provider: 2, username_telecom: '102', domain_telecom: 'demo.tongdai.local', password_telecom: DEMO_SIP.demo.staff.password,
      ws_url: 'ws://127.0.0.1:8088', display_name: 'Nhân viên tổng đài',
      extentions_number: '102', tenant_domain: 'demo.tongdai.local', extension_password: DEMO_SIP.demo.staff.password, shop_key: key,
    });
    // Other tenants keep their own provider.
    expect((await get('/t/abc/sip-account', abcAdmin)).json().data).not.toHaveProperty('shop_key');
  });

  it("provider 3: an SDK access token our back end signs for the extension's Stringee user id", async () => {
    await setProvider('demo', 3, admin);
    const before = Math.floor(Date.now() / 1000);
    const account = (await get('/t/demo/sip-account', staff)).json().data;
    expect(account).toMatchObject({ provider: 3, username_telecom: '102' });
    expect(account).not.toHaveProperty('shop_key');
    const header = JSON.parse(Buffer.from(account.access_token.split('.')[0], 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT', cty: 'stringee-api;v=1' });
    // Without STRINGEE_API_KEY_* the development key is derived from the deployment secret.
    const payload = createVerifier({ key: t.app.deps.deriveKey('stringee-api-key'), algorithms: ['HS256'] })(account.access_token);
    expect(payload).toEqual({ jti: expect.stringMatching(/^SK\.tongdai-dev-\d+$/), iss: 'SK.tongdai-dev', exp: expect.any(Number), userId: 'demo_102' });
    expect(payload.exp - before).toBeGreaterThanOrEqual(3600);
    expect(payload.exp - before).toBeLessThan(3610);
    await setProvider('demo', 1, admin);
    expect((await get('/t/demo/sip-account', staff)).json().data).not.toHaveProperty('access_token');
  });
});
