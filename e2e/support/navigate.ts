import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Goes to `path` inside the running app, as its own links do (host/src/location.ts: pushState, then
 * popstate for single-spa and react-router): no reload of the shell, its remotes and the session.
 * Walks over many screens use it; a full page load per screen (page.goto) made them the longest
 * tests of the suite (the a11y walk, 2.5 min a theme alone, re-ran axe-core's 500 kB each screen).
 *
 * Resolves once the new screen is there: the document title changed and a heading that was not on the
 * previous screen shows (react-router applies a navigation in a transition, so right after popstate
 * the old screen is still drawn). A screen with the previous one's title and heading gives up after
 * 5 s, and the caller's own checks see why.
 */
export async function gotoInApp(page: Page, path: string): Promise<void> {
  const before = await page.evaluate(() => {
    const headings = [...document.querySelectorAll('h1')];
    for (const h of headings) h.setAttribute('data-previous-screen', '');
    return { title: document.title, text: headings.map((h) => h.textContent).join('|') };
  });
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page
    .waitForFunction((b) => {
      const headings = [...document.querySelectorAll('h1')];
      const newHeading = headings.some((h) => !h.hasAttribute('data-previous-screen')) || headings.map((h) => h.textContent).join('|') !== b.text;
      return document.title !== b.title && newHeading;
    }, before, { timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * Opens a screen as a user of the open app does, by the app's own navigation (gotoInApp), where there
 * is a signed-in shell to navigate in; otherwise, and for the path already open (a search changed on
 * the same screen, the same screen again: loaded fresh), by a page load (page.goto). A page load costs
 * Chromium 1.2 CPU-s and 2 s, a navigation in the app 0.14 CPU-s and 0.35 s (eight screens opened
 * both ways in one page, Chromium's CPU read from /proc, 2026-11-28), and the e2e suite is CPU-bound on
 * CI's two cores. What the user then sees is what a user who clicked the menu sees, the app's query
 * cache (15 s) included; a test that needs a fresh load of the shell (a session, a theme, a release)
 * keeps page.goto.
 */
export async function openScreen(page: Page, path: string): Promise<void> {
  const here = page.url();
  if (/^https?:/.test(here)) {
    const from = new URL(here);
    const to = new URL(path, here);
    if (from.origin === to.origin && from.pathname !== to.pathname && (await page.getByTestId('nav').count()) > 0) {
      await gotoInApp(page, path);
      await expect(page).toHaveURL(to.href);
      return;
    }
  }
  await page.goto(path);
}

/**
 * Clicks `target` (a list's "Thêm", which opens ?dialog=new or the add route: every list of the entity kit)
 * until the URL has changed. Right after a save the list is fetched again and drawn anew, and a click then
 * was seen reaching nothing under load: no form opened (surveys, ci3 of the nineteenth session and ci6 of
 * the thirty-sixth; the switchboards, ci5 of the thirty-sixth). The URL says whether the click navigated at
 * all; a click that did is never made twice.
 */
export async function clickUntilNavigated(page: Page, target: Locator, what = 'the add button opened its form'): Promise<void> {
  const before = page.url();
  await expect(async () => {
    if (page.url() === before) await target.click({ timeout: 5_000 });
    await expect.poll(() => page.url(), { timeout: 3_000 }).not.toBe(before);
  }, what).toPass({ timeout: 30_000 });
}
