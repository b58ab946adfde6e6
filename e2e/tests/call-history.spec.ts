import { readFileSync } from 'node:fs';
import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { answeredCall, dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { backgroundLuminance, DARK_MAX, LIGHT_MIN } from '../support/theme.ts';

test.use({ launchOptions: PHONE_LAUNCH });

test('calls between 101 and 102 appear in the call history with their results; filters live in the URL; success calls lists the answered one', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(150_000);
  const a = await phoneOf(DEMO); // 101, super-admin: the whole tenant
  const b = await phoneOf(DEMO_AGENT); // 102, no report.view: its own calls
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);

    // 1. Answered, about two seconds of talk.
    await answeredCall(a, b, '102', '00:02');

    // 2. Rejected by 102: its phone answers 486, a busy call.
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.reject();
    await a.phone.expectState('CALL_FAILED');
    await a.phone.expectReady();
    await b.phone.expectReady();

    // The admin opens the history from the menu ("Báo cáo" group) and narrows it to 101 ↔ 102.
    const history = new CallHistoryPage(a.page);
    await a.page.getByTestId('nav-call-history').click();
    await expect(a.page.getByTestId('nav-group-mf_reports')).toContainText('Lịch sử cuộc gọi');
    await expect(history.list()).toBeVisible();
    await history.filter('direction').selectOption('internal');
    await history.filter('extension').selectOption('102');
    await history.filter('range').selectOption('last7');
    await expect(a.page).toHaveURL(/direction=internal/);
    await expect(a.page).toHaveURL(/extension=102/);
    await expect(a.page).toHaveURL(/range=last7/);
    // Call records are written as calls end (in batches): the newest two are these calls.
    await expect(async () => {
      await a.page.reload();
      await expect(history.rows().nth(1)).toBeVisible({ timeout: 8_000 });
      expect(await history.rowText(0)).toMatchObject({ result: 'Máy bận', caller: '101', callee: '102', answeredBy: '—', talk: '00:00', direction: 'Nội bộ' });
    }).toPass({ timeout: 45_000 });
    const answered = await history.rowText(1);
    expect(answered).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102', answeredBy: '102\nNhân viên tổng đài', direction: 'Nội bộ' });
    expect(answered.talk).toMatch(/^00:0[2-6]$/);
    await expect(history.row(0).getByTestId('call-reason')).toHaveText('Bên nhận đang bận hoặc đã từ chối cuộc gọi');

    // The filters survive a reload: same choices, same rows.
    await a.page.reload();
    await expect(history.filter('direction')).toHaveValue('internal');
    await expect(history.filter('extension')).toHaveValue('102');
    await expect(history.filter('range')).toHaveValue('last7');
    await expect(history.row(0).getByTestId('call-result')).toHaveText('Máy bận');
    await expect(history.row(1).getByTestId('call-result')).toHaveText('Trả lời');
    // Export: a CSV of exactly these rows, Vietnamese headers, opened from the downloaded file.
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('lich-su-cuoc-goi.csv');
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(csv[0]).toMatch(/^Thời gian,Hướng gọi,Số gọi,Số nhận,/);
    // The filters' rows, newest first: these two calls, then any other internal call of 102 this week (another
    // spec's 101 → 102 call on this stack, as in ci3 of the twenty-sixth session).
    expect(csv.length).toBeGreaterThanOrEqual(3);
    expect(csv.slice(1).filter((l) => !/,Nội bộ,(101,102|102,101),/.test(l))).toEqual([]);
    expect(csv[1]).toMatch(/,Nội bộ,101,102,.*,Máy bận,/);
    expect(csv[2]).toMatch(/,Nội bộ,101,102,,,102,Nhân viên tổng đài,\d\d:\d\d,00:0[2-6],Trả lời,/);
    await a.page.screenshot({ path: '../.tmp/screens/call-history.png', fullPage: true });
    expect(await backgroundLuminance(a.page)).toBeGreaterThan(LIGHT_MIN);
    await a.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(a.page)).toBeLessThan(DARK_MAX);
    await a.page.screenshot({ path: '../.tmp/screens/call-history-dark.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();

    // A range ending before it starts, typed into the URL: said beside the date fields, nothing asked of the API (issue 39).
    await history.open('?range=2026-03-10~2026-03-09');
    await expect(a.page.getByTestId('range-error')).toHaveText('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');
    await expect(history.error()).toHaveCount(0);

    // Successful calls: the answered one only.
    const success = new CallHistoryPage(a.page, 'success-calls');
    await success.open('?direction=internal&extension=102');
    expect(await success.rowText(0)).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102' });
    await expect(success.rows().getByTestId('call-result').filter({ hasNotText: 'Trả lời' })).toHaveCount(0);
    await expect(success.filter('result')).toHaveCount(0);
    await a.page.screenshot({ path: '../.tmp/screens/history-success-call.png', fullPage: true });

    // The agent (102, no report.view) sees these calls (its own) and has no department to pick.
    const own = new CallHistoryPage(b.page);
    await own.open('?direction=internal');
    expect(await own.rowText(0)).toMatchObject({ result: 'Máy bận', caller: '101', callee: '102' });
    await expect(own.filter('department')).toHaveCount(0);
    await expect(b.page.getByTestId('export')).toHaveCount(0);
    await b.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(b.page)).toBeLessThan(DARK_MAX);
    await b.page.screenshot({ path: '../.tmp/screens/call-history-agent-dark.png', fullPage: true });
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});

// Found with this spec: a call the caller gave up on while the callee rang (CANCEL → 487) left
// no call record — kamailio.cfg set `$dlg_var(code) = 487` (an integer: "non-string values are
// not supported"), and the record only came from the 10-minute sweep, as FAILED.
test('a call the caller gives up on while it rings is recorded as "Không trả lời"', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(90_000);
  const a = await phoneOf(DEMO);
  const b = await phoneOf(DEMO_AGENT);
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await a.phone.hangup();
    await expect(b.phone.incoming()).toHaveCount(0);
    const history = new CallHistoryPage(a.page);
    await expect(async () => {
      await history.open('?direction=internal&extension=102');
      expect(await history.rowText(0)).toMatchObject({ result: 'Không trả lời', caller: '101', callee: '102' });
    }).toPass({ timeout: 45_000 });
    await expect(history.row(0).getByTestId('call-reason')).toHaveText('Người gọi gác máy trước khi có người nghe');
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});
