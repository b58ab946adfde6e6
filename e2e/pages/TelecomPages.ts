import { expect, type Locator, type Page } from '@playwright/test';
import { PbxFormPage, PbxListPage } from './PbxPages.ts';

/** /etelecom/switchboards: carrier trunks, add/edit in the `switchboard-form` dialog. */
export class SwitchboardListPage extends PbxListPage {
  constructor(page: Page) {
    super(page, '/etelecom/switchboards', 'switchboard-list');
  }

  status(name: string): Locator {
    return this.row(name).getByTestId('row-status');
  }
}

/** /etelecom/list-hotline: rows named by the formatted number ("0961 234 567"). */
export class HotlineListPage extends PbxListPage {
  constructor(private readonly hlPage: Page) {
    super(hlPage, '/etelecom/list-hotline', 'hotline-list');
  }

  /** The row of a number, by its stored digits (84…). */
  rowOf(stored: string): Locator {
    return this.hlPage.getByTestId('list-row').filter({ has: this.hlPage.locator(`[data-testid="row-name"][data-number="${stored}"]`) });
  }
}

/** The telecom forms: the switchboard dialog, the create-hotline page, the outbound rule's switchboards and caller id. */
export class TelecomFormPage extends PbxFormPage {
  constructor(private readonly tPage: Page) {
    super(tPage);
  }

  /** A field with its label, hint and message (Fluent's Field wrapper): where a field's own message shows. */
  box(name: string): Locator {
    return this.tPage.locator('.fui-Field').filter({ has: this.field(name) });
  }

  async toggle(name: string) {
    await this.field(name).click();
  }

  async codec(codec: string) {
    await this.field(`codecs-${codec}`).click();
  }

  /** Appends switchboards to the ordered picker by name (options read "Name — status"). */
  async addSwitchboards(names: string[]) {
    for (const name of names) {
      const option = this.field('switchboard_ids-add').locator('option').filter({ hasText: `${name} — ` });
      await this.field('switchboard_ids-add').selectOption(await option.getAttribute('value') ?? '');
    }
  }

  switchboardOrder(): Promise<string[]> {
    return this.field('switchboard_ids-item').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  }

  /** Picks the first option of a select whose label starts with `prefix`. */
  async chooseStarting(name: string, prefix: string) {
    const option = this.field(name).locator('option').filter({ hasText: new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first();
    await this.field(name).selectOption(await option.getAttribute('value') ?? '');
  }

  async firstTarget(name: string, type: string) {
    await this.field(`${name}-type`).selectOption({ label: type });
    const target = this.field(`${name}-target`);
    await expect(target.locator('option').nth(1)).toBeAttached();
    await target.selectOption({ index: 1 });
  }
}
