import { expect, type Locator, type Page } from '@playwright/test';
import { clickUntilNavigated } from '../support/navigate.ts';

/** /survey/categories and /survey/question: the kit's lists, add and edit in a dialog. */
export class SurveyListPage {
  constructor(
    private readonly page: Page,
    /** "survey-category" or "survey-question". */
    private readonly key: 'survey-category' | 'survey-question',
  ) {}

  async open() {
    const nav = this.key === 'survey-category' ? 'nav-survey/categories' : 'nav-survey/question';
    await this.page.getByTestId(nav).click();
    await expect(this.page.getByTestId(`${this.key}-list`)).toBeVisible();
  }

  rows(): Locator {
    return this.page.getByTestId('list-row');
  }

  row(text: string): Locator {
    return this.rows().filter({ has: this.page.getByTestId('row-name').getByText(text, { exact: true }) });
  }

  /** Opens the add dialog (or the empty state's button). */
  async add(): Promise<SurveyFormDialog> {
    await clickUntilNavigated(this.page, this.page.getByTestId('add').first());
    const dialog = new SurveyFormDialog(this.page, this.key);
    await expect(dialog.root).toBeVisible();
    return dialog;
  }

  async filterByCategory(name: string) {
    await this.page.getByTestId('filter-category').selectOption({ label: name });
  }

  async move(text: string, direction: 'up' | 'down') {
    await this.row(text).getByTestId(`move-${direction}`).click();
  }

  /** The filtered category's survey as the agent sees it. */
  async openPreview(): Promise<Locator> {
    await this.page.getByTestId('survey-preview').click();
    const dialog = this.page.getByTestId('survey-preview-dialog');
    await expect(dialog).toBeVisible();
    return dialog;
  }
}

export class SurveyFormDialog {
  readonly root: Locator;
  constructor(page: Page, key: string) {
    this.root = page.getByTestId(`${key}-form`);
  }

  field(name: string): Locator {
    return this.root.getByTestId(`field-${name}`);
  }

  preview(): Locator {
    return this.root.getByTestId('question-preview');
  }

  /** A question: its category, kind (Vietnamese label), text, options for the choice kinds, required. */
  async fillQuestion(q: { category: string; kind: string; text: string; options?: string[]; required?: boolean }) {
    await this.field('category_id').selectOption({ label: q.category });
    await this.field('kind').selectOption({ label: q.kind });
    await this.field('text').fill(q.text);
    for (const [i, option] of (q.options ?? []).entries()) {
      if (i >= (await this.root.getByTestId('option-input').count())) await this.root.getByTestId('option-add').click();
      await this.root.getByTestId('option-input').nth(i).fill(option);
    }
    if (q.required) await this.field('required').check();
  }

  async save() {
    await this.root.getByTestId('save').click();
  }

  async saved() {
    await expect(this.root).toHaveCount(0);
  }
}
