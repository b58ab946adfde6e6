import { expect, test } from '@playwright/test';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage, SummaryPage } from '../pages/ReportPages.ts';
import { dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { backgroundLuminance, DARK_MAX, LIGHT_MIN } from '../support/theme.ts';

test.use({ launchOptions: PHONE_LAUNCH });

test('real calls 101 → 102 (answered, missed, busy) are counted per extension and per department/team; a row opens its calls', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(180_000);
  const a = await phoneOf(browser, DEMO); // 101, super-admin: the whole tenant
  const b = await phoneOf(browser, DEMO_AGENT); // 102, no report.view: its own row
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // 1. Answered, about two seconds of talk.
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(b.phone.timer()).toHaveText('00:02', { timeout: 15_000 });
    await a.phone.hangup();
    await a.phone.expectReady();
    await b.phone.expectReady();
    // 2. Missed: 101 gives up while 102 rings.
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await a.phone.hangup();
    await expect(b.phone.incoming()).toHaveCount(0);
    await a.phone.expectReady();
    await b.phone.expectReady();
    // 3. Busy: 102 rejects (486).
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.reject();
    await a.phone.expectState('CALL_FAILED');
    await a.phone.expectReady();

    // Per extension, from the menu; records are written in batches as calls end.
    const byExt = new SummaryPage(a.page, 'by-extension');
    await a.page.getByTestId('nav-history-cdr-by-exten').click();
    await expect(byExt.screen()).toBeVisible();
    await expect(a.page.getByRole('heading', { level: 1 })).toHaveText('Thống kê theo máy nhánh');
    await expect(async () => {
      await a.page.reload();
      expect(await byExt.figures('101')).toMatchObject({ calls: '3', answered: '1', missed: '1', busy: '1', rate: '33,3%' });
    }).toPass({ timeout: 45_000 });
    const ext102 = await byExt.figures('102');
    expect(ext102).toMatchObject({ calls: '3', answered: '1', missed: '1', busy: '1' });
    expect(ext102.talk).toMatch(/^00:0[2-6]$/);
    expect(ext102.avgTalk).toBe(ext102.talk);
    await expect(byExt.row('102')).toContainText('Nhân viên tổng đài');
    // Zeros are shown as 0 (no inbound or outbound calls between two extensions).
    await expect(byExt.row('101').getByRole('cell').nth(3)).toHaveText('0');
    await a.page.screenshot({ path: '../.tmp/screens/history-cdr-by-exten.png', fullPage: true });
    expect(await backgroundLuminance(a.page)).toBeGreaterThan(LIGHT_MIN);

    // A range preset lives in the URL; a click on 102's row opens its calls in the same range.
    await byExt.range().selectOption('last7');
    await expect(a.page).toHaveURL(/range=last7/);
    await byExt.row('102').getByTestId('fig-busy').click();
    await expect(a.page).toHaveURL(/\/call-history\?range=last7&extension=102$/);
    const history = new CallHistoryPage(a.page);
    await expect(history.rows()).toHaveCount(3);
    await expect(history.filter('extension')).toHaveValue('102');
    await expect(history.rows().getByTestId('call-result')).toHaveText(['Máy bận', 'Không trả lời', 'Trả lời']);

    // Per department, then team; the charts come with this screen.
    const byOrg = new SummaryPage(a.page, 'by-department-team');
    await a.page.getByTestId('nav-history-by-department-team').click();
    await expect(byOrg.screen()).toBeVisible();
    await expect(byOrg.screen().getByTestId('department-row')).not.toHaveCount(0);
    const departments = byOrg.screen().getByTestId('department-row');
    // 101 and 102 sit in two departments: each shows that extension's three calls.
    await expect(departments.getByTestId('fig-calls')).toHaveText(['3', '3']);
    await expect(departments.getByTestId('fig-answered')).toHaveText(['1', '1']);
    await expect(byOrg.screen().getByTestId('chart-teams')).toContainText('Trả lời và không trả lời theo nhóm');
    await expect(byOrg.screen().getByTestId('chart-series')).toContainText('Cuộc gọi theo giờ');
    await expect(byOrg.screen().getByTestId('chart-teams').locator('svg rect').first()).toBeVisible();
    await a.page.screenshot({ path: '../.tmp/screens/history-by-department-team.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(a.page)).toBeLessThan(DARK_MAX);
    await a.page.screenshot({ path: '../.tmp/screens/history-by-department-team-dark.png', fullPage: true });
    await byExt.open();
    await expect(byExt.row('101')).toBeVisible();
    await a.page.screenshot({ path: '../.tmp/screens/history-cdr-by-exten-dark.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();

    // A range ending before it starts: the API's Vietnamese message on the screen.
    await byOrg.open('?range=2026-03-10~2026-03-09');
    await expect(byOrg.screen().getByTestId('error-state')).toContainText('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');

    // The agent without report.view sees only their own extension's row.
    const own = new SummaryPage(b.page, 'by-extension');
    await own.open();
    await expect(own.screen().getByTestId('summary-row')).toHaveCount(1);
    expect(await own.figures('102')).toMatchObject({ calls: '3', answered: '1', missed: '1', busy: '1' });
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});
