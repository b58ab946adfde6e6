import { expect, type Page } from '@playwright/test';

/**
 * Types into a list's search box and waits, as a user looks, until the list shows that search: the
 * box applies it 300 ms later and the table reloads, and a row clicked before then is replaced under
 * the click (an edit dialog opened on the old rows was lost once in CI; a delete whose confirmation
 * never opened, on the subscribers list, once here).
 */
export async function searchList(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('search');
  await box.fill(text);
  // Within 15 s, and saying what the box and the URL hold if not: once (ci6 of the twenty-third
  // session, the do-not-call list right after a file import) the URL never took the search and the
  // test only ended at its own 120 s, with nothing to say whether the typed text was lost or kept.
  await page.waitForURL((url) => (url.searchParams.get('search') ?? '') === text.trim(), { timeout: 15_000 }).catch(async (e: Error) => {
    const held = await box.inputValue({ timeout: 1_000 }).catch(() => '(the box is gone)');
    throw new Error(`the list did not take the search "${text}" within 15 s: the box holds "${held}", the URL is ${page.url()}\n${e.message}`);
  });
  await expect(page.getByRole('main').getByRole('progressbar')).toHaveCount(0);
}
