import { readFileSync } from 'node:fs';
import { expect, test } from '../support/fixtures.ts';
import { readSheet } from 'read-excel-file/node';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { answeredCall, dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';

test.use({ launchOptions: PHONE_LAUNCH });

test('exports the filtered calls as XLSX with a progress bar, the file holds the rows on screen; cancel stops a slow download', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(150_000);
  const a = await phoneOf(DEMO); // 101, super-admin with report.export
  const b = await phoneOf(DEMO_AGENT); // 102
  try {
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // One answered call 101 → 102 and one rejected (busy).
    await answeredCall(a, b, '102', '00:02');
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.reject();
    await a.phone.expectState('CALL_FAILED');
    await a.phone.expectReady();

    const history = new CallHistoryPage(a.page);
    await expect(async () => {
      await history.open('?direction=internal&extension=102');
      await expect(history.rows().nth(1)).toBeVisible({ timeout: 8_000 });
    }).toPass({ timeout: 45_000 });
    const count = await history.rows().count();
    const screen = await Promise.all(Array.from({ length: count }, (_, i) => history.rowText(i)));

    // XLSX: the file opens and holds exactly the rows on screen, under Vietnamese headers.
    await a.page.getByTestId('export-format').selectOption('xlsx');
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('lich-su-cuoc-goi.xlsx');
    const sheet = (await readSheet(readFileSync(await download.path()))).map((r) => r.map((c) => (c === null ? '' : String(c))));
    expect(sheet[0].slice(0, 4)).toEqual(['Thời gian', 'Hướng gọi', 'Số gọi', 'Số nhận']);
    expect(sheet.slice(1).map((r) => ({ direction: r[1], caller: r[2], callee: r[3], talk: r[9], result: r[10] }))).toEqual(
      screen.map((s) => ({ direction: s.direction, caller: s.caller, callee: s.callee, talk: s.talk, result: s.result })),
    );
    await expect(a.page.getByTestId('toast-success')).toContainText('Đã xuất file');
    await expect(a.page.getByTestId('export-progress')).toHaveCount(0);

    // A slow network: the progress bar shows the rows so far of the total, and Hủy stops it.
    const cdp = await a.page.context().newCDPSession(a.page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 1024, uploadThroughput: 100_000 });
    let downloaded = false;
    a.page.on('download', () => { downloaded = true; });
    await a.page.getByTestId('export').click();
    await expect(a.page.getByTestId('export-progress')).toBeVisible();
    await expect(a.page.getByTestId('export-count')).toHaveText(new RegExp(`^Đã nhận \\d+ / ${count} dòng$`), { timeout: 20_000 });
    await a.page.getByTestId('export-cancel').click();
    await expect(a.page.getByTestId('toast-info')).toContainText('Đã hủy xuất file');
    await expect(a.page.getByTestId('export-progress')).toHaveCount(0);
    await expect(a.page.getByTestId('export')).toBeEnabled();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await a.page.waitForTimeout(500);
    expect(downloaded).toBe(false);

    // The agent (no report.export) has no export control.
    await new CallHistoryPage(b.page).open();
    await expect(b.page.getByTestId('export')).toHaveCount(0);
    await expect(b.page.getByTestId('export-format')).toHaveCount(0);
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});
