import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';

/** e2e against the whole product (production builds, real API on a throwaway PGlite) in Debian's Chromium. */
export default defineConfig({
  testDir: './tests',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One retry, reported as "flaky" in the list: two specs (customers delete, report-summaries' title) each
  // failed once in a full run under load and passed alone (session note 2026-11-23); to be found, then 0 again.
  retries: 1,
  reporter: [['list']],
  globalSetup: './support/global-setup.ts',
  outputDir: `../.tmp/e2e-results-${process.env.E2E_WEB_PORT ?? 3100}`,
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_WEB_PORT ?? 3100}`,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
});
