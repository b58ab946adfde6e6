import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`, the same Chromium build without
 * the browser's own UI, as Playwright itself runs headless tests); never a downloaded browser. It costs
 * less CPU than the full browser in headless mode: the whole e2e suite alone on a quiet 2-core machine,
 * busy CPU-s from /proc/stat over `npx playwright test`, 705 CPU-s (558 s) with the full browser, 641
 * (542 s) with the shell (twentieth session). CHROMIUM_PATH picks another binary.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  throw new Error('Chromium headless shell not found: install the Debian package `chromium-headless-shell` (apt-get install chromium-headless-shell)');
}

/**
 * Debian's full Chromium, for what only the full browser does: it keeps a profile's media device ids
 * across page loads (the headless shell salts them anew for every document, so a speaker chosen before
 * a reload is never found again after it, as no user's browser behaves); and the bench (e2e/bench),
 * whose page-load figures are those of the browser users run.
 */
export function fullChromiumPath(): string {
  for (const p of FULL) if (existsSync(p)) return p;
  throw new Error('Chromium not found: install the Debian package `chromium` (apt-get install chromium)');
}

/**
 * Features Playwright turns off (playwright-core's chromiumSwitches.ts, 1.65): Chromium reads only the
 * last --disable-features, so ours repeats them.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
];
/**
 * Chromium 156 renders its address bar's suggestion popups as web pages even headless: each browser
 * started two renderers for chrome://omnibox-popup.top-chrome/ that no test ever shows, 44 CPU-s
 * against 128 for every page of the app in 20 tests (a per-process sample of softphone, call-history,
 * screens and org).
 */
const OMNIBOX_WEBUI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The browser as the benchmarks measure it: V8 whole, as a user's. */
export const BENCH_CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI].join(',')}`,
];

/**
 * The tests' browser: the same, without V8's optimising compiler (TurboFan). A test's page lives
 * seconds, and optimising its ~4 MB of script costs more CPU than it saves: four specs (call-history,
 * pbx-screens, report-summaries, a11y; 10 tests, one worker, a quiet 2-core machine) took 138 and 148
 * CPU-s of the machine with it, 108 and 124 without (`/tmp/cpu.sh npx playwright test …`, 2026-11-29),
 * and npm test is CPU-bound. What a test asserts does not depend on how fast the script runs; the
 * benchmarks (BENCH_CHROMIUM_ARGS) keep it.
 */
export const CHROMIUM_ARGS = [...BENCH_CHROMIUM_ARGS, '--js-flags=--no-opt'];
