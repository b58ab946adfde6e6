import { expect, test } from '../support/fixtures.ts';
import { LoginPage } from '../pages/LoginPage.ts';
import { CustomerListPage } from '../pages/CustomerPages.ts';
import { SettingsPage } from '../pages/SettingsPages.ts';
import { newTenant, signupViaApi, type NewTenant } from '../pages/SignupPage.ts';
import { API_URL } from '../support/ports.ts';
import { openScreen } from '../support/navigate.ts';

// A tenant of its own: changing the site name or masking here cannot disturb other specs.
let tenant: NewTenant;
test.beforeAll(async () => {
  tenant = newTenant('caidat');
  const token = await signupViaApi(tenant);
  const res = await fetch(`${API_URL}/t/${tenant.ma_dn}/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Võ Thị Bảo Mật', phone: '0987654321', status: 'new' }),
  });
  expect(res.status).toBe(201);
});

test.beforeEach(async ({ page }) => {
  await new LoginPage(page).loginAs({ maDn: tenant.ma_dn, username: tenant.username, password: tenant.password });
});

test('phone masking on shows *** in the customer list, off shows the full number', async ({ page }) => {
  const settings = new SettingsPage(page);
  await settings.open();
  await expect(page.getByTestId('subscription')).toContainText('Quản lý khách hàng');
  await settings.openCard('system');
  await expect(page).toHaveURL(/\/setting\/system$/);
  await settings.field('hidden_phone_customer').click();
  await settings.save();
  await page.screenshot({ path: '../.tmp/screens/setting-system.png', fullPage: true });

  const list = new CustomerListPage(page);
  await list.goto();
  await expect(list.row('Võ Thị Bảo Mật').getByTestId('customer-phone')).toHaveText('098***4321');

  await openScreen(page, '/setting/system');
  await expect(settings.field('hidden_phone_customer')).toBeChecked();
  await settings.field('hidden_phone_customer').click();
  await settings.save();
  await list.goto();
  await expect(list.row('Võ Thị Bảo Mật').getByTestId('customer-phone')).toHaveText('0987654321');
});

test('a new site name and logo show in the top bar', async ({ page }) => {
  await expect(page.getByTestId('tenant-name')).toHaveText(tenant.company_name);
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.openCard('site');
  await expect(settings.field('name')).toHaveValue(tenant.company_name);
  await settings.field('name').fill('Tổng Đài Bảo Mật');
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#0f6cbd"/></svg>';
  await settings.field('logo').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
  await settings.save();
  await expect(page.getByTestId('tenant-name')).toHaveText('Tổng Đài Bảo Mật');
  await expect(page.getByTestId('site-logo')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('tenant-name')).toHaveText('Tổng Đài Bảo Mật');
  await page.screenshot({ path: '../.tmp/screens/setting-site.png', fullPage: true });
});

test('user settings: a wrong current password is refused under its field', async ({ page }) => {
  await openScreen(page, '/user-setting/password');
  const settings = new SettingsPage(page);
  await settings.field('current_password').fill('sai-mat-khau');
  await settings.field('password').fill('MatKhauMoi@1');
  await settings.field('password_confirmation').fill('MatKhauMoi@1');
  await page.getByTestId('save').click();
  await expect(page.getByText('Mật khẩu hiện tại không đúng')).toBeVisible();
});
