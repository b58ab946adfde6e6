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
  // A safety net, not a speed check (the bench judges speed): on the 2-core CI machine under the other
  // lanes' load the longest tests without a time of their own took 25–27 s (ci1, session 25), within
  // reach of a 60 s net on a slower host; the tests that need more still set theirs.
  timeout: 120_000,
  // 20 s: in CI of stop 49 (load about 15 on 2 cores) a page opened again with page.goto showed its
  // form after more than 10 s (settings.spec), and /setting's release states too (remote-releases.spec).
  // A check that holds returns as soon as it does; only a failing one waits the whole time.
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: [['list']],
  globalSetup: './support/global-setup.ts',
  outputDir: `../.tmp/e2e-results-${process.env.E2E_WEB_PORT ?? 3100}`,
  use: {
    baseURL: `http://127.0.0.1:${WEB_PORT}`,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    // As the warm profiles (support/fixtures.ts launchWarm): no animations to paint.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
});
