import { CHANGE_PASSWORD_MSG, MSG, SIGNUP_MSG } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, type TestApp } from '../../../test/helpers';

describe('user settings (tenant surface)', () => {
  let t: TestApp;
  let staff: string;
  beforeAll(async () => {
    t = await startTestApp();
    staff = await login(t.app, 'demo', DEMO.staff);
  });
  afterAll(() => t.close());
  const put = (url: string, payload: object, token = staff) => t.app.inject({ method: 'PUT', url: `/t/demo${url}`, headers: bearer(token), payload });
  const info = async (token = staff) => (await t.app.inject({ url: '/t/demo/user-info-login', headers: bearer(token) })).json().data;

  it('updates the logged-in user\'s own profile and validates it', async () => {
    const res = await put('/update-user-info-login', { full_name: 'Lê Thị Nhân Viên', email: 'nv@demo.vn', phone: '0987654321' });
    expect(res.statusCode).toBe(200);
    expect(await info()).toMatchObject({ username: 'nhanvien', full_name: 'Lê Thị Nhân Viên', email: 'nv@demo.vn', phone: '0987654321' });
    const bad = await put('/update-user-info-login', { full_name: '', email: 'x', phone: '12' });
    expect(bad.json().details).toEqual([
      { field: 'full_name', message: MSG.required },
      { field: 'email', message: SIGNUP_MSG.email },
      { field: 'phone', message: MSG.phoneFormat },
    ]);
    // The admin's profile is another user's: untouched.
    expect((await info(await login(t.app, 'demo', DEMO.admin))).full_name).toBe('Quản trị viên');
  });

  it('stores the profile phone 84… however it is typed (ADR 0016) and answers it 0…', async () => {
    const res = await put('/update-user-info-login', { full_name: 'Lê Thị Nhân Viên', email: 'nv@demo.vn', phone: '+84 387 654 321' });
    expect([res.statusCode, res.json().data.phone]).toEqual([200, '0387654321']);
    expect((await info()).phone).toBe('0387654321');
    const row = await t.db.withSystem((tx) => tx.query<{ phone: string }>("select u.phone from users u join tenants t on t.id = u.tenant_id where t.ma_dn = 'demo' and u.username = 'nhanvien'"));
    expect(row.rows[0].phone).toBe('84387654321');
  });

  it('stores the activity status', async () => {
    expect((await info()).status_activity).toBe(1);
    const res = await put('/update-activity-status', { status: 3 });
    expect([res.statusCode, res.json().data]).toEqual([200, { status_activity: 3 }]);
    expect((await info()).status_activity).toBe(3);
    expect((await put('/update-activity-status', { status: 7 })).statusCode).toBe(400);
  });

  it('changes the password: wrong current → 400, then other sessions end and the new one works', async () => {
    const other = await login(t.app, 'demo', DEMO.staff);
    const wrong = await put('/change-password', { current_password: 'sai-roi', password: 'MatKhauMoi1', password_confirmation: 'MatKhauMoi1' });
    expect([wrong.statusCode, wrong.json().details]).toEqual([400, [{ field: 'current_password', message: CHANGE_PASSWORD_MSG.wrongCurrent }]]);
    const short = await put('/change-password', { current_password: DEMO.staff.password, password: 'ngan', password_confirmation: 'ngan' });
    expect(short.json().details).toEqual([{ field: 'password', message: SIGNUP_MSG.passwordMin }]);
    const ok = await put('/change-password', { current_password: DEMO.staff.password, password: 'MatKhauMoi1', password_confirmation: 'MatKhauMoi1' });
    expect(ok.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/t/demo/me', headers: bearer(other) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/t/demo/me', headers: bearer(staff) })).statusCode).toBe(200);
    await login(t.app, 'demo', { username: 'nhanvien', password: 'MatKhauMoi1' });
  });
});
