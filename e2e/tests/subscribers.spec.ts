import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { SipPasswordDialog, SubscriberFormPage, SubscriberListPage } from '../pages/SubscriberPages.ts';

test('subscribers: create 120 and see its password once, find, edit, reset the password, delete', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO);
  const list = new SubscriberListPage(page);
  const form = new SubscriberFormPage(page);
  const dialog = new SipPasswordDialog(page);

  await page.getByTestId('nav-subscribers').click();
  await expect(page.getByTestId('subscriber-list')).toBeVisible();
  await expect(list.row('101').getByTestId('subscriber-user')).toHaveText('Quản trị viên');

  await page.getByTestId('add').click();
  await expect(page).toHaveURL(/\/subscribers\/add$/);
  await form.save();
  await expect(page.getByText('Thông tin không được để trống')).toHaveCount(2);
  await form.field('extension').fill('1');
  await form.field('display_name').fill('Lễ tân tầng 1');
  await form.save();
  await expect(page.getByText('Số máy nhánh gồm 2–6 chữ số')).toBeVisible();

  // The number the seed gave the admin is refused by the API, under the field.
  await form.field('extension').fill('101');
  await form.save();
  await expect(page.getByText('Số máy nhánh đã tồn tại').first()).toBeVisible();

  await form.field('extension').fill('120');
  await expect(form.field('user_id')).toHaveValue('');
  await form.save();
  await expect(dialog.root()).toContainText('Mật khẩu chỉ hiển thị một lần');
  await expect(page.getByTestId('sip-domain')).toHaveValue('demo.tongdai.local');
  await expect(page.getByTestId('sip-username')).toHaveValue('120');
  const first = await dialog.password();
  expect(first).toHaveLength(16);
  await dialog.close();
  await expect(page).toHaveURL(/\/subscribers$/);
  // Once closed, the password is nowhere on the page.
  await expect(page.getByText(first)).toHaveCount(0);

  await list.search('120');
  await expect(list.rows()).toHaveCount(1);
  await expect(list.row('120')).toContainText('Lễ tân tầng 1');
  await expect(list.row('120').getByTestId('subscriber-user')).toHaveText('—');
  await expect(list.row('120').getByTestId('subscriber-registered')).toHaveText('Ngoại tuyến'); // no phone uses it yet

  await list.row('120').getByTestId('edit').click();
  await expect(form.field('display_name')).toHaveValue('Lễ tân tầng 1');
  await expect(form.field('extension')).toHaveValue('120');
  await page.getByTestId('reset-password').click();
  await page.getByTestId('confirm').click();
  const second = await dialog.password();
  expect(second).toHaveLength(16);
  expect(second).not.toBe(first);
  await dialog.close();
  await expect(page).toHaveURL(/\/subscribers\/edit\/\d+$/);

  await form.field('display_name').fill('Lễ tân sảnh chính');
  await form.save();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã lưu thay đổi' })).toBeVisible();
  await expect(page).toHaveURL(/\/subscribers(\?.*)?$/);
  await list.search('120');
  await expect(list.row('120')).toContainText('Lễ tân sảnh chính');

  await list.row('120').getByTestId('delete').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('120');
  await page.getByTestId('confirm').click();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã xoá máy nhánh' })).toBeVisible();
  await expect(page.getByTestId('empty-state')).toBeVisible();
});

test('the restricted user nhanvien has no "Máy nhánh" entry and is refused the screen', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO_AGENT, '/subscribers');
  await expect(page.getByTestId('nav-customer')).toBeVisible();
  await expect(page.getByTestId('nav-subscribers')).toHaveCount(0);
  await expect(page.getByTestId('forbidden')).toBeVisible();
});
