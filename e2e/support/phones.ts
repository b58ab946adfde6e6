import { execFileSync } from 'node:child_process';
import { expect, type Browser, type Page } from '@playwright/test';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';
import { WEB_PORT } from './ports.ts';

/** Fake microphone, permission prompts answered: two phones of a test really call each other. */
export const PHONE_LAUNCH = { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] };

/** Specs that make real calls need Kamailio on this machine. */
export function kamailioInstalled(): boolean {
  try { execFileSync('sh', ['-c', 'command -v kamailio || test -x /usr/sbin/kamailio'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** A logged-in browser context with its softphone (microphone allowed). */
export async function phoneOf(browser: Browser, who: typeof DEMO): Promise<{ page: Page; phone: SoftphonePage }> {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${WEB_PORT}`, permissions: ['microphone'], viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  await new LoginPage(page).loginAs(who);
  return { page, phone: new SoftphonePage(page) };
}

/** Dials from an open or closed dial pad (a second call finds it open). */
export async function dial(page: Page, number: string) {
  const input = page.getByTestId('softphone-number');
  if (!(await input.isVisible())) await page.getByTestId('softphone-dialpad-toggle').click();
  await input.fill(number);
  await page.getByTestId('softphone-call').click();
}

type Phone = Awaited<ReturnType<typeof phoneOf>>;

/**
 * One answered call: `caller` dials `number`, `callee` answers, they talk until the callee's timer
 * reads `talk` (mm:ss), the caller hangs up, and both phones are ready again.
 */
export async function answeredCall(caller: Phone, callee: Phone, number: string, talk = '00:01') {
  await dial(caller.page, number);
  await expect(callee.phone.incoming()).toBeVisible();
  await callee.phone.answer();
  await expect(caller.phone.badge()).toHaveText('Đã kết nối');
  await expect(callee.phone.timer()).toHaveText(talk, { timeout: 15_000 });
  await caller.phone.hangup();
  await caller.phone.expectReady();
  await callee.phone.expectReady();
}
