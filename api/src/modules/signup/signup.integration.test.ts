import { Client } from 'pg';
import { FEATURES, MSG, SIGNUP_MSG } from '@tongdai/contracts';
import { bearer, login, startTestApp, type TestApp } from '../../../test/helpers';

const valid = {
  company_name: 'Công ty TNHH Đăng Ký Mới',
  ma_dn: 'dang-ky-moi',
  full_name: 'Nguyễn Văn Quản Trị',
  username: 'quantri',
  email: 'quantri@dangkymoi.vn',
  phone: '0912345678',
  password: 'MatKhau@2026',
  password_confirmation: 'MatKhau@2026',
};

describe('POST /identity/signup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  const signup = (payload: object) => t.app.inject({ method: 'POST', url: '/identity/signup', payload });
  const countTenants = async (maDn: string) =>
    (await t.db.withSystem((tx) => tx.query<{ n: number }>('select count(*)::int as n from tenants where ma_dn = $1', [maDn]))).rows[0].n;

  it('creates tenant, super-admin, settings and a 30-day trial; the admin can log in at once', async () => {
    const res = await signup(valid);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({ ma_dn: 'dang-ky-moi', username: 'quantri', date_expired: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const days = (Date.parse(res.json().data.date_expired) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000;
    expect(Math.abs(days - 30)).toBeLessThanOrEqual(1); // the server's day may differ from ours near midnight

    const token = await login(t.app, 'dang-ky-moi', { username: 'quantri', password: valid.password });
    const me = (await t.app.inject({ url: '/t/dang-ky-moi/me', headers: bearer(token) })).json().data;
    expect(me).toMatchObject({ full_name: 'Nguyễn Văn Quản Trị', tenant: { ma_dn: 'dang-ky-moi', name: 'Công ty TNHH Đăng Ký Mới' } });
    expect(me.roles.map((r: { name: string }) => r.name)).toEqual(['super-admin']);

    const payment = (await t.app.inject({ url: '/t/dang-ky-moi/payment-check', headers: bearer(token) })).json().data;
    expect([...payment.feature_name_data].sort()).toEqual(Object.values(FEATURES).sort());
    const setting = (await t.app.inject({ url: '/t/dang-ky-moi/get-system-setting', headers: bearer(token) })).json().data;
    expect(setting).toEqual({ hidden_phone_customer: 0, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 });
    const info = (await t.app.inject({ url: '/t/dang-ky-moi/user-info-login', headers: bearer(token) })).json().data;
    // No extension until a subscriber is linked (one extension identity, ADR 0015).
    expect(info).toMatchObject({ extension_code: null, role_label: 'Quản trị hệ thống', phone: '0912345678', email: 'quantri@dangkymoi.vn', status_activity: 1 });
    const customers = await t.app.inject({ url: '/t/dang-ky-moi/customers', headers: bearer(token) });
    expect([customers.statusCode, customers.json().meta.total]).toEqual([200, 0]);
  });

  it('stores the admin’s phone 84… however it is typed (ADR 0016) and answers it 0…', async () => {
    const res = await signup({ ...valid, ma_dn: 'so-dien-thoai', email: 'quantri@sodienthoai.vn', phone: '+84 912.345.678' });
    expect(res.statusCode).toBe(201);
    const token = await login(t.app, 'so-dien-thoai', { username: 'quantri', password: valid.password });
    expect((await t.app.inject({ url: '/t/so-dien-thoai/user-info-login', headers: bearer(token) })).json().data.phone).toBe('0912345678');
    const row = await t.db.withSystem((tx) =>
      tx.query<{ phone: string }>("select u.phone from users u join tenants t on t.id = u.tenant_id where t.ma_dn = 'so-dien-thoai'"));
    expect(row.rows[0].phone).toBe('84912345678');
  });

  it('refuses a taken tenant code with 409 and a field message', async () => {
    const res = await signup({ ...valid, ma_dn: 'demo', username: 'khac' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', details: [{ field: 'ma_dn', message: SIGNUP_MSG.maDnTaken }] });
  });

  it('validates every field with Vietnamese messages', async () => {
    const res = await signup({ ma_dn: 'AB', email: 'khong-phai-email', phone: '12345', password: 'ngan', password_confirmation: 'khac' });
    expect(res.statusCode).toBe(400);
    const details = Object.fromEntries(res.json().details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(details).toEqual({
      company_name: MSG.required,
      ma_dn: SIGNUP_MSG.maDnFormat,
      full_name: MSG.required,
      username: MSG.required,
      email: SIGNUP_MSG.email,
      phone: MSG.phoneFormat,
      password: SIGNUP_MSG.passwordMin,
    });
    const mismatch = await signup({ ...valid, ma_dn: 'khong-khop', password_confirmation: 'MatKhau@2027' });
    expect(mismatch.json().details).toEqual([{ field: 'password_confirmation', message: SIGNUP_MSG.passwordMismatch }]);
    for (const bad of ['co dau cach', 'chu_gach_duoi', 'x'.repeat(33), 'Hoa']) {
      expect((await signup({ ...valid, ma_dn: bad })).statusCode).toBe(bad === 'Hoa' ? 201 : 400);
    }
    expect(await countTenants('hoa')).toBe(1);
  });

  it('writes nothing when a step of the transaction fails', async () => {
    // A trigger makes the last insert (the payment check) fail for this one tenant code.
    const admin = new Client({ connectionString: t.dbUrl });
    await admin.connect();
    await admin.query(`create function fail_signup() returns trigger language plpgsql as $$
      begin if (select ma_dn from tenants where id = new.tenant_id) = 'se-that-bai' then raise exception 'boom'; end if; return new; end $$`);
    await admin.query('create trigger fail_signup before insert on payment_checks for each row execute function fail_signup()');
    try {
      const res = await signup({ ...valid, ma_dn: 'se-that-bai' });
      expect([res.statusCode, res.json().code]).toEqual([500, 'INTERNAL_ERROR']);
      expect(await countTenants('se-that-bai')).toBe(0);
      const users = await t.db.withSystem((tx) => tx.query<{ n: number }>("select count(*)::int as n from users where email = 'quantri@dangkymoi.vn'"));
      expect(users.rows[0].n).toBe(2); // the first test's admin and 'hoa', nothing from the failed one
    } finally {
      await admin.query('drop trigger fail_signup on payment_checks');
      await admin.end();
    }
  });
});
