import { readFileSync } from 'node:fs';
import { expect, test } from '../support/fixtures.ts';
import { AuditLogPage } from '../pages/AuditLogPage.ts';
import { LoginPage } from '../pages/LoginPage.ts';
import { SettingsPage } from '../pages/SettingsPages.ts';
import { newTenant, signupViaApi, type NewTenant } from '../pages/SignupPage.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { backgroundLuminance, DARK_MAX, LIGHT_MIN } from '../support/theme.ts';
import { shot, stillness } from '../support/screens.ts';

const LOCAL = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

// A tenant of its own: its log holds only what this spec does (sign-up and logins write no line).
let tenant: NewTenant;
test.beforeAll(async () => {
  tenant = newTenant('nhatky');
  await signupViaApi(tenant);
});

test('the audit log (issue 42): an admin changes a setting and a role, finds each line with its before → after, filters, exports; light and dark', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = { maDn: tenant.ma_dn, username: tenant.username, password: tenant.password };
  await new LoginPage(page).loginAs(admin);

  // A setting changed on its screen, by this browser.
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.openCard('system');
  await settings.field('hidden_phone_customer').click();
  await settings.save();
  // A role made, then given another name and one more permission (as the roles screen sends it).
  const api = await tenantApiAs(request, admin);
  const role = await api.create('role', { name: 'giam-sat', display_name: 'Giám sát viên', description: 'Theo dõi cuộc gọi', permissions: ['customer.view', 'monitor.view'] });
  await api.update(`role/${role.id}`, { name: 'giam-sat', display_name: 'Giám sát ca tối', description: 'Theo dõi cuộc gọi', permissions: ['customer.view', 'monitor.view', 'monitor.spy'] });

  const log = new AuditLogPage(page);
  await log.open();
  await expect(log.rows()).toHaveCount(3);
  await expect(page.getByTestId('pager-status')).toHaveText('Trang 1 / 1 · 3 bản ghi');
  // Newest first: the role's edit, its creation, the setting.
  await expect(log.rows().getByTestId('audit-action')).toHaveText(['Sửa', 'Thêm', 'Sửa']);
  await expect(log.rows().getByTestId('audit-kind')).toHaveText(['Vai trò', 'Vai trò', 'Cài đặt hệ thống']);
  const edit = log.rows().first();
  const cells = await log.cells(edit);
  expect(cells.at).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
  expect(cells.actor).toContain(tenant.full_name);
  expect(cells.ip).toMatch(LOCAL);
  expect(cells.changes).toBe('Tên hiển thị, Quyền');

  // The role's edit: the name and the permissions before → after, the one permission added.
  let detail = await log.openDetail(edit);
  await expect(page).toHaveURL(/entry=\d+/);
  const name = log.field(detail, 'display_name');
  await expect(name.before).toHaveText('Giám sát viên');
  await expect(name.after).toHaveText('Giám sát ca tối');
  const perms = log.field(detail, 'permissions');
  await expect(perms.before).toHaveText('customer.view, monitor.view');
  await expect(perms.after).toContainText('customer.view, monitor.spy, monitor.view');
  await expect(perms.row.getByTestId('audit-list-diff')).toHaveText('Thêm: monitor.spy');
  // The settings' "saved" toast goes by itself (4 s): the photo shows the log alone.
  await expect(page.getByTestId('toast-success')).toHaveCount(0);
  await stillness(page);
  await page.screenshot(shot('audit-log-light'));
  expect(await backgroundLuminance(page)).toBeGreaterThan(LIGHT_MIN);

  // The setting's line, opened from the browser that made it: the field in Vietnamese, the switch (stored 0 → 1)
  // as its screen shows it.
  detail = await log.openDetail(log.row('Cài đặt hệ thống'));
  const masking = log.field(detail, 'hidden_phone_customer');
  await expect(masking.row).toContainText('Ẩn số điện thoại khách hàng');
  await expect(masking.before).toHaveText('Không');
  await expect(masking.after).toHaveText('Có');
  await expect(detail).toContainText(/Từ địa chỉ (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1) · Mozilla\//);

  // Dark: the same screen, a dark background.
  await page.getByTestId('dark-mode').click();
  await expect.poll(() => backgroundLuminance(page)).toBeLessThan(DARK_MAX);
  await stillness(page);
  await page.screenshot(shot('audit-log-dark'));

  // Filters: the roles only, then their creations only; a search that ignores accents.
  await log.filter('kind', 'Vai trò');
  await expect(log.rows()).toHaveCount(2);
  await log.filter('action', 'Thêm');
  await expect(log.rows()).toHaveCount(1);
  await expect(log.rows().getByTestId('audit-entity')).toHaveText('Giám sát viên');
  await page.screenshot(shot('audit-log-filtered-dark'));
  await page.getByTestId('dark-mode').click();
  await log.filter('action', 'Mọi hành động');
  await log.search('giam sat ca toi');
  await expect(log.rows()).toHaveCount(1);
  await log.search('khong co gi nhu the');
  await expect(page.getByText('Không tìm thấy kết quả phù hợp')).toBeVisible();
  await log.search('');
  await expect(log.rows()).toHaveCount(2);

  // The export: what the filters match (the roles), under Vietnamese headers.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(download.suggestedFilename()).toBe('nhat-ky-thay-doi.csv');
  const lines = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(lines[0]).toBe('Thời gian,Người thực hiện,Tên đăng nhập,Địa chỉ IP,Trình duyệt,Loại đối tượng,Mã đối tượng,Đối tượng,Hành động,Nội dung thay đổi,Trước (JSON),Sau (JSON)');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain('Tên hiển thị: Giám sát viên → Giám sát ca tối');
});
