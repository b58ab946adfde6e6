import { ERROR_MESSAGES, PERMISSION_CATALOGUE, PRIVILEGE_MSG } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, type TestApp } from '../../../test/helpers';

/**
 * Issue 12 item 2: each delegated permission, held alone by a limited user, must not lead to
 * super-admin nor to any permission its holder lacks (docs/adr/0018). One user per permission.
 */
describe('delegated permissions never escalate (403 PRIVILEGE_ESCALATION)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let superRole: number;
  let staffRole: number;
  let adminId: number;
  let staffId: number;
  const PASSWORD = 'MatKhau@2026';
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const account = (username: string, role_id: number, extra: object = {}) => ({
    full_name: `Người dùng ${username}`, username, email: '', phone: '', role_id, status: 'active', ...extra,
  });
  const refused = (res: { statusCode: number; json(): { code: string; message: string } }, message: string) =>
    expect([res.statusCode, res.json().code, res.json().message]).toEqual([403, 'PRIVILEGE_ESCALATION', message]);

  /** A role holding exactly `permissions`, one account in it, logged in. */
  async function limitedUser(username: string, permissions: string[]) {
    const role = await call('POST', '/t/demo/role', { name: `chi-${username}`, permissions });
    expect(role.statusCode).toBe(201);
    const created = await call('POST', '/t/demo/accounts', { ...account(username, role.json().data.id), password: PASSWORD, password_confirmation: PASSWORD });
    expect(created.statusCode).toBe(201);
    return { headers: bearer(await login(t.app, 'demo', { username, password: PASSWORD })), roleId: role.json().data.id as number, userId: created.json().data.id as number };
  }
  const roleDetail = async (id: number) => (await call('GET', `/t/demo/role/${id}`)).json().data;
  const accountDetail = async (id: number) => (await call('GET', `/t/demo/accounts/${id}`)).json().data;
  const adminStillLogsIn = () => login(t.app, 'demo', DEMO.admin);

  beforeAll(async () => {
    t = await startTestApp();
    admin = bearer(await login(t.app, 'demo', DEMO.admin));
    const roles = (await call('GET', '/t/demo/roles?per_page=9999999')).json().data as { id: number; name: string }[];
    superRole = roles.find((r) => r.name === 'super-admin')!.id;
    staffRole = roles.find((r) => r.name === 'nhan-vien')!.id;
    const accounts = (await call('GET', '/t/demo/accounts')).json().data as { id: number; username: string }[];
    adminId = accounts.find((a) => a.username === 'admin')!.id;
    staffId = accounts.find((a) => a.username === 'nhanvien')!.id;
  });
  afterAll(() => t.close());

  it('role.edit: cannot grant its own role (or another) a permission it lacks, nor edit super-admin', async () => {
    const editor = await limitedUser('sua.vaitro', ['role.view', 'role.edit']);
    const all = PERMISSION_CATALOGUE.map((p) => p.name);
    refused(await call('PUT', `/t/demo/role/${editor.roleId}`, { name: 'chi-sua.vaitro', permissions: all }, editor.headers), PRIVILEGE_MSG.grantNotHeld);
    refused(await call('PUT', `/t/demo/role/${staffRole}`, { name: 'nhan-vien', permissions: ['customer.view', 'customer.create', 'customer.edit', 'account.edit'] }, editor.headers), PRIVILEGE_MSG.grantNotHeld);
    // Nor take away what it does not hold.
    refused(await call('PUT', `/t/demo/role/${staffRole}`, { name: 'nhan-vien', permissions: [] }, editor.headers), PRIVILEGE_MSG.grantNotHeld);
    refused(await call('PUT', `/t/demo/role/${superRole}`, { name: 'super-admin', permissions: all }, editor.headers), PRIVILEGE_MSG.superAdminOnly);
    expect((await roleDetail(editor.roleId)).permissions.map((p: { name: string }) => p.name)).toEqual(['role.view', 'role.edit']);
    expect((await roleDetail(staffRole)).permissions).toHaveLength(3);
    // What it holds it may give, and a role's other fields stay editable.
    const ok = await call('PUT', `/t/demo/role/${staffRole}`, { name: 'nhan-vien', description: 'Tổng đài viên', permissions: ['customer.view', 'customer.create', 'customer.edit', 'role.view'] }, editor.headers);
    expect([ok.statusCode, ok.json().data.description]).toEqual([200, 'Tổng đài viên']);
    await call('PUT', `/t/demo/role/${staffRole}`, { name: 'nhan-vien', permissions: ['customer.view', 'customer.create', 'customer.edit'] });
  });

  it('role.create: cannot create a role with a permission it lacks', async () => {
    const creator = await limitedUser('tao.vaitro', ['role.view', 'role.create']);
    refused(await call('POST', '/t/demo/role', { name: 'vuot-quyen', permissions: ['role.view', 'account.edit'] }, creator.headers), PRIVILEGE_MSG.grantNotHeld);
    expect((await call('GET', '/t/demo/roles?search=vuot-quyen')).json().data).toEqual([]);
    expect((await call('POST', '/t/demo/role', { name: 'chi-xem-vai-tro', permissions: ['role.view'] }, creator.headers)).statusCode).toBe(201);
  });

  it('account.edit: cannot change its own role, assign super-admin, or edit/lock a super-admin or a stronger account', async () => {
    const editor = await limitedUser('sua.taikhoan', ['account.view', 'account.edit']);
    refused(await call('PUT', `/t/demo/accounts/${editor.userId}`, account('sua.taikhoan', superRole), editor.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('PUT', `/t/demo/accounts/${editor.userId}`, account('sua.taikhoan', staffRole), editor.headers), PRIVILEGE_MSG.grantNotHeld);
    const weak = await limitedUser('yeu.hon', ['account.view']);
    // Even a weaker role: nobody changes their own role.
    refused(await call('PUT', `/t/demo/accounts/${editor.userId}`, account('sua.taikhoan', weak.roleId), editor.headers), PRIVILEGE_MSG.ownRole);
    refused(await call('PUT', `/t/demo/accounts/${weak.userId}`, account('yeu.hon', superRole), editor.headers), PRIVILEGE_MSG.superAdminOnly);
    // nhan-vien holds customer.* which the editor lacks: assigning it grants what the editor does not hold.
    refused(await call('PUT', `/t/demo/accounts/${weak.userId}`, account('yeu.hon', staffRole), editor.headers), PRIVILEGE_MSG.grantNotHeld);
    refused(await call('PUT', `/t/demo/accounts/${adminId}`, account('admin', superRole, { full_name: 'Bị chiếm' }), editor.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('PUT', `/t/demo/accounts/${adminId}`, account('admin', superRole, { status: 'locked' }), editor.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('PUT', `/t/demo/accounts/${staffId}`, account('nhanvien', staffRole, { status: 'locked' }), editor.headers), PRIVILEGE_MSG.strongerAccount);
    expect(await accountDetail(editor.userId)).toMatchObject({ role_name: 'chi-sua.taikhoan' });
    expect(await accountDetail(adminId)).toMatchObject({ role_name: 'super-admin', status: 'active', full_name: 'Quản trị viên' });
    // A weaker account it may still edit (and give the editor's own role).
    const ok = await call('PUT', `/t/demo/accounts/${weak.userId}`, account('yeu.hon', editor.roleId, { full_name: 'Đã sửa' }), editor.headers);
    expect([ok.statusCode, ok.json().data.full_name]).toEqual([200, 'Đã sửa']);
  });

  it('account.create: cannot create a super-admin or an account stronger than itself', async () => {
    const creator = await limitedUser('tao.taikhoan', ['account.view', 'account.create']);
    const body = (username: string, role: number) => ({ ...account(username, role), password: PASSWORD, password_confirmation: PASSWORD });
    refused(await call('POST', '/t/demo/accounts', body('quan.tri.moi', superRole), creator.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('POST', '/t/demo/accounts', body('nhan.vien.moi', staffRole), creator.headers), PRIVILEGE_MSG.grantNotHeld);
    expect((await call('GET', '/t/demo/accounts?search=quan.tri.moi')).json().data).toEqual([]);
    expect((await call('POST', '/t/demo/accounts', body('cung.quyen', creator.roleId), creator.headers)).statusCode).toBe(201);
  });

  it("role.changePassword: cannot reset the super-admin's (or a stronger user's) password", async () => {
    const resetter = await limitedUser('doi.mk.vaitro', ['role.view', 'role.changePassword']);
    const pw = { password: 'ChiemQuyen@1', password_confirmation: 'ChiemQuyen@1' };
    refused(await call('PUT', `/t/demo/role/${superRole}/password`, { user_id: adminId, ...pw }, resetter.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('PUT', `/t/demo/role/${staffRole}/password`, { user_id: staffId, ...pw }, resetter.headers), PRIVILEGE_MSG.strongerAccount);
    await adminStillLogsIn();
    await login(t.app, 'demo', DEMO.staff);
    const bad = await t.app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: 'demo', username: 'admin', password: pw.password } });
    expect(bad.json()).toEqual({ status: 401, code: 'INVALID_CREDENTIALS', message: ERROR_MESSAGES.INVALID_CREDENTIALS });
    // A user of a role it fully holds: allowed.
    const peer = await call('POST', '/t/demo/accounts', { ...account('dong.nghiep', resetter.roleId), password: PASSWORD, password_confirmation: PASSWORD });
    expect((await call('PUT', `/t/demo/role/${resetter.roleId}/password`, { user_id: peer.json().data.id, ...pw }, resetter.headers)).statusCode).toBe(204);
  });

  it("account.changePassword: cannot reset the super-admin's (or a stronger user's) password", async () => {
    const resetter = await limitedUser('doi.mk.taikhoan', ['account.view', 'account.changePassword']);
    const pw = { password: 'ChiemQuyen@1', password_confirmation: 'ChiemQuyen@1' };
    refused(await call('PUT', `/t/demo/accounts/${adminId}/password`, pw, resetter.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('PUT', `/t/demo/accounts/${staffId}/password`, pw, resetter.headers), PRIVILEGE_MSG.strongerAccount);
    await adminStillLogsIn();
    await login(t.app, 'demo', DEMO.staff);
    expect((await call('PUT', `/t/demo/accounts/${resetter.userId}/password`, pw, resetter.headers)).statusCode).toBe(204);
  });

  it('account.delete: cannot delete a super-admin, even one who is not the last', async () => {
    const deleter = await limitedUser('xoa.taikhoan', ['account.view', 'account.delete']);
    const second = await call('POST', '/t/demo/accounts', { ...account('quan.tri.hai', superRole), password: PASSWORD, password_confirmation: PASSWORD });
    expect(second.statusCode).toBe(201);
    refused(await call('DELETE', `/t/demo/accounts/${second.json().data.id}`, undefined, deleter.headers), PRIVILEGE_MSG.superAdminOnly);
    refused(await call('DELETE', `/t/demo/accounts/${staffId}`, undefined, deleter.headers), PRIVILEGE_MSG.strongerAccount);
    expect((await accountDetail(second.json().data.id)).username).toBe('quan.tri.hai');
    // A super-admin may: the rule is about who acts, not about super-admin accounts as such.
    expect((await call('DELETE', `/t/demo/accounts/${second.json().data.id}`)).statusCode).toBe(204);
  });
});
