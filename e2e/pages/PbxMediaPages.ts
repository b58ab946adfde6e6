import { expect, type Locator, type Page } from '@playwright/test';

/** A time group's ranges on /time-groups, as the list spells them. */
export class TimeGroupRows {
  constructor(private readonly page: Page) {}

  row(name: string): Locator {
    return this.page.getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(name, { exact: true }) });
  }

  ranges(name: string): Locator {
    return this.row(name).getByTestId('time-range-text');
  }

  range(name: string, text: string): Locator {
    return this.row(name).getByTestId('time-range').filter({ hasText: text });
  }
}

/** The <audio> element of a greeting row: is it really playing? */
export async function audioState(row: Locator): Promise<{ paused: boolean; time: number; src: string }> {
  return row.getByTestId('audio-player').evaluate((a: HTMLAudioElement) => ({ paused: a.paused, time: a.currentTime, src: a.src }));
}

/** A range form (add page, edit page, add-range dialog): times typed, the rest chosen by label. */
export async function fillRange(page: Page, r: { start?: string; end?: string; dowStart?: string; dowEnd?: string }) {
  if (r.start !== undefined) await page.getByTestId('field-time_start').fill(r.start);
  if (r.end !== undefined) await page.getByTestId('field-time_end').fill(r.end);
  if (r.dowStart !== undefined) await page.getByTestId('field-dow_start').selectOption({ label: r.dowStart });
  if (r.dowEnd !== undefined) await page.getByTestId('field-dow_end').selectOption({ label: r.dowEnd });
}

export const toast = (page: Page, intent: 'success' | 'error', text: string | RegExp) => page.getByTestId(`toast-${intent}`).filter({ hasText: text });

export async function expectHeading(page: Page, text: string) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(text);
}
