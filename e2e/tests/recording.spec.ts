import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { answeredCall, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';

test.use({ launchOptions: PHONE_LAUNCH });

/** The recording mode of the tenant, chosen on /setting/system ("Ghi âm cuộc gọi") and saved. */
async function recordCalls(page: Page, mode: 'all' | 'none') {
  await page.goto('/setting/system');
  const section = page.getByTestId('recording-settings-form');
  await expect(section).toBeVisible();
  await section.getByTestId(`recording-mode-${mode}`).check();
  const saved = page.waitForResponse((r) => r.url().endsWith('/recording-settings') && r.request().method() === 'PUT');
  await section.getByTestId('recording-save').click();
  expect((await saved).status()).toBe(200);
}

/** Each channel's RMS (0–1) of an MP3, decoded by the media worker's decoder in a child node (it is an ES module). */
function channelLevels(file: string): number[] {
  const script = [
    "const { MPEGDecoder } = await import('mpg123-decoder');",
    "const { readFileSync } = await import('node:fs');",
    'const d = new MPEGDecoder(); await d.ready;',
    'const r = d.decode(new Uint8Array(readFileSync(process.argv[1])));',
    'process.stdout.write(JSON.stringify(r.channelData.map((c) => Math.sqrt(c.subarray(0, r.samplesDecoded).reduce((a, v) => a + v * v, 0) / r.samplesDecoded))));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: resolve(import.meta.dirname, '../../media') }).toString());
}

test('with recording on, a call between two browsers goes through the media worker, is recorded with both voices and is played and downloaded from the call history', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(180_000);
  const a = await phoneOf(browser, DEMO); // 101, super-admin
  const b = await phoneOf(browser, DEMO_AGENT); // 102, an agent without recording.listen
  try {
    await recordCalls(a.page, 'all');
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // Both browsers send Chromium's fake microphone (a beep every second): both voices are in the file.
    await answeredCall(a, b, '102', '00:04');

    const history = new CallHistoryPage(a.page);
    await expect(async () => {
      await history.open('?direction=internal&extension=102&range=today');
      await expect(history.row(0).getByTestId('recording-toggle')).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    expect(await history.rowText(0)).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102' });

    // Play: the bytes come with the bearer (a blob), the player opens under the row and plays.
    await history.row(0).getByTestId('recording-toggle').click();
    const audio = a.page.getByTestId('recording-audio');
    await expect(audio).toBeVisible();
    await expect(audio).toHaveAttribute('src', /^blob:/);
    const duration = await audio.evaluate(async (el: HTMLAudioElement) => {
      if (!Number.isFinite(el.duration) || !el.duration) await new Promise((r) => el.addEventListener('loadedmetadata', r, { once: true }));
      return el.duration;
    });
    // As long as the talk (4–8 s on the callee's timer), within a second or two of setup.
    expect(duration).toBeGreaterThan(3);
    expect(duration).toBeLessThan(12);
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await a.page.screenshot({ path: '../.tmp/screens/call-history-recording.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(a.page)).toBeLessThan(DARK_MAX);
    await a.page.screenshot({ path: '../.tmp/screens/call-history-recording-dark.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();

    // Download: an MP3 named after the call, with the caller on one channel and 102 on the other.
    const [download] = await Promise.all([a.page.waitForEvent('download'), history.row(0).getByTestId('recording-download').click()]);
    expect(download.suggestedFilename()).toMatch(/^ghi-am-\d{8}-\d{6}-101-102\.mp3$/);
    const levels = channelLevels(await download.path());
    expect(levels).toHaveLength(2);
    for (const level of levels) expect(level).toBeGreaterThan(0.005);

    // The agent sees the call (its own) but no player: listening needs recording.listen.
    const own = new CallHistoryPage(b.page);
    await own.open('?direction=internal&range=today');
    expect(await own.rowText(0)).toMatchObject({ result: 'Trả lời', caller: '101', callee: '102' });
    await expect(own.row(0).getByTestId('recording-toggle')).toHaveCount(0);
  } finally {
    // Other specs' calls are not recorded: the tenant goes back to none.
    await recordCalls(a.page, 'none').catch(() => undefined);
    await a.page.context().close();
    await b.page.context().close();
  }
});
