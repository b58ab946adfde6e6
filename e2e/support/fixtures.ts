import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, test as base, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath, fullChromiumPath } from './chromium.ts';
import { WEB_PORT } from './ports.ts';
import { stackLogDirs } from './stack-logs.ts';

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';

/** The browser flags of a phone: a fake microphone, no permission prompt (harmless on other screens). */
export const PHONE_ARGS = [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

const ORIGIN = `http://127.0.0.1:${WEB_PORT}`;
/** The storage a test may leave on the app's origin: everything but the HTTP cache. */
const STORAGE_TYPES = 'cookies,local_storage,session_storage,indexeddb,websql,service_workers,cache_storage,file_systems,shader_cache';

/**
 * Warm browsers. A page of the app in a fresh browser context compiles every script again: about
 * 3.3 s of Chromium CPU per page load against 1.8 s in a profile that keeps its HTTP cache and V8's
 * code cache (measured on /subscribers, /call-history, /customer and /dashboard), and the e2e suite
 * is CPU-bound on CI's two cores. So each Playwright worker keeps a few browser profiles for the
 * whole run; every test's `page` and every phone (support/phones.ts) opens in one, which was emptied
 * of the previous test's cookies, local and session storage, permissions and routes. What a test
 * sees is unchanged: a fresh session each time, the server asked again for everything not
 * immutable (manifests, entries, config and API answers are no-cache).
 *
 * A context cannot drop an init script or a binding again: one that got either (a phone watching
 * its peer connections, a test's own script) is closed for good when its test is done instead of
 * going back. `context.close()` hands a warm context back, so the tests' own clean-up stays as it is.
 */
const idle: Record<'shell' | 'full', BrowserContext[]> = { shell: [], full: [] };
/** Handed out and not given back yet: the test's end gives them back (a failed test skips its clean-up). */
const inUse = new Set<BrowserContext>();
const profiles: { context: BrowserContext; dir: string }[] = [];
const tainted = new WeakSet<BrowserContext>();

/**
 * The screens the tests photograph for a developer to look at (`../.tmp/screens/*.png`, STYLE.md "look
 * at your screens"): nothing asserts on them, and npm test, which nobody looks at the screens of, sets
 * E2E_SCREENSHOTS=0 (scripts/test.mjs) — then such a screenshot is not taken. A run of the specs
 * themselves (`npx playwright test`) takes them. A screenshot for anything else is always taken.
 */
const LOOK_ONLY = /\/\.tmp\/screens\//;
/**
 * The themes a screen tour photographs its screens in. Without the screenshots (npm test) the dark pass
 * of a tour only opens the same screens again: its checks are the light pass's (dark mode itself is
 * checked where it is asserted: the a11y walk's contrast in dark, the luminance checks), so it is left out.
 */
export const TOUR_THEMES: readonly ('light' | 'dark')[] = process.env.E2E_SCREENSHOTS === '0' ? ['light'] : ['light', 'dark'];
let screenshotsGated = false;
function gateScreenshots(page: Page): void {
  if (screenshotsGated || process.env.E2E_SCREENSHOTS !== '0') return;
  screenshotsGated = true;
  const pageProto = Object.getPrototypeOf(page) as Page;
  const locatorProto = Object.getPrototypeOf(page.locator('body')) as Locator;
  const shoot = pageProto.screenshot;
  const shootPart = locatorProto.screenshot;
  pageProto.screenshot = function (this: Page, o?: Parameters<Page['screenshot']>[0]) {
    return o?.path && LOOK_ONLY.test(o.path) ? Promise.resolve(Buffer.alloc(0)) : shoot.call(this, o);
  };
  locatorProto.screenshot = function (this: Locator, o?: Parameters<Locator['screenshot']>[0]) {
    return o?.path && LOOK_ONLY.test(o.path) ? Promise.resolve(Buffer.alloc(0)) : shootPart.call(this, o);
  };
}

async function launchWarm(kind: 'shell' | 'full'): Promise<BrowserContext> {
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-e2e-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: kind === 'full' ? fullChromiumPath() : chromiumPath(), args: PHONE_ARGS, baseURL: ORIGIN, locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh',
    // As a user who asked the system for less motion: Fluent's spinners and transitions (and ours) stop
    // animating, which Chromium otherwise paints frame by frame in software on CI's two cores. Six specs
    // (kpis, monitor, report-summaries, customers, call-history, softphone; 23 tests, one worker, the
    // machine's CPU from /proc): 289 CPU-s and 286 s with motion, 255 CPU-s and 263 s without.
    reducedMotion: 'reduce',
  });
  context.on('page', gateScreenshots);
  profiles.push({ context, dir });
  const { close, addInitScript, exposeBinding, exposeFunction } = context;
  const taint = <A extends unknown[], R>(fn: (...a: A) => R) => (...a: A): R => { tainted.add(context); return fn.apply(context, a); };
  context.addInitScript = taint(addInitScript) as typeof addInitScript;
  context.exposeBinding = taint(exposeBinding) as typeof exposeBinding;
  context.exposeFunction = taint(exposeFunction) as typeof exposeFunction;
  context.close = async () => {
    if (!inUse.delete(context) && !tainted.has(context)) return; // given back already
    if (tainted.has(context)) return close.call(context);
    await reset(context);
    idle[kind].push(context);
  };
  // A closed profile's folder goes with it; Chromium's last writes may still land while it goes (a
  // failed rmdir then, ENOTEMPTY, is left to the system's temp cleaning, never an error of the run).
  context.once('close', () => {
    try { rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); } catch { /* left in tmp */ }
  });
  return context;
}

