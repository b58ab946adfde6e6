import type { Locator, Page } from '@playwright/test';
import { OrgFormPage, OrgListPage } from './OrgPages.ts';

/** Any PBX list (numbers, inbound routes, ring groups, …): the organisation list plus the PBX filters. */
export class PbxListPage extends OrgListPage {
  constructor(
    private readonly pbxPage: Page,
    path: string,
    testId: string,
  ) {
    super(pbxPage, path, testId);
  }

  rows(): Locator {
    return this.pbxPage.getByTestId('list-row');
  }

  /** The destination-type filter (SPEC filter_action; "" = Tất cả). */
  async filterBy(value: string) {
    await this.pbxPage.getByTestId('destination-filter').selectOption(value);
  }
}

/** Any PBX form, page or dialog: fields are field-<name>; destinations field-<name>-type / -target. */
export class PbxFormPage extends OrgFormPage {
  constructor(private readonly pbxPage: Page) {
    super(pbxPage);
  }

  /** Picks a destination: its type by label, then the object by label (or types the number for fw). */
  async destination(name: string, type: string, target: string) {
    await this.field(`${name}-type`).selectOption({ label: type });
    const t = this.field(`${name}-target`);
    if (type === 'Chuyển tiếp số ngoài') await t.fill(target);
    else await t.selectOption({ label: target });
  }

  /** Appends extensions to an ordered picker, by their labels ("101 - Quản trị viên"). */
  async addExtensions(name: string, labels: string[]) {
    for (const label of labels) await this.field(`${name}-add`).selectOption({ label });
  }

  async extensionOrder(name: string): Promise<(string | null)[]> {
    return this.field(`${name}-item`).evaluateAll((els) => els.map((e) => e.getAttribute('data-extension')));
  }

  error(): Locator {
    return this.pbxPage.getByTestId('form-error');
  }
}
