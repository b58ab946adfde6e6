import type { Locator } from '@playwright/test';

/** '2026-11-25' → '25/11/2026': how the app's date field (@tongdai/ui DateField) shows and takes a day. */
export const viDate = (iso: string) => iso.split('-').reverse().join('/');

/** Types an ISO day into a date field of the app (dd/MM/yyyy, whatever the browser's language). */
export async function fillDate(field: Locator, iso: string): Promise<void> {
  await field.fill(viDate(iso));
  await field.blur();
}
