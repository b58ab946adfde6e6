import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { axeViolations } from '../support/axe.ts';
import { gotoInApp } from '../support/navigate.ts';

/** A route's shape: ids become :id, so /customer/edit/3 and /customer/edit/7 are one screen. */
const shapeOf = (path: string) => path.replace(/\/\d+(?=\/|$)/g, '/:id');

/** The screen is drawn: its heading is there and nothing is loading any more. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('main [role=progressbar]')).toHaveCount(0);
}

// The light and the dark walk read only (each worker has its own stack): one per worker, side by side.
test.describe.configure({ mode: 'parallel' });

// Every screen the navigation offers (built from the remotes' manifests), and every screen one
// link away from those (add, edit, settings cards): a new screen is checked without touching this.
// Screens that need data the seed lacks are checked where their spec makes it (campaign-work.spec:
// the agent's working screen of a running campaign, both themes).
for (const dark of [false, true]) {
  test(`axe-core (WCAG 2.1 AA) finds nothing on any screen, ${dark ? 'dark mode (its colours)' : 'light mode'}; each screen has its own title`, async ({ page }) => {
    test.setTimeout(15 * 60_000);
    if (dark) await page.addInitScript(() => localStorage.setItem('tongdai.dark_mode', '1'));
    const login = new LoginPage(page);
    await login.goto();
    // Every finding of every screen, reported together at the end.
    const problems = await axeViolations(page, '/login', { colours: dark });
    await page.waitForFunction(() => document.title.endsWith(' · Tongdai'), null, { timeout: 5_000 }).catch(() => undefined);
    if ((await page.title()) !== 'Đăng nhập · Tongdai') problems.push(`/login title "${await page.title()}" is not "Đăng nhập · Tongdai"`);
    await login.fill(DEMO);
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await expect(page.locator('html')).toHaveClass(dark ? 'dark' : '');

    const navPaths = await page.getByTestId('nav').locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const queue = [...new Set(['/dashboard', '/setting', ...navPaths])];
    const starts = queue.length;
    const seen = new Set(queue.map(shapeOf));
    const titles = new Map<string, string>();
    for (let i = 0; i < queue.length; i++) {
      const path = queue[i];
      await gotoInApp(page, path);
      await settled(page);
      const title = await page.title();
      if (!/^.+ · Tongdai$/.test(title)) problems.push(`${path} title "${title}" is not "<screen> · Tongdai"`);
      if (titles.has(title)) problems.push(`${path} has the same title as ${titles.get(title)}: "${title}"`);
      titles.set(title, path);
      // Dark: the rules that depend on the colours; the light walk has the others (the same DOM).
      problems.push(...(await axeViolations(page, path, { colours: dark })));
      // One link further from a screen the navigation offers: its add/edit screens and cards.
      if (i >= starts) continue;
      const links = await page.locator('main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.split('?')[0]));
      for (const link of links) {
        if (seen.has(shapeOf(link))) continue;
        seen.add(shapeOf(link));
        queue.push(link);
      }
    }
    expect(problems).toEqual([]);
    // The crawl reached beyond the navigation (add/edit screens, settings cards).
    expect(queue.length).toBeGreaterThan(navPaths.length + 5);
  });
}
