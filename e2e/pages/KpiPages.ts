import { expect, type Page } from '@playwright/test';
import { openScreen } from '../support/navigate.ts';

/** /kpis (list, edit dialog), /kpi/add (form) and /kpi-by-department (chart and table). */
export class KpiPages {
  constructor(private readonly page: Page) {}

  async openList(query = '') {
    await openScreen(this.page, `/kpis${query}`);
    await expect(this.list()).toBeVisible();
  }
  list() { return this.page.getByTestId('kpi-list'); }
  form() { return this.page.getByTestId('kpi-form'); }
  row(name: string) {
    return this.list().getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(name, { exact: true }) });
  }
  filter(name: 'period' | 'assignee-type') { return this.page.getByTestId(`${name}-filter`); }

  /** The actual shown on a row ("12 / 100 cuộc" → 12). */
  async actual(name: string): Promise<number> {
    const text = await this.row(name).getByTestId('kpi-actual').innerText();
    return Number(text.split(' / ')[0].replace(/\./g, '').replace(',', '.'));
  }

  /** Fills the KPI form (page or dialog); `assignee` is the option label, or its index when a number. */
  async fill(o: { name?: string; measure?: string; target?: string; period?: string; start?: string; assigneeType?: string; assignee?: string | number }) {
    const f = this.form();
    if (o.name !== undefined) await f.getByTestId('field-name').fill(o.name);
    if (o.measure !== undefined) await f.getByTestId('field-measure').selectOption(o.measure);
    if (o.target !== undefined) await f.getByTestId('field-target').fill(o.target);
    if (o.period !== undefined) await f.getByTestId('field-period').selectOption(o.period);
    if (o.start !== undefined) await f.getByTestId('field-start_date').fill(o.start);
    if (o.assigneeType !== undefined) await f.getByTestId('field-assignee-type').selectOption(o.assigneeType);
    if (typeof o.assignee === 'string') await f.getByTestId('field-assignee-id').selectOption({ label: o.assignee });
    if (typeof o.assignee === 'number') await f.getByTestId('field-assignee-id').selectOption({ index: o.assignee });
  }
  async save() { await this.form().getByTestId('save').click(); }

  async remove(name: string) {
    await this.row(name).getByTestId('delete').click();
    await expect(this.page.getByTestId('confirm-dialog')).toContainText(name);
    await this.page.getByTestId('confirm').click();
    await expect(this.row(name)).toHaveCount(0);
  }

  byDepartment() { return this.page.getByTestId('kpi-by-department'); }
}
