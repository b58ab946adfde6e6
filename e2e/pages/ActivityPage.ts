import { expect, type Page } from '@playwright/test';
import { openScreen } from '../support/navigate.ts';

/** /activity-user-tenant: the table per user and day, its export, and the timeline of a chosen row. */
export class ActivityPage {
  constructor(private readonly page: Page) {}

  async open(query = '') {
    await openScreen(this.page, `/activity-user-tenant${query}`);
    await expect(this.list()).toBeVisible();
  }

  list() { return this.page.getByTestId('activity-list'); }
  rows() { return this.list().getByTestId('list-row'); }
  /** The row of a person (by name) on a day shown as dd/mm/yyyy. */
  row(name: string, day: string) { return this.rows().filter({ hasText: name }).filter({ hasText: day }).first(); }
  timeline() { return this.page.getByTestId('activity-timeline'); }
  /** The names of the people shown (one per row). */
  people() { return this.rows().getByTestId('activity-person').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '')); }
  filter(name: 'department' | 'team' | 'user') { return this.page.getByTestId(`${name}-filter`); }

  /** A row's figures as shown. */
  async figures(name: string, day: string) {
    const r = this.row(name, day);
    const text = (id: string) => r.getByTestId(id).innerText();
    return {
      firstLogin: await text('activity-first-login'),
      lastLogout: await text('activity-last-logout'),
      registered: await text('activity-registered'),
      ready: await text('activity-status-1'),
      pause: await text('activity-status-2'),
      stopped: await text('activity-status-3'),
      changes: Number(await text('activity-status-changes')),
    };
  }
}
