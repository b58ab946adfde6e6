import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';
import { WEB_PORT } from './support/ports.ts';

/**
 * e2e against the whole product (production builds, real API on a throwaway PGlite) in Debian's Chromium.
 * Two workers by default (E2E_WORKERS moves it): global-setup starts one stack per worker on its own
 * ports, so spec files run side by side and never share a database, a phone or a SIP port. This file is
 * read again in each worker, where WEB_PORT is that worker's (ports.ts).
 */
export default defineConfig({
  testDir: './tests',
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  globalSetup: './support/global-setup.ts',
  outputDir: `../.tmp/e2e-results-${process.env.E2E_WEB_PORT ?? 3100}`,
  use: {
    baseURL: `http://127.0.0.1:${WEB_PORT}`,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
});
