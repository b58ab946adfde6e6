import { expect, type Locator, type Page } from '@playwright/test';
import { searchList } from './list-search.ts';

/** /marketings/dnc: the do-not-call lists — the kit's list, its add dialog, the counts and the file import. */
export class DncPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByTestId('nav-marketings/dnc').click();
    await expect(this.page.getByTestId('dnc-list')).toBeVisible();
  }

  row(number: string): Locator {
    return this.page.getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(number, { exact: true }) });
  }

  counts(): Locator {
    return this.page.getByTestId('dnc-counts');
  }

  field(name: string): Locator {
    return this.page.getByTestId(`field-${name}`);
  }

  async add(values: { number: string; source?: string; note?: string }) {
    await this.page.getByTestId('add').first().click();
    await this.field('number').fill(values.number);
    if (values.source) await this.field('source').selectOption({ label: values.source });
    if (values.note) await this.field('note').fill(values.note);
    await this.page.getByTestId('save').click();
  }

  async search(text: string) {
    await searchList(this.page, text);
  }

  /** Opens "Nhập tệp", chooses the list and the file, runs it; the dialog stays open with the result. */
  async importFile(file: { name: string; mimeType: string; buffer: Buffer }, source: string): Promise<Locator> {
    await this.page.getByTestId('dnc-import').click();
    const dialog = this.page.getByTestId('dnc-import-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('field-import-source').selectOption({ label: source });
    await dialog.getByTestId('dnc-file').setInputFiles(file);
    await dialog.getByTestId('dnc-import-run').click();
    return dialog;
  }
}
