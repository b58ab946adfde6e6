import { expect, type Page } from '@playwright/test';
import { LoginPage, type Credentials } from './LoginPage.ts';
import { searchList } from './list-search.ts';
import { openScreen } from '../support/navigate.ts';

export class CustomerListPage {
  constructor(private readonly page: Page) {}

  /** Opens it; with `as`, from a logged-out browser: the login as that user goes on to it (LoginPage.loginAs). */
  async goto(query = '', as?: Credentials) {
    if (as) await new LoginPage(this.page).loginAs(as, `/customer${query}`);
    else await openScreen(this.page, `/customer${query}`);
    await expect(this.page.getByTestId('customer-list')).toBeVisible();
  }

  rows() {
    return this.page.getByTestId('list-row');
  }

  row(name: string) {
    return this.rows().filter({ hasText: name });
  }

  async search(text: string) {
    await searchList(this.page, text);
  }

  pager() {
    return this.page.getByTestId('pager-status');
  }
}

export class CustomerFormPage {
  constructor(private readonly page: Page) {}

  field(name: string) {
    return this.page.getByTestId(`field-${name}`);
  }

  async fill(values: Partial<Record<'name' | 'phone' | 'email' | 'address' | 'code' | 'note', string>> & { status?: string }) {
    for (const [k, v] of Object.entries(values)) {
      if (k === 'status') await this.field('status').selectOption(v);
      else await this.field(k).fill(v);
    }
  }

  async save() {
    await this.page.getByTestId('save').click();
  }
}
