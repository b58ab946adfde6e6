import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { gotoInApp } from '../support/navigate.ts';
import { dial, kamailioInstalled, phoneOf } from '../support/phones.ts';

/** The laptop widths the product is used at (issue 39: names and headers were cut there). */
const WIDTHS = [{ width: 1280, height: 800 }, { width: 1440, height: 900 }];

/**
 * The screen is drawn: its heading is there and nothing is loading any more (the kit's Spinner; not every
 * progressbar — a campaign's row shows its progress as one, and the run's earlier tests leave campaigns).
 */
async function settled(page: Page, path: string) {
  await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
  await expect(page.locator('main .fui-Spinner'), `${path} still loading`).toHaveCount(0);
}

/**
 * What is cut on the screen as drawn: a table header cell whose text is truncated ("Nhó…") or runs over
 * more than two lines ("Người nghe" over four), the top bar's company or user name cut, the page wider
 * than the window.
 */
function cuts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const cut = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    for (const th of document.querySelectorAll('main [role=columnheader], main th')) {
      const text = (th.textContent ?? '').trim();
      if (!text) continue;
      // The cell and what it holds (Fluent puts the text in a button or a div inside).
      if ([th, ...th.querySelectorAll('*')].some((el) => (el as HTMLElement).offsetParent !== null && cut(el))) found.push(`header "${text}" is cut`);
      // The lines its text runs over: the tops of the text's own boxes (one per line), not its elements'.
      const lines = new Set<number>();
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0) lines.add(Math.round(r.top));
      }
      if (lines.size > 2) found.push(`header "${text}" runs over ${lines.size} lines`);
    }
    for (const id of ['tenant-name', 'user-name']) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      if (el && cut(el)) found.push(`top bar ${id} "${el.textContent}" is cut (${el.clientWidth} of ${el.scrollWidth} px)`);
    }
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) found.push(`the page is ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window`);
    return found;
  });
}

test('every screen at 1280 and 1440 px: no table header cut or over two lines, the top bar\'s names whole, no sideways scroll of the page', async ({ page }) => {
  test.setTimeout(10 * 60_000);
  await page.setViewportSize(WIDTHS[0]);
  await new LoginPage(page).loginAs(DEMO);
  await expect(page.getByTestId('nav').locator('a[href^="/"]').nth(10)).toBeAttached();
  const routes = [...new Set(['/dashboard', '/setting', ...await page.getByTestId('nav').locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))])];
  const problems: string[] = [];
  const started = Date.now();
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const path of routes) {
      await gotoInApp(page, path);
      await settled(page, path);
      problems.push(...(await cuts(page)).map((p) => `${size.width} ${path}: ${p}`));
      await page.screenshot({ path: `../.tmp/screens/widths/${size.width}${path.replaceAll('/', '_')}.png` });
    }
  }
  console.log(`layout-widths: ${routes.length} routes × ${WIDTHS.length} widths in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(problems).toEqual([]);
});

test('during a call at 1280 px the top bar keeps the company\'s and the user\'s names whole; after it the reports listing it keep their headers on two lines', async () => {
  expect(kamailioInstalled(), 'Kamailio is not installed').toBe(true);
  test.setTimeout(120_000);
  const a = await phoneOf(DEMO, { viewport: WIDTHS[0] });
  const b = await phoneOf(DEMO_AGENT);
  await Promise.all([a.phone.expectReady(), b.phone.expectReady()]);
  await dial(a.page, '102');
  await expect(b.phone.incoming()).toBeVisible();
  await b.phone.answer();
  await expect(a.phone.badge()).toHaveText('Đã kết nối');
  await expect(a.page.getByTestId('softphone-hangup')).toBeVisible();
  for (const size of WIDTHS) {
    await a.page.setViewportSize(size);
    await expect.poll(() => cuts(a.page), { message: `${size.width} px in a call` }).toEqual([]);
    await a.page.screenshot({ path: `../.tmp/screens/widths/${size.width}-in-call.png` });
  }
  // The bar's buttons keep their names (tooltips, accessible names) while only their icons show.
  await expect(a.page.getByRole('button', { name: 'Đăng xuất' })).toBeVisible();
  await a.phone.hangup();
  // Lists draw their tables (and the row actions' column) only once they have rows: with this call on them,
  // the reports' headers stay on two lines at most at both widths (ci of stop 57: "Luồng cuộc gọi" over three).
  for (const size of WIDTHS) {
    await a.page.setViewportSize(size);
    for (const path of ['/call-history', '/history-cdr-by-exten', '/history-by-department-team']) {
      await gotoInApp(a.page, path);
      await settled(a.page, path);
      await expect(a.page.locator('main table tbody tr').first(), `${path} lists the call`).toBeVisible();
      expect(await cuts(a.page), `${size.width} ${path}`).toEqual([]);
      await a.page.screenshot({ path: `../.tmp/screens/widths/${size.width}${path.replaceAll('/', '_')}-rows.png` });
    }
  }
});
