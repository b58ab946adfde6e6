import { expect, test } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { answeredCall, kamailioInstalled, phoneOf } from '../support/phones.ts';
import { WEB_PORT } from '../support/ports.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { axeViolations } from '../support/axe.ts';
import { fillDate } from '../support/dates.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';

// The browser's own language is not the app's: native date inputs followed it (11/25/2026).
test.use({ locale: 'en-US' });

test('the date fields speak Vietnamese in an English browser: dd/MM/yyyy, a Monday-first calendar, a reversed range told beside the fields', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO);
  const history = new CallHistoryPage(page);
  await history.open('?range=2026-11-20~2026-11-25');
  const from = page.getByTestId('range-from');
  const to = page.getByTestId('range-to');
  await expect(from).toHaveValue('20/11/2026');
  await expect(to).toHaveValue('25/11/2026');

  // The calendar: Vietnamese months and days, Monday first; light and dark, axe-clean.
  for (const dark of [false, true]) {
    // The field's own calendar button, beside its text (a data-testid given to the field reaches its input).
    await page.getByTestId('range-to').locator('xpath=..').getByRole('button', { name: 'Chọn ngày' }).click();
    const picker = page.getByTestId('date-picker');
    await expect(picker).toContainText('Tháng 11 năm 2026');
    await expect(picker.getByRole('columnheader').first()).toHaveText('T2');
    await expect(picker.getByRole('columnheader').last()).toHaveText('CN');
    await expect(picker.getByRole('button', { name: 'Hôm nay' })).toBeVisible();
    await page.screenshot({ path: `../.tmp/screens/date-picker-${dark ? 'dark' : 'light'}.png` });
    expect(await axeViolations(page, '/call-history (date picker)', { colours: dark })).toEqual([]);
    if (dark) break;
    await page.keyboard.press('Escape');
    await expect(picker).toHaveCount(0);
    await page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(page)).toBeLessThan(DARK_MAX);
  }
  // A day picked: the field and the URL.
  await page.getByTestId('date-picker').getByRole('button', { name: '26 tháng 11 năm 2026, Thứ Năm' }).click();
  await expect(to).toHaveValue('26/11/2026');
  await expect(page).toHaveURL(/range=2026-11-20(~|%7E)2026-11-26/);
  await page.getByTestId('dark-mode').click();

  // A start after the end: said beside the fields, not sent (no error card, the URL keeps the last good range).
  await fillDate(from, '2026-11-27');
  await expect(page.getByTestId('range-error')).toHaveText('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');
  await expect(history.error()).toHaveCount(0);
  await expect(page).toHaveURL(/range=2026-11-20(~|%7E)2026-11-26/);
  await page.screenshot({ path: '../.tmp/screens/date-range-reversed.png' });
  // Typed d/M/yyyy is read too; the message goes once the range is right.
  await fillDate(to, '2026-11-28');
  await expect(page.getByTestId('range-error')).toHaveCount(0);
  await expect(page).toHaveURL(/range=2026-11-27(~|%7E)2026-11-28/);
  await from.fill('1/11/2026');
  await from.blur();
  await expect(from).toHaveValue('01/11/2026');
  await expect(page).toHaveURL(/range=2026-11-01(~|%7E)2026-11-28/);
});

// A reversed range typed into the URL, on every screen with the kit's range filter: said beside the
// fields as a typed one is, and nothing asked (the API's 400 had shown an error card with "Thử lại").
const RANGE_SCREENS = [
  '/call-history?from=2026-11-20&to=2026-11-01',
  '/call-history?range=2026-11-20~2026-11-01',
  '/history-by-department-team?range=2026-11-20~2026-11-01',
  '/history-cdr-by-exten?from=2026-11-20&to=2026-11-01',
  '/history-success-call?range=2026-11-20~2026-11-01',
  '/activity-user-tenant?from=2026-11-20&to=2026-11-01',
  '/etelecom/call-history?range=2026-11-20~2026-11-01',
  '/reports/fpt/call-history?from=2026-11-20&to=2026-11-01',
];

test('a reversed range typed into the URL is said beside the fields on every report screen, and not sent', async ({ page }) => {
  const reversed: string[] = [];
  page.on('request', (r) => {
    const q = new URL(r.url()).searchParams;
    if (q.get('from') === '2026-11-20' && q.get('to') === '2026-11-01' && !r.isNavigationRequest()) reversed.push(r.url());
  });
  await new LoginPage(page).loginAs(DEMO);
  for (const url of RANGE_SCREENS) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).first(), url).toBeVisible();
    await expect(page.getByTestId('range-error'), url).toHaveText('Ngày kết thúc phải sau hoặc bằng ngày bắt đầu');
    await expect(page.getByTestId('range-from'), url).toHaveValue('20/11/2026');
    await expect(page.getByTestId('range-to'), url).toHaveValue('01/11/2026');
    // Time for a request to have gone and its answer to have shown.
    await page.waitForTimeout(500);
    await expect(page.getByTestId('error-state'), url).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Thử lại' }), url).toHaveCount(0);
  }
  expect(reversed).toEqual([]);
  await page.screenshot({ path: '../.tmp/screens/date-range-reversed-url.png' });
  // The range mended in its field: the report asks for it, in ?range= alone.
  await fillDate(page.getByTestId('range-to'), '2026-11-22');
  await expect(page).toHaveURL(/\?range=2026-11-20(~|%7E)2026-11-22$/);
  await expect(page.getByTestId('range-error')).toHaveCount(0);
  await expect(page.getByTestId('carrier-report').locator('[data-testid=carrier-table], [data-testid=empty-state]')).toBeVisible();
});

test('times read 24-hour in an English browser in another zone: the call history\'s time cell and the softphone\'s recent calls', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true);
  test.setTimeout(120_000);
  const a = await phoneOf(DEMO);
  const b = await phoneOf(DEMO_AGENT);
  await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
  await answeredCall(a, b, '102');
  // The suite's warm browsers speak vi-VN: this one is an American's, in New York's zone.
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${WEB_PORT}`, locale: 'en-US', timezoneId: 'America/New_York', permissions: ['microphone'] });
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await new LoginPage(page).loginAs(DEMO);
    expect(await page.evaluate(() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().locale, new Date(Date.UTC(2026, 10, 29, 7, 5)).toLocaleTimeString()]))
      .toEqual(['en-US', 'en-US', '2:05:00 AM']);
    // Vietnam's hour now, as the call's time must read (±1 around the hour's turn).
    const vnHour = () => (new Date().getUTCHours() + 7) % 24;
    const hours = [vnHour(), (vnHour() + 23) % 24].map((h) => String(h).padStart(2, '0'));
    const history = new CallHistoryPage(page);
    await history.open('?range=today');
    const time = history.row(0).getByTestId('call-time');
    await expect(async () => {
      await page.reload();
      await expect(time).toBeVisible({ timeout: 8_000 });
    }).toPass({ timeout: 45_000 });
    const [clock, day] = (await time.innerText()).split('\n');
    expect(clock).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(hours).toContain(clock.slice(0, 2));
    expect(day).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // The softphone's recent calls: "… · dd/MM/yyyy HH:mm · …", no AM/PM.
    const phone = new SoftphonePage(page);
    await phone.openRecent();
    const recent = await phone.recentRows().first().innerText();
    expect(recent).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\b/);
    expect(recent).not.toMatch(/\b(AM|PM)\b/);
    await page.screenshot({ path: '../.tmp/screens/times-en-US.png' });
  } finally {
    await context.close();
  }
});
