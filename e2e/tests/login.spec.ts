import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';

test('required fields show the Vietnamese message and nothing is sent', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Thông tin không được để trống')).toHaveCount(3);
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password is refused without saying which part was wrong', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.fill({ ...DEMO, password: 'sai-mat-khau' });
  await expect(login.alert()).toHaveText('Mã doanh nghiệp, tên đăng nhập hoặc mật khẩu không đúng');
  await login.fill({ ...DEMO, maDn: 'khong-ton-tai' });
  await expect(login.alert()).toHaveText('Mã doanh nghiệp, tên đăng nhập hoặc mật khẩu không đúng');
});

test('login lands on the dashboard, / redirects there, navigation comes from the manifests, logout', async ({ page }) => {
  const login = new LoginPage(page);
  await login.loginAs(DEMO);
  await expect(page.getByRole('heading', { name: /Xin chào/ })).toBeVisible();
  await expect(page.getByTestId('tenant-name')).toHaveText('Công ty TNHH Tổng Đài Demo');
  await expect(page.getByTestId('nav-group-mf_crm')).toContainText('Khách hàng & Tổ chức');
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  const stored = await page.evaluate(() => ({ token: localStorage.getItem('tongdai.token'), maDn: localStorage.getItem('tongdai.ma_dn'), user: JSON.parse(localStorage.getItem('tongdai.user') ?? 'null') }));
  expect(stored.token).toBeTruthy();
  expect(stored.maDn).toBe('demo');
  expect(stored.user.name).toBe('super-admin');
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('tongdai.token'))).toBeNull();
  // A logout is no expired session: the events socket the API closes for the revoked token says nothing.
  await expect(login.alert()).toHaveCount(0);
  // An address opened logged out: /login says where to go on to, and the login goes there.
  await page.goto('/customer?search=An');
  await expect(page).toHaveURL('/login?next=%2Fcustomer%3Fsearch%3DAn');
  await login.fill(DEMO);
  await expect(page).toHaveURL('/customer?search=An');
  await expect(page.getByTestId('customer-list')).toBeVisible();
  // Never to another site: a ?next= that leaves the app goes to the dashboard.
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/login?next=%2F%2Fevil.example%2F');
  await login.fill(DEMO);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an unknown address inside the shell says so in Vietnamese', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO, '/khong-co-trang-nay');
  await expect(page.getByTestId('not-found')).toContainText('Không tìm thấy trang');
  await expect(page.getByTestId('nav')).toBeVisible();
});
