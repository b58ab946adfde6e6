import { expect, test, type APIRequestContext, type Page } from '../support/fixtures.ts';
import { ABC, DEMO, LoginPage } from '../pages/LoginPage.ts';
import { AccountFormPage, AccountListPage } from '../pages/AccountPages.ts';
import { RoleFormPage, RoleListPage } from '../pages/RolePages.ts';
import { CustomerListPage } from '../pages/CustomerPages.ts';

/** The tenant API as the logged-in browser calls it (base from config.json, the stored token). */
async function api(page: Page, request: APIRequestContext, maDn: string) {
  const token = await page.evaluate(() => localStorage.getItem('tongdai.token'));
  const base = await page.evaluate(async (code) => (await (await fetch('/config.json')).json()).apis.tenant.replace('{ma_dn}', code), maDn);
  const headers = { Authorization: `Bearer ${token}` };
  return {
    get: (path: string) => request.get(`${base}/${path}`, { headers }),
    post: (path: string, data: object) => request.post(`${base}/${path}`, { headers, data }),
    delete: (path: string) => request.delete(`${base}/${path}`, { headers }),
  };
}

test('a role with only "view customers" gives an account exactly that', async ({ page, request }) => {
  const login = new LoginPage(page);
  await login.loginAs(DEMO);
  await page.getByTestId('nav-roles').click();
  const roles = new RoleListPage(page);
  await expect(roles.row('super-admin')).toBeVisible();

  await page.getByTestId('add').click();
  await expect(page).toHaveURL(/\/role\/add$/);
  const roleForm = new RoleFormPage(page);
  await page.getByTestId('save').click();
  await expect(page.getByText('Thông tin không được để trống')).toBeVisible();
  await roleForm.create({ name: 'Chỉ xem khách hàng', description: 'Tra cứu khách hàng, không sửa', permissions: ['customer.view'] });
  await expect(page).toHaveURL(/\/roles$/);
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm vai trò' })).toBeVisible();
  await expect(roles.row('Chỉ xem khách hàng').getByTestId('role-permissions')).toHaveText('1');
  await expect(roles.row('Chỉ xem khách hàng').getByTestId('role-users')).toHaveText('0');

  await page.getByTestId('nav-accounts').click();
  await expect(page.getByTestId('account-list')).toBeVisible();
  await page.getByTestId('add').click();
  const form = new AccountFormPage(page);
  await form.fill({ full_name: 'Phạm Văn Xem', username: 'Xem Khach', password: 'XemKhach@2026', role: 'Chỉ xem khách hàng' });
  await form.save();
  await expect(page.getByText(/Tên đăng nhập gồm 3–64 ký tự/)).toBeVisible();
  await form.fill({ username: 'xem.khach' });
  await form.save();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm tài khoản' })).toBeVisible();
  const accounts = new AccountListPage(page);
  await expect(accounts.row('xem.khach')).toContainText('Chỉ xem khách hàng');
  await expect(accounts.row('xem.khach').getByTestId('account-status')).toHaveText('Đang hoạt động');

  // The survey and campaign screens (issue 33) are in the admin's navigation, and not in this account's.
  const SURVEY_NAV = ['nav-survey/categories', 'nav-survey/question', 'nav-survey/campaign', 'nav-marketings/campaign'];
  for (const nav of SURVEY_NAV) await expect(page.getByTestId(nav)).toHaveCount(1);
  await page.getByTestId('logout').click();
  // The app goes to /login by itself: a goto racing that navigation is aborted (net::ERR_ABORTED).
  await expect(page).toHaveURL(/\/login$/);
  await login.loginAs({ maDn: 'demo', username: 'xem.khach', password: 'XemKhach@2026' });
  await expect(page.getByTestId('nav-customer')).toBeVisible();
  await expect(page.getByTestId('nav-roles')).toHaveCount(0);
  await expect(page.getByTestId('nav-accounts')).toHaveCount(0);
  for (const nav of SURVEY_NAV) await expect(page.getByTestId(nav)).toHaveCount(0);
  const customers = new CustomerListPage(page);
  await customers.goto();
  await expect(customers.rows().first()).toBeVisible();
  await expect(page.getByTestId('add')).toHaveCount(0);
  await expect(page.getByTestId('edit')).toHaveCount(0);
  await expect(page.getByTestId('delete')).toHaveCount(0);

  const tenant = await api(page, request, 'demo');
  const id = (await (await tenant.get('customers?per_page=1')).json()).data[0].id;
  const del = await tenant.delete(`customers/${id}`);
  expect([del.status(), (await del.json()).code]).toEqual([403, 'FORBIDDEN']);
  expect((await tenant.get('roles')).status()).toBe(403);
});

