import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { OrgFormPage, OrgListPage } from '../pages/OrgPages.ts';
import { CustomerListPage } from '../pages/CustomerPages.ts';

test.describe('organisation', () => {
  test.beforeEach(async ({ page }) => {
    await new LoginPage(page).loginAs(DEMO);
  });

  test('department with a team cannot be deleted until the team is gone', async ({ page }) => {
    const departments = new OrgListPage(page, '/departments', 'department-list');
    const teams = new OrgListPage(page, '/teams', 'team-list');
    const form = new OrgFormPage(page);

    await page.getByTestId('nav-departments').click();
    await expect(page.getByTestId('department-list')).toBeVisible();
    await expect(departments.row('Phòng Kinh doanh')).toBeVisible();
    await departments.add();
    await expect(page).toHaveURL(/\/department\/add$/);
    await form.save();
    await expect(page.getByText('Thông tin không được để trống')).toBeVisible();
    await form.fill({ name: 'Phòng Kiểm thử E2E', code: 'KTE2E' });
    await form.save();
    await expect(page).toHaveURL(/\/departments$/);
    await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm phòng ban' })).toBeVisible();
    await expect(departments.row('Phòng Kiểm thử E2E')).toContainText('KTE2E');
    await expect(departments.row('Phòng Kiểm thử E2E').getByRole('cell').nth(3)).toHaveText('0');
    await page.screenshot({ path: '../.tmp/screens/org-departments.png', fullPage: true });

    // Same name again: the API's 409 shows under the field.
    await departments.add();
    await form.fill({ name: 'phòng kiểm thử e2e' });
    await form.save();
    await expect(page.getByTestId('form-error')).toHaveText('Tên đã tồn tại');

    await teams.goto();
    await teams.add();
    await expect(page).toHaveURL(/\/team\/add$/);
    await form.fill({ name: 'Nhóm Kiểm thử E2E' });
    await form.choose('department_id', 'Phòng Kiểm thử E2E');
    await page.screenshot({ path: '../.tmp/screens/org-team-form.png', fullPage: true });
    await form.save();
    await expect(page).toHaveURL(/\/teams$/);
    await expect(teams.row('Nhóm Kiểm thử E2E')).toContainText('Phòng Kiểm thử E2E');

    await departments.goto();
    await departments.search('Kiểm thử E2E');
    await departments.remove('Phòng Kiểm thử E2E');
    await expect(page.getByTestId('toast-error').filter({ hasText: 'Không thể xoá phòng ban còn 1 nhóm' })).toBeVisible();
    await expect(departments.row('Phòng Kiểm thử E2E')).toBeVisible();

    await teams.goto();
    await teams.remove('Nhóm Kiểm thử E2E');
    await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã xoá nhóm' })).toBeVisible();
    await expect(teams.row('Nhóm Kiểm thử E2E')).toHaveCount(0);

    await departments.goto();
    await departments.remove('Phòng Kiểm thử E2E');
    await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã xoá phòng ban' })).toBeVisible();
    await expect(departments.row('Phòng Kiểm thử E2E')).toHaveCount(0);
  });

  test('groups are created and edited in a dialog', async ({ page }) => {
    const groups = new OrgListPage(page, '/groups', 'group-list');
    const form = new OrgFormPage(page);
    await groups.goto();
    await expect(groups.row('Trực ca sáng')).toContainText('2 thành viên');
    await groups.add();
    await expect(page.getByTestId('group-form')).toBeVisible();
    await form.fill({ name: 'Trực lễ Tết' });
    await page.getByRole('checkbox', { name: 'Quản trị viên' }).check();
    await expect(page.getByRole('checkbox', { name: 'Nhân viên tổng đài' })).not.toBeChecked();
    await form.save();
    await expect(page.getByTestId('group-form')).toHaveCount(0);
    await expect(groups.row('Trực lễ Tết')).toContainText('1 thành viên');
    await expect(groups.row('Trực lễ Tết').locator('[title="Quản trị viên"]')).toBeVisible();
    await groups.row('Trực lễ Tết').getByTestId('edit').click();
    await expect(form.field('name')).toHaveValue('Trực lễ Tết');
    await expect(page.getByRole('checkbox', { name: 'Quản trị viên' })).toBeChecked();
    await page.getByRole('checkbox', { name: 'Nhân viên tổng đài' }).check();
    await expect(page.getByRole('checkbox', { name: 'Quản trị viên' })).toBeChecked();
    await form.save();
    // The edit dialog has closed (as a user sees it go) before they open a new one.
    await expect(page.getByTestId('group-form')).toHaveCount(0);
    await expect(groups.row('Trực lễ Tết')).toContainText('2 thành viên');
    await groups.add();
    await expect(page.getByTestId('group-form')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Quản trị viên' })).toBeVisible();
    await page.screenshot({ path: '../.tmp/screens/org-group-dialog.png', fullPage: true });
  });

  test('customers filter by project', async ({ page }) => {
    const list = new CustomerListPage(page);
    await list.goto();
    await expect(list.pager()).toContainText('bản ghi');
    const all = await list.pager().textContent();
    await page.getByTestId('project-filter').selectOption({ label: 'Tổng đài ảo 2026' });
    await expect(page).toHaveURL(/is_project=\d+/);
    await expect(list.pager()).toContainText('12 bản ghi');
    await page.screenshot({ path: '../.tmp/screens/org-customers-by-project.png', fullPage: true });
    await page.getByTestId('profile-status-filter').selectOption({ label: 'Chưa liên hệ' });
    await expect(list.pager()).not.toContainText('12 bản ghi');
    await page.getByTestId('project-filter').selectOption({ label: 'Tất cả dự án' });
    await page.getByTestId('profile-status-filter').selectOption({ label: 'Tất cả trạng thái hồ sơ' });
    await expect(page).not.toHaveURL(/is_project|is_status/);
    await expect(list.pager()).toHaveText(all!);
  });
});

test('the restricted user sees no organisation menu', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO_AGENT);
  await expect(page.getByTestId('nav-customer')).toBeVisible();
  await expect(page.getByTestId('nav-departments')).toHaveCount(0);
  await expect(page.getByTestId('nav-groups')).toHaveCount(0);
});
