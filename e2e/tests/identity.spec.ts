import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { AccountListPage } from '../pages/AccountPages.ts';
import { createAgentWithExtension, tenantApiAs } from '../support/tenant-api.ts';
import { openScreen } from '../support/navigate.ts';

// One extension identity (the subscriber that registers and rings: 101, 102) and roles by their
// display names, the same on the accounts list, the account form, the profile and the dashboard.
test('accounts, the account form, the profile and the dashboard show extension 101/102 and role display names', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO);
  await expect(page.getByTestId('dashboard')).toContainText('Quản trị hệ thống');
  await expect(page.getByTestId('dashboard')).not.toContainText('super-admin');

  const accounts = new AccountListPage(page);
  await accounts.goto();
  await expect(accounts.row('admin').getByTestId('account-extension')).toHaveText('101');
  await expect(accounts.row('nhanvien').getByTestId('account-extension')).toHaveText('102');
  await expect(accounts.row('admin').getByTestId('account-role')).toHaveText('Quản trị hệ thống');
  await expect(accounts.row('nhanvien').getByTestId('account-role')).toHaveText('Nhân viên');
  await expect(page.getByTestId('account-list')).not.toContainText(/dn000|super-admin|nhan-vien/);
  await expect(page.getByTestId('role-filter').locator('option')).toHaveText(['Tất cả vai trò', 'Quản trị hệ thống', 'Nhân viên']);

  await accounts.row('nhanvien').getByTestId('edit').click();
  await expect(page.getByTestId('field-extension_code')).toHaveValue('102');
  await expect(page.getByTestId('field-role_id').locator('option:checked')).toHaveText('Nhân viên');

  await openScreen(page, '/user-setting/profile');
  await expect(page.getByTestId('extension-code')).toHaveValue('101');
  await expect(page.getByTestId('profile-role')).toHaveValue('Quản trị hệ thống');
});

// Issue 12 §7: locking an account closes its events socket (4401); the browser must not keep
// reconnecting but end the session as on expiry (docs/adr/0004): /login, the message, dark mode kept.
test('an account locked by the admin: its open page ends the session and goes to /login', async ({ page, request }) => {
  const agent = await createAgentWithExtension(request, DEMO);
  const events = page.waitForEvent('websocket', (ws) => ws.url().endsWith(`/t/${DEMO.maDn}/events`));
  await new LoginPage(page).loginAs(agent);
  await page.getByTestId('dark-mode').click();
  await expect(page.locator('html')).toHaveClass('dark');
  await events;

  const admin = await tenantApiAs(request, DEMO);
  const account = ((await admin.get(`accounts?search=${agent.username}`)) as Record<string, unknown>[])[0];
  const { id, full_name, username, email, phone, role_id } = account; // the agent has no department, team or branch
  await admin.update(`accounts/${id}`, { full_name, username, email, phone, role_id, status: 'locked' });

  // No navigation of its own: only the closed socket can bring the page to /login.
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(page.getByTestId('login-alert')).toHaveText('Phiên làm việc hết hạn. Vui lòng đăng nhập lại !');
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['tongdai.dark_mode']);
  await expect(page.locator('html')).toHaveClass('dark');
});
