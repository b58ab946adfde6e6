import { expect, type Locator, type Page } from '@playwright/test';
import { fillDate } from '../support/dates.ts';

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

/** The year's public holidays under the time groups (issue 39). */
export class HolidayPanel {
  readonly root: Locator;
  constructor(private readonly page: Page) {
    this.root = page.getByTestId('holidays');
  }

  /** Steps year by year to `year` (the panel opens on the coming one, whatever today is). */
  async showYear(year: number): Promise<void> {
    await expect(this.root).toHaveAttribute('data-year', /^\d{4}$/);
    for (;;) {
      const shown = Number(await this.root.getAttribute('data-year'));
      if (shown === year) break;
      await this.root.getByTestId(shown < year ? 'holidays-next' : 'holidays-previous').click();
      await expect(this.root).toHaveAttribute('data-year', String(shown < year ? shown + 1 : shown - 1));
    }
    await expect(this.root.getByTestId('holiday-row').first()).toBeVisible();
  }

  row(date: string): Locator {
    return this.root.locator(`[data-testid="holiday-row"][data-date="${date}"]`);
  }

  /** "Thêm ngày nghỉ": the day and its name, saved. */
  async addDay(date: string, name: string): Promise<void> {
    await this.root.getByTestId('holiday-add').click();
    const dialog = this.page.getByTestId('holiday-override-form');
    await fillDate(dialog.getByTestId('field-date'), date);
    await dialog.getByTestId('field-name').fill(name);
    await dialog.getByTestId('save').click();
    await expect(dialog).toHaveCount(0);
  }
}