test('super-admin is all checked and locked; a role in use cannot be deleted; export downloads .xlsx', async ({ page }) => {
  const roles = new RoleListPage(page);
  await roles.goto(DEMO);
  await roles.row('super-admin').getByTestId('edit').click();
  await expect(page.getByTestId('super-admin-note')).toBeVisible();
  const form = new RoleFormPage(page);
  await expect(form.name()).toBeDisabled();
  await expect(form.permission('account.delete')).toBeChecked();
  await expect(form.permission('account.delete')).toBeDisabled();
  await expect(page.getByTestId('permission-matrix').locator('input[type=checkbox]:not(:checked)')).toHaveCount(0);
  await expect(roles.row('super-admin').getByTestId('delete')).toHaveCount(0);

  await roles.goto();
  await roles.row('nhan-vien').getByTestId('delete').click();
  await page.getByTestId('confirm').click();
  // Other specs (identity.spec's locked agent) may have given the role more accounts by now.
  await expect(page.getByTestId('toast-error')).toContainText(/Không thể xoá vai trò đang được gán cho \d+ tài khoản/);
  await expect(roles.row('nhan-vien')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('export').click();
  expect((await download).suggestedFilename()).toMatch(/^vai-tro-\d{4}-\d{2}-\d{2}\.xlsx$/);
});

test('an account can be created only while the tenant has seats left', async ({ page, request }) => {
  await new LoginPage(page).loginAs(ABC);
  const tenant = await api(page, request, 'abc');
  const roleId = (await (await tenant.get('roles?per_page=9999999')).json()).data.find((r: { name: string }) => r.name === 'nhan-vien').id;
  // abc is seeded with max_user 3 and two users: one more fills it.
  const made = await tenant.post('accounts', {
    full_name: 'Đỗ Thị Ghế Cuối', username: 'ghe.cuoi', role_id: roleId, status: 'active', password: 'GheCuoi@2026', password_confirmation: 'GheCuoi@2026',
  });
  expect(made.status()).toBe(201);

  const message = 'Doanh nghiệp đã dùng hết số tài khoản cho phép (3/3). Vui lòng liên hệ quản trị để nâng cấp.';
  await new AccountListPage(page).goto();
  await page.getByTestId('add').click();
  await expect(page.getByTestId('form-error')).toHaveText(message);
  const form = new AccountFormPage(page);
  await form.fill({ full_name: 'Người Thứ Tư', username: 'nguoi.thu.tu', password: 'ThuTu@20266', role: 'Nhân viên' });
  await form.save();
  await expect(page.getByTestId('form-error')).toHaveText(message);
  await expect(page).toHaveURL(/\/account\/add$/);
});

test('an account manager is offered only the roles it may give (no super-admin), and the API refuses the rest', async ({ page, request }) => {
  const login = new LoginPage(page);
  await login.loginAs(DEMO);
  const admin = await api(page, request, 'demo');
  const roles = (await (await admin.get('roles?per_page=9999999')).json()).data as { id: number; name: string }[];
  // role.view: the form reads the role list (GET /roles).
  const made = await admin.post('role', { name: 'quan-ly-tk-e2e', display_name: 'Quản lý tài khoản', permissions: ['account.view', 'account.create', 'role.view'] });
  const managerRole = (await made.json()).data.id as number;
  const password = 'QuanLy@20266';
  const account = await admin.post('accounts', { full_name: 'Trần Quản Lý', username: 'quan.ly.e2e', role_id: managerRole, status: 'active', password, password_confirmation: password });
  expect(account.status()).toBe(201);

  await page.getByTestId('logout').click();
  // The app goes to /login by itself: a goto racing that navigation is aborted (net::ERR_ABORTED).
  await expect(page).toHaveURL(/\/login$/);
  await new AccountListPage(page).goto({ maDn: 'demo', username: 'quan.ly.e2e', password });
  await page.getByTestId('add').click();
  const options = new AccountFormPage(page).field('role_id').locator('option');
  await expect(options.filter({ hasText: 'Quản lý tài khoản' })).toHaveCount(1);
  const offered = await options.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect(offered).toEqual([String(managerRole)]);

  const superRole = roles.find((r) => r.name === 'super-admin')!.id;
  const manager = await api(page, request, 'demo');
  const refused = await manager.post('accounts', { full_name: 'Chiếm Quyền', username: 'chiem.quyen', role_id: superRole, status: 'active', password, password_confirmation: password });
  expect([refused.status(), (await refused.json()).code]).toEqual([403, 'PRIVILEGE_ESCALATION']);
});
