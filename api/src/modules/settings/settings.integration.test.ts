import { ERROR_MESSAGES, MSG, SITE_MSG } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, type TestApp } from '../../../test/helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');

/** A multipart body by hand: no form-data dependency for two fields. */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----tongdai' + Date.now();
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('settings (tenant surface)', () => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t.app, 'demo', DEMO.admin);
    staff = await login(t.app, 'demo', DEMO.staff);
  });
  afterAll(() => t.close());
  const as = (token: string) => ({
    get: (url: string) => t.app.inject({ url: `/t/demo${url}`, headers: bearer(token) }),
    put: (url: string, payload: object) => t.app.inject({ method: 'PUT', url: `/t/demo${url}`, headers: bearer(token), payload }),
    post: (url: string, body: { payload: Buffer; headers: Record<string, string> }) =>
      t.app.inject({ method: 'POST', url: `/t/demo${url}`, payload: body.payload, headers: { ...bearer(token), ...body.headers } }),
  });
  const forbidden = { status: 403, code: 'FORBIDDEN', message: ERROR_MESSAGES.FORBIDDEN };

  describe('site information', () => {
    it('defaults to the tenant name without a logo', async () => {
      expect((await as(staff).get('/change-info-site')).json().data).toEqual({ name: 'Công ty TNHH Tổng Đài Demo', logo_url: null });
    });

    it('saves name and logo (multipart) and serves the logo publicly with a sandboxing CSP', async () => {
      const res = await as(admin).post('/change-info-site', multipart({ name: 'Tổng Đài Demo Mới' }, { name: 'logo.png', type: 'image/png', bytes: PNG }));
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ name: 'Tổng Đài Demo Mới', logo_url: expect.stringMatching(/^site-logo\?v=\d+$/) });
      const logo = await t.app.inject({ url: '/t/demo/site-logo' });
      expect([logo.statusCode, logo.headers['content-type']]).toEqual([200, 'image/png']);
      expect(logo.rawPayload.equals(PNG)).toBe(true);
      expect(logo.headers['content-security-policy']).toContain('sandbox');
      // A name-only change keeps the logo; SVG is accepted and typed by its content.
      await as(admin).post('/change-info-site', multipart({ name: 'Tên Khác' }));
      expect((await as(admin).get('/change-info-site')).json().data.logo_url).not.toBeNull();
      await as(admin).post('/change-info-site', multipart({ name: 'Tên Khác' }, { name: 'a.svg', type: 'image/svg+xml', bytes: SVG }));
      expect((await t.app.inject({ url: '/t/demo/site-logo' })).headers['content-type']).toBe('image/svg+xml');
      // Other tenants are untouched.
      expect((await t.app.inject({ url: '/t/abc/site-logo' })).statusCode).toBe(404);
    });

    it('refuses a logo over 1 MB, a file that is not an image, and an empty name', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
      const tooBig = await as(admin).post('/change-info-site', multipart({ name: 'X' }, { name: 'big.png', type: 'image/png', bytes: big }));
      expect([tooBig.statusCode, tooBig.json().details]).toEqual([400, [{ field: 'logo', message: SITE_MSG.logoTooLarge }]]);
      const text = await as(admin).post('/change-info-site', multipart({ name: 'X' }, { name: 'logo.png', type: 'image/png', bytes: Buffer.from('xin chào') }));
      expect([text.statusCode, text.json().details]).toEqual([400, [{ field: 'logo', message: SITE_MSG.logoType }]]);
      const noName = await as(admin).post('/change-info-site', multipart({ name: '  ' }));
      expect([noName.statusCode, noName.json().details[0].field]).toEqual([400, 'name']);
    });

    it('lets only setting.edit change it', async () => {
      const res = await as(staff).post('/change-info-site', multipart({ name: 'Hack' }));
      expect([res.statusCode, res.json()]).toEqual([403, forbidden]);
    });
  });

  describe('system settings', () => {
    it('reads and updates; the provider is normalised', async () => {
      const body = { hidden_phone_customer: 1, position_hidden_phone_customer: '3', show_popup_customer: 0, voice_over_internet_protocol: 2 };
      const res = await as(admin).put('/update-system-setting', body);
      expect(res.statusCode).toBe(200);
      const expected = { hidden_phone_customer: 1, position_hidden_phone_customer: 3, show_popup_customer: 0, voice_over_internet_protocol: 2 };
      expect(res.json().data).toEqual(expected);
      expect((await as(staff).get('/get-system-setting')).json().data).toEqual(expected);
      await as(admin).put('/update-system-setting', { ...expected, hidden_phone_customer: 0 });
    });

    it('does not read "" as 0, and keeps the settings as they were (issue 12 §6)', async () => {
      const before = (await as(admin).get('/get-system-setting')).json().data;
      for (const field of ['hidden_phone_customer', 'position_hidden_phone_customer', 'show_popup_customer', 'voice_over_internet_protocol']) {
        const res = await as(admin).put('/update-system-setting', { ...before, [field]: '' });
        expect([field, res.statusCode, res.json().details]).toEqual([field, 400, [{ field, message: MSG.required }]]);
      }
      expect((await as(admin).get('/get-system-setting')).json().data).toEqual(before);
    });

    it('validates and refuses nhanvien with 403', async () => {
      const bad = await as(admin).put('/update-system-setting', { hidden_phone_customer: 5, position_hidden_phone_customer: -1, show_popup_customer: 1, voice_over_internet_protocol: 9 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['hidden_phone_customer', 'position_hidden_phone_customer', 'voice_over_internet_protocol']);
      const res = await as(staff).put('/update-system-setting', { hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 });
      expect([res.statusCode, res.json()]).toEqual([403, forbidden]);
    });
  });

  describe('phone masking', () => {
    const setMask = (on: number, position = 0) =>
      as(admin).put('/update-system-setting', { hidden_phone_customer: on, position_hidden_phone_customer: position, show_popup_customer: 1, voice_over_internet_protocol: 1 });
    afterAll(() => setMask(0));

    it('masks the list for everybody, the detail only for those who cannot edit', async () => {
      const plain = (await as(admin).get('/customers')).json().data[0];
      expect(plain.phone).toMatch(/^\d{10}$/);
      await setMask(1);
      for (const token of [admin, staff]) {
        const rows = (await as(token).get('/customers')).json().data as { phone: string }[];
        expect(rows.every((r) => /^\d{3}\*\*\*\d{4}$/.test(r.phone))).toBe(true);
      }
      expect((await as(admin).get(`/customers/${plain.id}`)).json().data.phone).toBe(plain.phone);
      await setMask(1, 6);
      expect((await as(admin).get('/customers')).json().data[0].phone).toBe(`${plain.phone.slice(0, 6)}***${plain.phone.slice(9)}`);
      await setMask(0);
      expect((await as(staff).get('/customers')).json().data[0].phone).toBe(plain.phone);
    });
  });

  describe('payment check gating', () => {
    it('refuses the customer API with FEATURE_NOT_PURCHASED once the payment check expired', async () => {
      const abc = await login(t.app, 'abc', DEMO.admin);
      await t.db.withSystem((tx) => tx.query("update payment_checks set date_expired = current_date - 1 where tenant_id = (select id from tenants where ma_dn = 'abc')"));
      const res = await t.app.inject({ url: '/t/abc/customers', headers: bearer(abc) });
      expect([res.statusCode, res.json().code]).toEqual([403, 'FEATURE_NOT_PURCHASED']);
      // Settings stay reachable: they are how the tenant sees what it bought.
      expect((await t.app.inject({ url: '/t/abc/payment-check', headers: bearer(abc) })).statusCode).toBe(200);
    });
  });
});
