import { expect, type Locator, type Page } from '@playwright/test';
import { searchList } from './list-search.ts';

/** /setting/audit-log: the audit log of administrative changes (issue 42). */
export class AuditLogPage {
  constructor(private readonly page: Page) {}

  /** From the settings index, as a user finds it: the card "Nhật ký thay đổi". */
  async open() {
    await this.page.getByTestId('settings-link').click();
    await expect(this.page.getByTestId('settings-index')).toBeVisible();
    await this.page.getByTestId('open-audit-log').click();
    await expect(this.page).toHaveURL(/\/setting\/audit-log$/);
    await expect(this.list()).toBeVisible();
  }

  list(): Locator {
    return this.page.getByTestId('audit-list');
  }

  rows(): Locator {
    return this.page.getByTestId('list-row');
  }

  /** The rows about an object, by its name as the log shows it. */
  row(entity: string): Locator {
    return this.rows().filter({ has: this.page.getByTestId('audit-entity').getByText(entity, { exact: true }) });
  }

  /** What a row shows, cell by cell. */
  async cells(row: Locator) {
    const text = (id: string) => row.getByTestId(id).innerText();
    return { at: await text('audit-at'), actor: await text('audit-actor'), ip: await text('audit-ip'), kind: await text('audit-kind'), action: await text('audit-action'), changes: await text('audit-changes') };
  }

  /** Opens a row's detail (one at a time) and gives it. */
  async openDetail(row: Locator): Promise<Locator> {
    await row.getByTestId('audit-open').click();
    const detail = this.page.getByTestId('audit-detail');
    await expect(detail).toBeVisible();
    return detail;
  }

  /** A field of the open detail: its before and after (or value). */
  field(detail: Locator, name: string) {
    const row = detail.getByTestId(`audit-field-${name}`);
    return { row, before: row.getByTestId('audit-before'), after: row.getByTestId('audit-after'), value: row.getByTestId('audit-value') };
  }

  async filter(name: 'kind' | 'action' | 'user', label: string) {
    await this.page.getByTestId(`audit-${name}-filter`).selectOption({ label });
    await this.settled();
  }

  async search(text: string) {
    await searchList(this.page, text);
  }

  /** The list shows what the URL asks (no load in progress). */
  async settled() {
    await expect(this.page.getByRole('main').getByRole('progressbar')).toHaveCount(0);
  }
}
