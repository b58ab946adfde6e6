import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '../support/fixtures.ts';
import { readSheet } from 'read-excel-file/node';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { ActivityPage } from '../pages/ActivityPage.ts';
import { kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { backgroundLuminance, DARK_MAX, LIGHT_MIN } from '../support/theme.ts';
import { openScreen } from '../support/navigate.ts';

test.use({ launchOptions: PHONE_LAUNCH });

const AGENT = 'Nhân viên tổng đài';
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Ho_Chi_Minh' }).format(new Date());
const shown = (day: string) => day.split('-').reverse().join('/');
const seconds = (hms: string) => hms.split(':').reduce((s, n) => s * 60 + Number(n), 0);

/** Sets the activity status on /user-setting/status and waits for the API to take it. */
async function setStatus(page: Page, value: 1 | 2 | 3) {
  await openScreen(page, '/user-setting/status');
  await page.getByTestId(`status-${value}`).click();
  await Promise.all([
    page.waitForResponse((r) => r.url().includes('/update-activity-status') && r.ok()),
    page.getByTestId('save').click(),
  ]);
}

test('records the agent’s login, status changes and SIP registration; the supervisor sees them per day, in a timeline, and exports them', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(120_000);
  const day = today();
  const b = await phoneOf(DEMO_AGENT); // 102: its login is recorded, its softphone registers
  const a = await phoneOf(DEMO); // super-admin: activity.view, report.export
  try {
    await b.phone.expectReady();
    const activity = new ActivityPage(a.page);
    await activity.open(`?search=102`);
    const before = (await activity.row(AGENT, shown(day)).count()) ? await activity.figures(AGENT, shown(day)) : { changes: 0 };

    // Tạm nghỉ, then Ngừng nhận cuộc gọi (the phone stops), then Sẵn sàng again.
    await setStatus(b.page, 2);
    await setStatus(b.page, 3);
    await b.phone.expectState('CALL_OFFLINE', 'Ngừng nhận cuộc gọi');
    await setStatus(b.page, 1);
    await b.phone.expectReady();

    let figures = before as Awaited<ReturnType<ActivityPage['figures']>>;
    await expect(async () => {
      await activity.open(`?search=102`);
      figures = await activity.figures(AGENT, shown(day));
      expect(figures.changes).toBe(before.changes + 3);
      expect(seconds(figures.registered)).toBeGreaterThan(0);
    }).toPass({ timeout: 20_000 });
    expect(figures.firstLogin).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(seconds(figures.ready) + seconds(figures.pause) + seconds(figures.stopped)).toBeGreaterThan(0);

    // The agent's day as a timeline: login mark, the three statuses, the registration.
    await activity.row(AGENT, shown(day)).getByTestId('open-timeline').click();
    await expect(a.page).toHaveURL(new RegExp(`timeline=\\d+(~|%7E)${day}`));
    const timeline = activity.timeline();
    await expect(timeline).toContainText(`Dòng thời gian: ${AGENT}, ${shown(day)}`);
    await expect(timeline.getByTestId('timeline-login').first()).toBeAttached();
    for (const s of [1, 2, 3]) await expect(timeline.getByTestId(`timeline-status-${s}`).first()).toBeAttached();
    await expect(timeline.getByTestId('timeline-registration').first()).toBeAttached();
    await expect(timeline).toContainText('Ngừng nhận cuộc gọi');

    await a.page.screenshot({ path: '../.tmp/screens/activity-user-tenant.png', fullPage: true });
    expect(await backgroundLuminance(a.page)).toBeGreaterThan(LIGHT_MIN);
    await a.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(a.page)).toBeLessThan(DARK_MAX);
    await a.page.screenshot({ path: '../.tmp/screens/activity-user-tenant-dark.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();

    // Export: the file holds the row on screen, under Vietnamese headers.
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('hoat-dong-nguoi-dung.csv');
    const lines = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Ngày,Người dùng,Máy nhánh,Phòng ban,Nhóm,Đăng nhập đầu,Đăng xuất cuối,Thời gian đăng ký SIP,Sẵn sàng,Tạm nghỉ,Ngừng nhận cuộc gọi,Số lần đổi trạng thái,Cuộc gọi đã xử lý');
    const row = lines.find((l) => l.startsWith(`${day},${AGENT},102,`))!.split(',');
    expect(row[5]).toBe(figures.firstLogin);
    expect(Number(row[11])).toBeGreaterThanOrEqual(figures.changes);
    // The same rows as XLSX: the file opens, the agent's day is there.
    await a.page.getByTestId('export-format').selectOption('xlsx');
    const [xlsx] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export').click()]);
    expect(xlsx.suggestedFilename()).toBe('hoat-dong-nguoi-dung.xlsx');
    const sheet = (await readSheet(readFileSync(await xlsx.path()))).map((r) => r.map((c) => (c === null ? '' : String(c))));
    expect(sheet[0][0]).toBe('Ngày');
    expect(sheet.find((r) => r[0] === day && r[1] === AGENT)?.[5]).toBe(figures.firstLogin);

    // The agent (no activity.view) sees only their own days.
    const own = new ActivityPage(b.page);
    await own.open();
    await expect(own.rows().first()).toBeVisible();
    const people = await own.rows().getByTestId('activity-person').allInnerTexts();
    expect(people.every((p) => p.startsWith(AGENT))).toBe(true);
    await expect(b.page.getByTestId('export')).toHaveCount(0);

    // A range ending before it starts, typed into the URL: said beside the date fields, nothing asked of the API (issue 39).
    await activity.open('?range=2026-03-10~2026-03-09');
    await expect(a.page.getByTestId('range-error')).toHaveText('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');
    await expect(activity.list().getByTestId('error-state')).toHaveCount(0);
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});
