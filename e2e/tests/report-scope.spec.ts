import { expect, test, type APIRequestContext } from '../support/fixtures.ts';
import { ActivityPage } from '../pages/ActivityPage.ts';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage, SummaryPage } from '../pages/ReportPages.ts';
import { answeredCall, dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { API_URL } from '../support/ports.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';

test.use({ launchOptions: PHONE_LAUNCH });

/** Today's calls a user may see, as the API counts them (the e2e database is shared: count deltas). */
async function total(request: APIRequestContext, who: { maDn: string; username: string; password: string }): Promise<number> {
  const login = await request.post(`${API_URL}/identity/login/tenant`, { data: { ma_dn: who.maDn, username: who.username, password: who.password } });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const res = await request.get(`${API_URL}/t/${who.maDn}/reports/call-history`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

test("a department manager without report.view sees their department's calls and people, not the others', and only their department's filters", async ({ browser, request }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(150_000);
  // The manager of customer care (where 102 sits): an account in the restricted role, no extension.
  const api = await tenantApiAs(request, DEMO);
  const role = ((await api.get('roles?per_page=100')) as { id: number; name: string }[]).find((r) => r.name === 'nhan-vien')!;
  const suffix = Date.now().toString(36).slice(-5);
  const manager = { maDn: DEMO.maDn, username: `truongphong-${suffix}`, password: 'Truongphong@123' };
  const account = await api.create('accounts', {
    full_name: `Trưởng phòng CSKH ${suffix}`, username: manager.username, password: manager.password, password_confirmation: manager.password, role_id: role.id, status: 'active',
  });
  const departments = (await api.get('departments?per_page=100')) as { id: number; name: string; code: string; description: string; active: boolean; manager_id: number | null }[];
  const care = departments.find((d) => d.code === 'CSKH')!;
  const sales = departments.find((d) => d.code === 'KD')!;
  const body = (d: typeof care, managerId: number | null) => ({ name: d.name, code: d.code, description: d.description, active: d.active, manager_id: managerId });
  await api.update(`departments/${care.id}`, body(care, account.id));

  const a = await phoneOf(DEMO); // 101, sales, report.view
  const b = await phoneOf(DEMO_AGENT); // 102, customer care
  const m = await phoneOf(manager);
  try {
    const before = { admin: await total(request, DEMO), manager: await total(request, manager) };
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // 101 → 102, answered: customer care's. 101 → an outside number with no route: sales' only.
    await answeredCall(a, b, '102', '00:01');
    await dial(a.page, '0241234567');
    await a.phone.expectState('CALL_FAILED');
    await a.phone.expectReady();
    // Records are written in batches as calls end.
    await expect.poll(() => total(request, DEMO), { timeout: 45_000 }).toBe(before.admin + 2);
    expect(await total(request, manager)).toBe(before.manager + 1);

    // On screen: the manager's newest call is 101 → 102; the refused outside call is not there.
    const history = new CallHistoryPage(m.page);
    await history.open();
    expect(await history.rowText(0)).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102' });
    await expect(history.rows().getByTestId('call-callee').filter({ hasText: '0241234567' })).toHaveCount(0);
    const admin = new CallHistoryPage(a.page);
    await admin.open();
    expect(await admin.rowText(0)).toMatchObject({ caller: '101', callee: '0241234567' });
    // Filters: only what the manager may see (102, customer care and its teams).
    await expect(history.filter('extension').locator('option')).toHaveText(['Tất cả máy nhánh', '102 – Nhân viên tổng đài']);
    await expect(history.filter('department').locator('option')).toHaveText(['Tất cả phòng ban', care.name]);
    await expect(history.filter('department').locator('option', { hasText: sales.name })).toHaveCount(0);
    await m.page.screenshot({ path: '../.tmp/screens/call-history-manager.png', fullPage: true });
    // Asking for 101 by hand (a link, an old bookmark): the API says why in Vietnamese.
    await history.open('?extension=101');
    await expect(history.error()).toContainText('Bạn không có quyền xem cuộc gọi của máy nhánh này');

    // The summaries: 102's row only, and the same filters.
    const byExt = new SummaryPage(m.page, 'by-extension');
    await byExt.open();
    await expect(byExt.screen().getByTestId('summary-row')).toHaveCount(1);
    await expect(byExt.row('102')).toBeVisible();
    await expect(byExt.filter('department').locator('option')).toHaveText(['Tất cả phòng ban', care.name]);
    await byExt.filter('direction').selectOption('internal');
    await expect(m.page).toHaveURL(/direction=internal/);
    await expect(byExt.row('102')).toBeVisible();
    const byOrg = new SummaryPage(m.page, 'by-department-team');
    await byOrg.open();
    await expect(byOrg.screen().getByTestId('department-row')).toHaveCount(1);
    await expect(byOrg.screen().getByTestId('department-row')).toContainText(care.name);
    await m.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(m.page)).toBeLessThan(DARK_MAX);
    await m.page.screenshot({ path: '../.tmp/screens/history-by-department-team-manager-dark.png', fullPage: true });
    await m.page.getByTestId('dark-mode').click();

    // User activity: the same scope (ADR 0034). Today 102 and the manager logged in (their phones),
    // so did the admin (sales): the manager sees their department's people, never the admin.
    const activity = new ActivityPage(m.page);
    await activity.open();
    await expect.poll(() => activity.people()).toEqual(expect.arrayContaining(['Nhân viên tổng đài', `Trưởng phòng CSKH ${suffix}`]));
    expect(await activity.people()).not.toContain('Quản trị viên');
    await expect(activity.filter('user').locator('option', { hasText: 'Nhân viên tổng đài (102)' })).toHaveCount(1);
    await expect(activity.filter('user').locator('option', { hasText: 'Quản trị viên' })).toHaveCount(0);
    await m.page.screenshot({ path: '../.tmp/screens/activity-manager.png', fullPage: true });
  } finally {
    await api.update(`departments/${care.id}`, body(care, care.manager_id));
    await Promise.all([a.page.context().close(), b.page.context().close(), m.page.context().close()]);
  }
});
