import { ACCOUNT_MSG, ERROR_MESSAGES, userLimitMessage } from '@tongdai/contracts';
import { bearer, login, startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';

describe('accounts (tenant surface)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  let staffRole: number;
  let superRole: number;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
    const roles = (await call('GET', '/t/demo/roles?per_page=9999999')).json().data as { id: number; name: string }[];
    staffRole = roles.find((r) => r.name === 'nhan-vien')!.id;
    superRole = roles.find((r) => r.name === 'super-admin')!.id;
  });
  afterAll(() => t.close());
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const input = (extra: object = {}) => ({
    full_name: 'Lê Thị Tổng Đài', username: 'le.thi', email: 'le.thi@congty.vn', phone: '0912345678', role_id: staffRole,
    status: 'active', password: 'MatKhau@2026', password_confirmation: 'MatKhau@2026', ...extra,
  });
  const byUsername = async (u: string) => (await call('GET', `/t/demo/accounts?search=${u}`)).json().data[0];

  it('lists accounts newest first with their role, filters by role and status', async () => {
    const res = (await call('GET', '/t/demo/accounts')).json();
    expect(res.meta).toEqual({ page: 1, per_page: 10, total: 2 });
    expect(res.data.map((a: { username: string; role_name: string }) => [a.username, a.role_name])).toEqual([['nhanvien', 'nhan-vien'], ['admin', 'super-admin']]);
    expect(res.data[0]).not.toHaveProperty('password_hash');
    expect((await call('GET', `/t/demo/accounts?role_id=${superRole}`)).json().meta.total).toBe(1);
    expect((await call('GET', '/t/demo/accounts?status=locked')).json().meta.total).toBe(0);
    expect((await call('GET', '/t/demo/accounts?status=bogus')).statusCode).toBe(400);
  });

  it('shows one extension identity (the linked subscriber) and the role display name', async () => {
    const rows = (await call('GET', '/t/demo/accounts')).json().data as { username: string; extension_code: string; role_label: string }[];
    expect(rows.map((a) => [a.username, a.extension_code, a.role_label])).toEqual([['nhanvien', '102', 'Nhân viên'], ['admin', '101', 'Quản trị hệ thống']]);
    expect((await call('GET', '/t/demo/accounts?search=102')).json().data.map((a: { username: string }) => a.username)).toEqual(['nhanvien']);
    const info = (await call('GET', '/t/demo/user-info-login')).json().data;
    expect(info).toMatchObject({ username: 'admin', extension_code: '101', role_label: 'Quản trị hệ thống' });
    expect((await call('GET', '/t/demo/user-info-login', undefined, staff)).json().data).toMatchObject({ extension_code: '102', role_label: 'Nhân viên' });
    // Linking subscriber 102 to another account moves the extension with it.
    const other = (await call('POST', '/t/demo/accounts', input({ username: 'tran.b' }))).json().data;
    const sub102 = ((await call('GET', '/t/demo/subscribers?search=102')).json().data as { id: number; extension: string; display_name: string }[])[0];
    expect((await call('PUT', `/t/demo/subscribers/${sub102.id}`, { extension: '102', display_name: sub102.display_name, user_id: other.id })).statusCode).toBe(200);
    expect((await call('GET', `/t/demo/accounts/${other.id}`)).json().data.extension_code).toBe('102');
    expect((await byUsername('nhanvien')).extension_code).toBe('');
    expect((await call('GET', '/t/demo/user-info-login', undefined, staff)).json().data.extension_code).toBeNull();
    await call('PUT', `/t/demo/subscribers/${sub102.id}`, { extension: '102', display_name: sub102.display_name, user_id: (await byUsername('nhanvien')).id });
    expect((await call('DELETE', `/t/demo/accounts/${other.id}`)).statusCode).toBe(204);
  });

  it('stores the phone 84… however it is typed (ADR 0016), answers and finds it as 0…', async () => {
    const storedPhone = async (id: number) => (await t.db.withSystem((tx) => tx.query<{ phone: string }>('select phone from users where id = $1', [id]))).rows[0].phone;
    const created = await call('POST', '/t/demo/accounts', input({ username: 'so.dien.thoai', phone: '+84 912 345 678' }));
    expect([created.statusCode, created.json().data.phone]).toEqual([201, '0912345678']);
    const { id } = created.json().data;
    expect(await storedPhone(id)).toBe('84912345678');
    const { password: _p, password_confirmation: _c, ...fields } = input({ username: 'so.dien.thoai' });
    const updated = await call('PUT', `/t/demo/accounts/${id}`, { ...fields, phone: '0987.654.321' });
    expect(updated.json().data.phone).toBe('0987654321');
    expect(await storedPhone(id)).toBe('84987654321');
    // Searched as typed on screen (0…) and as stored (84…).
    for (const term of ['0987654', '+8498765', '8498765']) {
      expect((await call('GET', `/t/demo/accounts?search=${encodeURIComponent(term)}`)).json().data.map((a: { username: string }) => a.username)).toEqual(['so.dien.thoai']);
    }
    expect((await call('GET', `/t/demo/accounts/${id}`)).json().data.phone).toBe('0987654321');
    expect((await call('DELETE', `/t/demo/accounts/${id}`)).statusCode).toBe(204);
  });

  it('creates, reads, updates and deletes an account; the new account can log in', async () => {
    const depts = (await call('GET', '/t/demo/all-department')).json().data as { id: number }[];
    const teams = (await call('GET', `/t/demo/all-team?department_id=${depts[0].id}`)).json().data as { id: number }[];
    const created = await call('POST', '/t/demo/accounts', input({ username: 'Le.Thi', department_id: String(depts[0].id), team_id: teams[0].id }));
    expect(created.statusCode).toBe(201);
    const a = created.json().data;
    expect(a).toMatchObject({ username: 'le.thi', full_name: 'Lê Thị Tổng Đài', role_id: staffRole, role_name: 'nhan-vien', department_id: depts[0].id, team_id: teams[0].id, branch_id: null, extension_code: '', status: 'active' });
    expect((await call('GET', `/t/demo/accounts/${a.id}`)).json().data).toEqual(a);
    await login(t.app, 'demo', { username: 'le.thi', password: 'MatKhau@2026' });

    const { password: _p, password_confirmation: _c, ...fields } = input();
    const updated = await call('PUT', `/t/demo/accounts/${a.id}`, { ...fields, full_name: 'Lê Thị Đã Sửa', status: 'locked' });
    expect([updated.statusCode, updated.json().data.full_name, updated.json().data.department_id]).toEqual([200, 'Lê Thị Đã Sửa', null]);
    // A locked account cannot log in.
    const locked = await t.app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: 'demo', username: 'le.thi', password: 'MatKhau@2026' } });
    expect([locked.statusCode, locked.json().code]).toEqual([401, 'INVALID_CREDENTIALS']);

    expect((await call('DELETE', `/t/demo/accounts/${a.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/t/demo/accounts/${a.id}`)).statusCode).toBe(404);
  });

  it('validates fields, the team of the department and the unique login', async () => {
    const bad = await call('POST', '/t/demo/accounts', input({ full_name: '', username: 'a b', phone: '12ab', role_id: '', password: 'ngan', password_confirmation: 'khac' }));
    expect([bad.statusCode, bad.json().details]).toEqual([400, [
      { field: 'full_name', message: 'Thông tin không được để trống' },
      { field: 'username', message: expect.stringContaining('Tên đăng nhập gồm 3–64 ký tự') },
      { field: 'phone', message: 'Định dạng số điện thoại sai' },
      { field: 'role_id', message: 'Thông tin không được để trống' },
      { field: 'password', message: 'Mật khẩu tối thiểu 8 ký tự' },
      { field: 'password_confirmation', message: 'Mật khẩu xác nhận không khớp' },
    ]]);
    const depts = (await call('GET', '/t/demo/all-department')).json().data as { id: number }[];
    const otherTeam = (await call('GET', `/t/demo/all-team?department_id=${depts[1].id}`)).json().data[0].id;
    const wrongTeam = await call('POST', '/t/demo/accounts', input({ department_id: depts[0].id, team_id: otherTeam }));
    expect([wrongTeam.statusCode, wrongTeam.json().details]).toEqual([400, [{ field: 'team_id', message: ACCOUNT_MSG.teamNotInDepartment }]]);
    const abcDept = (await call('GET', '/t/abc/all-department', undefined, abcAdmin)).json().data[0].id;
    const foreign = await call('POST', '/t/demo/accounts', input({ department_id: abcDept }));
    expect(foreign.json().details).toEqual([{ field: 'department_id', message: ACCOUNT_MSG.notFoundRef }]);
    const dup = await call('POST', '/t/demo/accounts', input({ username: 'NhanVien' }));
    expect([dup.statusCode, dup.json().details]).toEqual([409, [{ field: 'username', message: ACCOUNT_MSG.usernameTaken }]]);
  });

  it('changes an account password; the old one stops working', async () => {
    const id = (await byUsername('nhanvien')).id;
    const res = await call('PUT', `/t/demo/accounts/${id}/password`, { password: 'MoiMoi@2026', password_confirmation: 'MoiMoi@2026' });
    expect(res.statusCode).toBe(204);
    expect((await call('GET', '/t/demo/customers', undefined, staff)).statusCode).toBe(401);
    staff = bearer(await login(t.app, 'demo', { username: 'nhanvien', password: 'MoiMoi@2026' }));
  });

  it('refuses deleting yourself and removing the last super-admin', async () => {
    const me = await byUsername('admin');
    const self = await call('DELETE', `/t/demo/accounts/${me.id}`);
    expect([self.statusCode, self.json().message]).toEqual([409, ACCOUNT_MSG.deleteSelf]);
    const { password: _p, password_confirmation: _c, ...fields } = input({ username: 'admin', full_name: me.full_name });
    const demote = await call('PUT', `/t/demo/accounts/${me.id}`, fields);
    expect([demote.statusCode, demote.json().message]).toEqual([409, ACCOUNT_MSG.lastSuperAdmin]);
    const lock = await call('PUT', `/t/demo/accounts/${me.id}`, { ...fields, role_id: superRole, status: 'locked' });
    expect(lock.statusCode).toBe(409);
    // Someone allowed to delete accounts still cannot delete the last super-admin…
    const managerRole = (await call('POST', '/t/demo/role', { name: 'quan-ly-tai-khoan', permissions: ['account.view', 'account.delete'] })).json().data.id;
    await call('POST', '/t/demo/accounts', input({ username: 'quanly', role_id: managerRole }));
    const manager = bearer(await login(t.app, 'demo', { username: 'quanly', password: 'MatKhau@2026' }));
    const last = await call('DELETE', `/t/demo/accounts/${me.id}`, undefined, manager);
    expect([last.statusCode, last.json().message]).toEqual([409, ACCOUNT_MSG.lastSuperAdmin]);
    // …nor one who is not the last: only a super-admin touches a super-admin (issue 12, ADR 0018).
    const second = (await call('POST', '/t/demo/accounts', input({ username: 'admin2', role_id: superRole }))).json().data.id;
    expect([(await call('DELETE', `/t/demo/accounts/${second}`, undefined, manager)).json().code]).toEqual(['PRIVILEGE_ESCALATION']);
    expect((await call('DELETE', `/t/demo/accounts/${second}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/t/demo/accounts/${(await byUsername('quanly')).id}`)).statusCode).toBe(204);
  });

  it('refuses a new account when the tenant is at its user limit', async () => {
    const abcRole = (await call('GET', '/t/abc/roles?per_page=9999999', undefined, abcAdmin)).json().data.find((r: { name: string }) => r.name === 'nhan-vien').id;
    const seats = await call('POST', '/cp/get-max-user-company-tenancy', { ma_dn: 'abc' }, abcAdmin);
    expect(seats.json().data).toEqual({ ma_dn: 'abc', max_user: 3, current_user: 2 });
    expect((await call('POST', '/t/abc/accounts', input({ role_id: abcRole }), abcAdmin)).statusCode).toBe(201);
    const full = await call('POST', '/t/abc/accounts', input({ role_id: abcRole, username: 'them.nua' }), abcAdmin);
    expect([full.statusCode, full.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: userLimitMessage(3, 3) }]);
    expect(userLimitMessage(20, 20)).toBe('Doanh nghiệp đã dùng hết số tài khoản cho phép (20/20). Vui lòng liên hệ quản trị để nâng cấp.');
  });

  it('answers 403 to a user without the account permissions', async () => {
    const id = (await call('GET', '/t/demo/accounts')).json().data[0].id;
    for (const [method, url, body] of [
      ['GET', '/t/demo/accounts'], ['GET', `/t/demo/accounts/${id}`], ['POST', '/t/demo/accounts', input()], ['PUT', `/t/demo/accounts/${id}`, input()],
      ['DELETE', `/t/demo/accounts/${id}`], ['PUT', `/t/demo/accounts/${id}/password`, { password: '12345678', password_confirmation: '12345678' }],
    ] as const) {
      const res = await call(method, url, body, staff);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'FORBIDDEN']);
    }
  });

  it("hides another tenant's account (404)", async () => {
    const id = (await call('GET', '/t/demo/accounts')).json().data[0].id;
    const leak = await call('GET', `/t/abc/accounts/${id}`, undefined, abcAdmin);
    expect([leak.statusCode, leak.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    expect((await call('DELETE', `/t/abc/accounts/${id}`, undefined, abcAdmin)).statusCode).toBe(404);
    expect((await call('PUT', `/t/abc/accounts/${id}/password`, { password: '12345678', password_confirmation: '12345678' }, abcAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/t/demo/accounts/${id}`, undefined, abcAdmin)).statusCode).toBe(401);
  });
});
