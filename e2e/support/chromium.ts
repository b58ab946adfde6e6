import { existsSync } from 'node:fs';

/** Debian's Chromium; never a downloaded browser. */
export function chromiumPath(): string {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium']) if (p && existsSync(p)) return p;
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

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI].join(',')}`,
];
