import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT } from '../pages/LoginPage.ts';
import { CallHistoryPage } from '../pages/ReportPages.ts';
import { dial, kamailioInstalled, PHONE_LAUNCH, phoneOf } from '../support/phones.ts';
import { backgroundLuminance, DARK_MAX } from '../support/theme.ts';
import { openScreen } from '../support/navigate.ts';
import { channelLevels } from '../support/recordings.ts';

test.use({ launchOptions: PHONE_LAUNCH });

/** The recording mode of the tenant, chosen on /setting/system ("Ghi âm cuộc gọi") and saved. */
async function recordCalls(page: Page, mode: 'all' | 'none') {
  await openScreen(page, '/setting/system');
  const section = page.getByTestId('recording-settings-form');
  await expect(section).toBeVisible();
  await section.getByTestId(`recording-mode-${mode}`).check();
  const saved = page.waitForResponse((r) => r.url().endsWith('/recording-settings') && r.request().method() === 'PUT');
  await section.getByTestId('recording-save').click();
  expect((await saved).status()).toBe(200);
}

test('with recording on, a call between two browsers goes through the media worker, is recorded with both voices and is played and downloaded from the call history', async ({ browser }) => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true); // a missing package fails the test, never skips it
  test.setTimeout(180_000);
  const a = await phoneOf(DEMO); // 101, super-admin
  const b = await phoneOf(DEMO_AGENT); // 102, an agent without recording.listen
  try {
    await recordCalls(a.page, 'all');
    await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
    // Both browsers send Chromium's fake microphone (a beep every second): both voices are in the file.
    await dial(a.page, '102');
    await expect(b.phone.incoming()).toBeVisible();
    // The worker bridges (and starts recording) once this answer reaches it: a little after t0.
    const t0 = Date.now();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveText('Đã kết nối');
    // Both are parties of an internal recorded call: each phone says so and may pause it (payment
    // details); the pause goes to the media worker as SIP INFO (its effect is checked in the file below).
    const status = b.page.getByTestId('softphone-recording');
    await expect(status).toHaveText('Đang ghi âm');
    await expect(a.page.getByTestId('softphone-recording')).toHaveText('Đang ghi âm');
    await b.page.getByTestId('softphone-recording-toggle').click();
    const paused = Date.now();
    await expect(status).toHaveText('Đã tạm dừng ghi âm');
    await b.page.screenshot({ path: '../.tmp/screens/softphone-recording-paused.png' });
    await b.page.waitForTimeout(2500);
    const resumed = Date.now();
    await b.page.getByTestId('softphone-recording-toggle').click();
    await expect(status).toHaveText('Đang ghi âm');
    // Talk on (recorded again) for a moment before hanging up.
    await b.page.waitForTimeout(1500);
    await a.phone.hangup();
    await a.phone.expectReady();
    await b.phone.expectReady();

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
    // As long as the talk (at least the 2.5 s pause and 4 s on the callee's timer), within a few seconds of setup.
    expect(duration).toBeGreaterThan(3);
    expect(duration).toBeLessThan(15);
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await a.page.screenshot({ path: '../.tmp/screens/call-history-recording.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();
    await expect.poll(() => backgroundLuminance(a.page)).toBeLessThan(DARK_MAX);
    await a.page.screenshot({ path: '../.tmp/screens/call-history-recording-dark.png', fullPage: true });
    await a.page.getByTestId('dark-mode').click();

    // Download: an MP3 named after the call, with the caller on one channel and 102 on the other.
    const [download] = await Promise.all([a.page.waitForEvent('download'), history.row(0).getByTestId('recording-download').click()]);
    expect(download.suggestedFilename()).toMatch(/^ghi-am-\d{8}-\d{6}-101-102\.mp3$/);
    const file = await download.path();
    const levels = channelLevels(file);
    expect(levels).toHaveLength(2);
    for (const level of levels) expect(level).toBeGreaterThan(0.005);
    // While 102 had it paused, the file is silent on both channels. The recording started a little
    // after t0 (the answer's way to the worker): slack on both sides for that and the SIP INFO's way.
    const [from, to] = [(paused - t0) / 1000 + 0.5, (resumed - t0) / 1000 - 0.7];
    for (const level of channelLevels(file, from, to)) expect(level).toBeLessThan(0.001);

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
