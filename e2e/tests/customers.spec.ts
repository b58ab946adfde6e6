import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { CustomerFormPage, CustomerListPage } from '../pages/CustomerPages.ts';

test.describe('customers', () => {
  test.beforeEach(async ({ page }) => {
    await new LoginPage(page).loginAs(DEMO);
  });

  test('list pages by 10 and searches', async ({ page }) => {
    await page.getByTestId('nav-customer').click();
    const list = new CustomerListPage(page);
    await expect(page.getByTestId('customer-list')).toBeVisible();
    await expect(list.rows()).toHaveCount(10);
    await expect(list.pager()).toContainText('Trang 1 /');
    await page.getByTestId('next-page').click();
    await expect(list.pager()).toContainText('Trang 2 /');
    await expect(page).toHaveURL(/page=2/);
    await expect(list.rows()).toHaveCount(10);
    await list.search('khong-ai-co-ten-nay');
    await expect(page.getByTestId('empty-state')).toHaveText('Không tìm thấy kết quả phù hợp');
  });

  test('create validates with the spec messages, then saves; edit; delete with confirmation', async ({ page }) => {
    const list = new CustomerListPage(page);
    const form = new CustomerFormPage(page);
    await list.goto();
    await page.getByTestId('add').click();
    await expect(page).toHaveURL(/\/customer\/add$/);
    await form.save();
    await expect(page.getByText('Thông tin không được để trống')).toHaveCount(3);

    await form.fill({ name: 'Trần Thị Kiểm Thử', phone: '12345', status: 'potential' });
    await form.save();
    await expect(page.getByText('Định dạng số điện thoại sai')).toBeVisible();
    await expect(page).toHaveURL(/\/customer\/add$/);

    await form.fill({ phone: '0987654321', email: 'kiemthu@congty.vn', address: '12 Lê Lợi, Quận 1, TP.HCM' });
    await form.save();
    await expect(page).toHaveURL(/\/customer$/);
    await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm khách hàng' })).toBeVisible();

    await list.search('Kiểm Thử');
    await expect(list.rows()).toHaveCount(1);
    await expect(list.row('Trần Thị Kiểm Thử')).toContainText('0987654321');
    await expect(list.row('Trần Thị Kiểm Thử')).toContainText('Tiềm năng');

    await list.row('Trần Thị Kiểm Thử').getByTestId('edit').click();
    await expect(form.field('name')).toHaveValue('Trần Thị Kiểm Thử');
    await form.fill({ name: 'Trần Thị Đã Sửa' });
    await form.save();
    await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã lưu thay đổi' })).toBeVisible();
    await list.search('Đã Sửa');
    await expect(list.row('Trần Thị Đã Sửa')).toHaveCount(1);

    await list.row('Trần Thị Đã Sửa').getByTestId('delete').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Trần Thị Đã Sửa');
    await page.getByTestId('confirm').click();
    await expect(page.getByTestId('empty-state')).toBeVisible();
  });
});

test('a restricted user sees no delete action, and the API refuses it', async ({ page, request }) => {
  const list = new CustomerListPage(page);
  await list.goto('', DEMO_AGENT);
  await expect(list.rows().first()).toBeVisible();
  await expect(page.getByTestId('delete')).toHaveCount(0);
  await expect(page.getByTestId('edit').first()).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('tongdai.token'));
  const apiBase = await page.evaluate(async () => (await (await fetch('/config.json')).json()).apis.tenant.replace('{ma_dn}', 'demo'));
  const first = await request.get(`${apiBase}/customers?per_page=1`, { headers: { Authorization: `Bearer ${token}` } });
  const id = (await first.json()).data[0].id;
  const del = await request.delete(`${apiBase}/customers/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(del.status()).toBe(403);
  expect((await del.json()).code).toBe('FORBIDDEN');
});
