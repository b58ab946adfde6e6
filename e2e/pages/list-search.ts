import { expect, type Page } from '@playwright/test';

/**
 * Types into a list's search box and waits, as a user looks, until the list shows that search: the
 * box applies it 300 ms later and the table reloads, and a row clicked before then is replaced under
 * the click (an edit dialog opened on the old rows was lost once in CI; a delete whose confirmation
 * never opened, on the subscribers list, once here).
 */
export async function searchList(page: Page, text: string): Promise<void> {
  await page.getByTestId('search').fill(text);
  await page.waitForURL((url) => (url.searchParams.get('search') ?? '') === text.trim());
  await expect(page.getByRole('main').getByRole('progressbar')).toHaveCount(0);
}
