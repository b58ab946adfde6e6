import { expect, test } from '../support/fixtures.ts';
import { LoginPage } from '../pages/LoginPage.ts';
import { newTenant, SignupPage } from '../pages/SignupPage.ts';

test('sign up a new company, land on the dashboard, log out and log in again', async ({ page }) => {
  const t = newTenant('e2e');
  await new LoginPage(page).goto();
  await page.getByTestId('signup-link').click();
  await expect(page).toHaveURL(/\/signup$/);
  const signup = new SignupPage(page);

  await signup.submit();
  await expect(signup.error('company_name')).toHaveText('Thông tin không được để trống');
  await signup.fill({ ...t, ma_dn: 'AB', phone: '123', password_confirmation: 'khac-han' });
  await signup.submit();
  await expect(signup.error('phone')).toHaveText('Định dạng số điện thoại sai');
  await expect(signup.error('password_confirmation')).toHaveText('Mật khẩu xác nhận không khớp');

  // A taken code is answered by the API under its field.
  await signup.fill({ ma_dn: 'demo', phone: t.phone, password_confirmation: t.password });
  await signup.submit();
  await expect(signup.error('ma_dn')).toHaveText('Mã doanh nghiệp đã tồn tại');

  await signup.fill({ ma_dn: t.ma_dn });
  await signup.submit();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toContainText(t.full_name);
  await expect(page.getByTestId('tenant-name')).toHaveText(t.company_name);
  // The trial covers every feature: the customer screens are in the navigation.
  await expect(page.getByTestId('nav-customer')).toBeVisible();
  await page.screenshot({ path: '../.tmp/screens/signup-dashboard.png', fullPage: true });

  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await new LoginPage(page).loginAs({ maDn: t.ma_dn, username: t.username, password: t.password });
  await expect(page.getByTestId('user-name')).toHaveText(t.full_name);
});

test('the sign-up screen links back to the login', async ({ page }) => {
  await new SignupPage(page).goto();
  await page.getByTestId('login-link').click();
  await expect(page.getByTestId('login-form')).toBeVisible();
});
