import { expect, test } from '@playwright/test';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { AccountListPage } from '../pages/AccountPages.ts';

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

  await page.goto('/user-setting/profile');
  await expect(page.getByTestId('extension-code')).toHaveValue('101');
  await expect(page.getByTestId('profile-role')).toHaveValue('Quản trị hệ thống');
});
