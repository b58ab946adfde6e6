import { expect, type Page } from '@playwright/test';
import { searchList } from './list-search.ts';

/** Any organisation list screen (departments, teams, branches, …); testId e.g. "department-list". */
export class OrgListPage {
  constructor(
    private readonly page: Page,
    private readonly path: string,
    private readonly testId: string,
  ) {}

  async goto() {
    await this.page.goto(this.path);
    await expect(this.page.getByTestId(this.testId)).toBeVisible();
  }

  row(name: string) {
    return this.page.getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(name, { exact: true }) });
  }

  async search(text: string) {
    await searchList(this.page, text);
  }

  async add() {
    await this.page.getByTestId('add').click();
  }

  /** Clicks delete on the row and confirms. */
  async remove(name: string) {
    await this.row(name).getByTestId('delete').click();
    await expect(this.page.getByTestId('confirm-dialog')).toContainText(name);
    await this.page.getByTestId('confirm').click();
  }
}

/** Any organisation form (page or dialog): fields are field-<name>. */
export class OrgFormPage {
  constructor(private readonly page: Page) {}

  field(name: string) {
    return this.page.getByTestId(`field-${name}`);
  }

  async fill(values: Record<string, string>) {
    for (const [k, v] of Object.entries(values)) await this.field(k).fill(v);
  }

  async choose(name: string, label: string) {
    await this.field(name).selectOption({ label });
  }

  async save() {
    await this.page.getByTestId('save').click();
  }
}
