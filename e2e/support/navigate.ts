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
