import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { CustomerListPage } from '../pages/CustomerPages.ts';
import { gotoInApp } from '../support/navigate.ts';
import { backgroundLuminance, DARK_MAX, LIGHT_MIN } from '../support/theme.ts';
import { shot } from '../support/screens.ts';

/** Screens to look at (in .tmp/screens), in both themes: path, screenshot name, heading. */
const SCREENS = [
  ['/roles', 'roles', 'Vai trò'],
  ['/role/add', 'role-form', 'Thêm vai trò'],
  ['/accounts', 'accounts', 'Tài khoản'],
  ['/departments', 'departments', 'Phòng ban'],
  ['/groups', 'groups', 'Nhóm người dùng'],
  ['/setting', 'settings', 'Cài đặt'],
  ['/setting/system', 'settings-system', 'Cài đặt hệ thống'],
  ['/numbers', 'numbers', 'Danh sách số điện thoại'],
  ['/inbounds', 'inbounds', 'Danh sách tuyến gọi vào'],
  ['/inbounds/add', 'inbound-form', 'Thêm tuyến gọi vào'],
  ['/ringgroup', 'ringgroups', 'Danh sách nhóm đổ chuông'],
  ['/ringgroup/add', 'ringgroup-form', 'Thêm nhóm đổ chuông'],
  ['/queue', 'queues', 'Danh sách hàng đợi'],
  ['/queue/add', 'queue-form', 'Thêm hàng đợi'],
  ['/ivr-details', 'ivrs', 'Danh sách IVR'],
  ['/ivr-details/add', 'ivr-form', 'Thêm IVR'],
  ['/notifications', 'notifications', 'Danh sách thông báo'],
  ['/notifications/add', 'notification-form', 'Thêm thông báo'],
  ['/last-calls', 'last-calls', 'Danh sách quy tắc gọi lại'],
  ['/conditions', 'conditions', 'Điều kiện thời gian'],
  ['/conditions/add', 'condition-form', 'Thêm điều kiện thời gian'],
  ['/time-groups', 'time-groups', 'Nhóm thời gian'],
  ['/time-groups/add', 'time-group-form', 'Thêm nhóm thời gian'],
  ['/greeting', 'greetings', 'Lời chào'],
  ['/music-on-holds', 'music-on-holds', 'Nhạc chờ'],
  ['/outbound', 'outbound', 'Danh sách tuyến gọi ra'],
  ['/list-of-blocked-incoming-numbers', 'blocked-in', 'Danh sách số bị chặn gọi vào'],
  ['/list-of-blocked-out-numbers', 'blocked-out', 'Danh sách số bị chặn gọi ra'],
  ['/survey/categories', 'survey-categories-empty', 'Danh sách danh mục khảo sát'],
  ['/survey/question', 'survey-questions-empty', 'Danh sách câu hỏi'],
  ['/survey/campaign', 'survey-campaigns-empty', 'Danh sách chiến dịch khảo sát'],
  ['/marketings/campaign', 'marketing-campaigns-empty', 'Danh sách chiến dịch marketing'],
] as const;

// Each screen in both themes, with its key texts asserted. The two walk read only (each worker has
// its own stack): one per worker, side by side.
test.describe.configure({ mode: 'parallel' });
for (const dark of [false, true]) {
  test(`main screens render in ${dark ? 'dark' : 'light'} mode`, async ({ page }) => {
    // 60 s for all of them ran out on a loaded 2-core machine when each screen was a full page load
    // (at the 27th of 28, load average 15); they are reached as the app's links go now; 5 s a screen.
    test.setTimeout(SCREENS.length * 5_000);
    if (dark) await page.addInitScript(() => localStorage.setItem('tongdai.dark_mode', '1'));
    const login = new LoginPage(page);
    await login.goto();
    await expect(page.getByRole('heading', { name: 'Đăng nhập' })).toBeVisible();
    await page.screenshot(shot(`login-${dark ? 'dark' : 'light'}`));
    await login.fill(DEMO);
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await expect(page.getByTestId('dash-calls-value')).toHaveText(/\d+/);
    // The stored choice really themes the page: a dark background in dark mode, a light one otherwise.
    if (dark) expect(await backgroundLuminance(page)).toBeLessThan(DARK_MAX);
    else expect(await backgroundLuminance(page)).toBeGreaterThan(LIGHT_MIN);
    await page.screenshot(shot(`dashboard-${dark ? 'dark' : 'light'}`));
    const list = new CustomerListPage(page);
    await list.goto();
    await expect(list.rows()).toHaveCount(10);
    await page.screenshot(shot(`customers-${dark ? 'dark' : 'light'}`));
    await page.getByTestId('add').click();
    await page.getByTestId('save').click();
    await expect(page.getByText('Thông tin không được để trống').first()).toBeVisible();
    await page.screenshot(shot(`customer-form-errors-${dark ? 'dark' : 'light'}`));
    const mode = dark ? 'dark' : 'light';
    for (const [path, name, heading] of SCREENS) {
      await gotoInApp(page, path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(new RegExp(heading, 'i'));
      await expect(page.getByTestId('error-state')).toHaveCount(0);
      await page.screenshot(shot(`${name}-${mode}`));
    }
  });
}