async function reset(context: BrowserContext): Promise<void> {
  for (const open of context.pages()) await open.close();
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.clearCookies();
  await context.clearPermissions();
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  await cdp.send('Storage.clearDataForOrigin', { origin: ORIGIN, storageTypes: STORAGE_TYPES });
  await cdp.detach();
  await blank.close();
}

/**
 * A warm browser context of this worker, empty of any earlier test's state; `close()` gives it back.
 * `microphone` grants the app's origin the microphone, as a phone's context needs. `fullBrowser`: the
 * full Chromium instead of the headless shell (support/chromium.ts says when a test needs it).
 */
export async function warmContext(o: { microphone?: boolean; fullBrowser?: boolean } = {}): Promise<BrowserContext> {
  const kind = o.fullBrowser ? 'full' : 'shell';
  const context = idle[kind].pop() ?? (await launchWarm(kind));
  inUse.add(context);
  if (o.microphone) await context.grantPermissions(['microphone'], { origin: ORIGIN });
  return context;
}

/** `test` whose `page` opens in a warm context (above); a spec that needs `context` itself imports '@playwright/test'. */
/**
 * The last lines of this worker's stack's SIP logs (the media worker's, Kamailio's, the demo carrier's:
 * scripts/lib/stack.mjs keeps them in tmpdir/tongdai-kamailio-<api port>-*), for a failed test's
 * report: a call that failed on a loaded machine (voice-OTP's "Gọi lỗi", ci1 of the thirty-second
 * session) showed nothing of where it stopped once the stack was gone.
 */
function stackLogTails(lines = 150): { name: string; body: string }[] {
  return stackLogDirs().flatMap((dir) =>
    ['media.log', 'kamailio.log', 'demo-carrier.log'].filter((f) => existsSync(join(dir, f))).map((f) => ({
      name: f,
      body: readFileSync(join(dir, f), 'utf8').split('\n').slice(-lines).join('\n'),
    })));
}

export const test = base.extend<{ warmReturned: void; stackLogs: void }, { warmProfiles: void }>({
  // Closes every warm profile when the worker ends.
  warmProfiles: [async ({}, use) => { // eslint-disable-line no-empty-pattern
    await use();
    await Promise.all(profiles.map(({ context }) => { tainted.add(context); return context.close(); }));
  }, { scope: 'worker', auto: true }],

  // Whatever a test took and did not give back (it failed before its clean-up) goes back at its end;
  // what a beforeAll took (phones kept for the spec's tests) stays until its afterAll gives it back.
  warmReturned: [async ({}, use) => { // eslint-disable-line no-empty-pattern
    const before = new Set(inUse);
    await use();
    await Promise.all([...inUse].filter((context) => !before.has(context)).map((context) => context.close()));
  }, { auto: true }],

  // A failed test's report carries the tails of the stack's SIP logs (attachments in the results folder).
  stackLogs: [async ({}, use, testInfo) => { // eslint-disable-line no-empty-pattern
    await use();
    if (testInfo.status === testInfo.expectedStatus) return;
    // Kept as files in the test's results folder: the list reporter prints only a text attachment's first lines.
    for (const { name, body } of stackLogTails()) {
      const path = testInfo.outputPath(name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, body);
      await testInfo.attach(name, { path, contentType: 'text/plain' });
    }
  }, { auto: true }],

  page: async ({ viewport }, use) => {
    const context = await warmContext();
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    await use(page);
    await context.close();
  },
});
