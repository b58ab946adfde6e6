import { ERROR_MESSAGES, PERMISSION_CATALOGUE, ROLE_MSG } from '@tongdai/contracts';
import { bearer, login, startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';

describe('roles (tenant surface)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const roleId = async (name: string) =>
    (await call('GET', '/t/demo/roles?per_page=9999999')).json().data.find((r: { name: string }) => r.name === name).id as number;

  it('lists roles with permissions, user counts and a name search', async () => {
    const all = (await call('GET', '/t/demo/roles?page=1&per_page=9999999')).json();
    expect(all.data.map((r: { name: string }) => r.name)).toEqual(['super-admin', 'nhan-vien']);
    expect(all.data[0]).toMatchObject({ users_count: 1, description: '' });
    expect(all.data[0].permissions).toHaveLength(PERMISSION_CATALOGUE.length);
    const found = (await call('GET', '/t/demo/roles?search=NHAN')).json();
    expect([found.meta.total, found.data[0].name]).toEqual([1, 'nhan-vien']);
  });

  it('answers each role with the display name screens show (the code stays the name)', async () => {
    const all = (await call('GET', '/t/demo/roles?per_page=9999999')).json().data;
    expect(all.map((r: { name: string; display_name: string }) => [r.name, r.display_name])).toEqual([['super-admin', 'Quản trị hệ thống'], ['nhan-vien', 'Nhân viên']]);
    const created = (await call('POST', '/t/demo/role', { name: 'giam-sat', display_name: ' Giám sát viên ', permissions: [] })).json().data;
    expect([created.name, created.display_name]).toEqual(['giam-sat', 'Giám sát viên']);
    expect((await call('GET', `/t/demo/roles?search=${encodeURIComponent('giám sát viên')}`)).json().data.map((r: { id: number }) => r.id)).toEqual([created.id]);
    expect((await call('DELETE', `/t/demo/role/${created.id}`)).statusCode).toBe(204);
  });

  it('creates, reads, updates and deletes a role', async () => {
    const created = await call('POST', '/t/demo/role', { name: 'Giám sát', description: 'Xem khách hàng', permissions: ['customer.view', 'customer.view'] });
    expect(created.statusCode).toBe(201);
    const role = created.json().data;
    expect(role).toMatchObject({ name: 'Giám sát', description: 'Xem khách hàng', users_count: 0, users: [] });
    expect(role.permissions.map((p: { name: string }) => p.name)).toEqual(['customer.view']);
    expect((await call('GET', `/t/demo/role/${role.id}`)).json().data).toEqual(role);
    const updated = await call('PUT', `/t/demo/role/${role.id}`, { name: 'Giám sát ca', permissions: ['customer.view', 'account.view'] });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.permissions.map((p: { name: string }) => p.name)).toEqual(['customer.view', 'account.view']);
    expect((await call('DELETE', `/t/demo/role/${role.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/t/demo/role/${role.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/t/demo/role/xyz')).statusCode).toBe(404);
  });

  it('validates the role and refuses a duplicate name (any case)', async () => {
    const bad = await call('POST', '/t/demo/role', { name: ' ', permissions: ['khong.co'] });
    expect([bad.statusCode, bad.json().details]).toEqual([400, [
      { field: 'name', message: 'Thông tin không được để trống' },
      { field: 'permissions.0', message: 'Quyền không hợp lệ' },
    ]]);
    const dup = await call('POST', '/t/demo/role', { name: 'NHAN-VIEN' });
    expect([dup.statusCode, dup.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: ROLE_MSG.nameTaken, details: [{ field: 'name', message: ROLE_MSG.nameTaken }] }]);
  });

  it('protects super-admin: no delete, rename or stripping', async () => {
    const id = await roleId('super-admin');
    const all = PERMISSION_CATALOGUE.map((p) => p.name);
    for (const res of [
      await call('DELETE', `/t/demo/role/${id}`),
      await call('PUT', `/t/demo/role/${id}`, { name: 'admin', permissions: all }),
      await call('PUT', `/t/demo/role/${id}`, { name: 'super-admin', permissions: ['customer.view'] }),
    ]) expect([res.statusCode, res.json().message]).toEqual([409, ROLE_MSG.superAdminLocked]);
    const ok = await call('PUT', `/t/demo/role/${id}`, { name: 'super-admin', description: 'Toàn quyền', permissions: all });
    expect([ok.statusCode, ok.json().data.description]).toEqual([200, 'Toàn quyền']);
  });

  it('refuses to delete a role still held by users, naming how many', async () => {
    const res = await call('DELETE', `/t/demo/role/${await roleId('nhan-vien')}`);
    expect([res.statusCode, res.json().code, res.json().message]).toEqual([409, 'CONFLICT', ROLE_MSG.inUse(1)]);
  });

  it("changes the password of one of the role's users", async () => {
    const id = await roleId('nhan-vien');
    const role = (await call('GET', `/t/demo/role/${id}`)).json().data;
    expect(role.users.map((u: { username: string }) => u.username)).toEqual(['nhanvien']);
    const mismatch = await call('PUT', `/t/demo/role/${id}/password`, { user_id: role.users[0].id, password: 'MatKhau@2026', password_confirmation: 'khac' });
    expect([mismatch.statusCode, mismatch.json().details]).toEqual([400, [{ field: 'password_confirmation', message: 'Mật khẩu xác nhận không khớp' }]]);
    const adminId = (await call('GET', `/t/demo/role/${await roleId('super-admin')}`)).json().data.users[0].id;
    const outsider = await call('PUT', `/t/demo/role/${id}/password`, { user_id: adminId, password: 'MatKhau@2026', password_confirmation: 'MatKhau@2026' });
    expect([outsider.statusCode, outsider.json().details]).toEqual([400, [{ field: 'user_id', message: ROLE_MSG.userNotInRole }]]);
    const ok = await call('PUT', `/t/demo/role/${id}/password`, { user_id: role.users[0].id, password: 'MatKhau@2026', password_confirmation: 'MatKhau@2026' });
    expect(ok.statusCode).toBe(204);
    // The user's old session ends with the old password.
    expect((await call('GET', '/t/demo/customers', undefined, staff)).statusCode).toBe(401);
    staff = bearer(await login(t.app, 'demo', { username: 'nhanvien', password: 'MatKhau@2026' }));
  });

  it('answers 403 to a user without the role permissions', async () => {
    const id = await roleId('nhan-vien');
    for (const [method, url, body] of [
      ['GET', '/t/demo/roles'], ['GET', `/t/demo/role/${id}`], ['POST', '/t/demo/role', { name: 'x' }], ['PUT', `/t/demo/role/${id}`, { name: 'x' }],
      ['DELETE', `/t/demo/role/${id}`], ['PUT', `/t/demo/role/${id}/password`, { user_id: 1, password: '12345678', password_confirmation: '12345678' }],
      ['GET', '/t/demo/permissions'],
    ] as const) {
      const res = await call(method, url, body, staff);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'FORBIDDEN']);
    }
  });

  it("hides another tenant's role (404)", async () => {
    const id = await roleId('nhan-vien');
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(method, `/t/abc/role/${id}`, undefined, abcAdmin);
      expect([res.statusCode, res.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    }
    const put = await call('PUT', `/t/abc/role/${id}`, { name: 'chiếm', permissions: [] }, abcAdmin);
    expect(put.statusCode).toBe(404);
    expect((await call('GET', `/t/demo/role/${id}`)).json().data.name).toBe('nhan-vien');
  });
});
