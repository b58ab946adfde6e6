import type { Locator, Page } from '@playwright/test';

/** '2026-11-25' → '25/11/2026': how the app's date field (@tongdai/ui DateField) shows and takes a day. */
export const viDate = (iso: string) => iso.split('-').reverse().join('/');

/** Types an ISO day into a date field of the app (dd/MM/yyyy, whatever the browser's language). */
export async function fillDate(field: Locator, iso: string): Promise<void> {
  await field.fill(viDate(iso));
  await field.blur();
}

/**
 * The kit's range filter (range-filter, range-from, range-to, range-error): "Tùy chọn", then two
 * days typed as dd/MM/yyyy.
 */
export async function fillRange(page: Page, from: string, to: string): Promise<void> {
  await page.getByTestId('range-filter').selectOption('custom');
  await fillDate(page.getByTestId('range-from'), from);
  await fillDate(page.getByTestId('range-to'), to);
}
