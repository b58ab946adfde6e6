import { expect, type Page } from '@playwright/test';
import { LoginPage, type Credentials } from './LoginPage.ts';
import { openScreen } from '../support/navigate.ts';

export class AccountListPage {
  constructor(private readonly page: Page) {}

  /** Opens it; with `as`, from a logged-out browser: the login as that user goes on to it (LoginPage.loginAs). */
  async goto(as?: Credentials) {
    if (as) await new LoginPage(this.page).loginAs(as, '/accounts');
    else await openScreen(this.page, '/accounts');
    await expect(this.page.getByTestId('account-list')).toBeVisible();
  }

  rows() {
    return this.page.getByTestId('list-row');
  }

  row(username: string) {
    return this.rows().filter({ has: this.page.getByTestId('account-username').getByText(username, { exact: true }) });
  }
}

export class AccountFormPage {
  constructor(private readonly page: Page) {}

  field(name: string) {
    return this.page.getByTestId(`field-${name}`);
  }

  async fill(values: { full_name?: string; username?: string; password?: string; role?: string; phone?: string }) {
    for (const [k, v] of Object.entries(values)) {
      if (k === 'role') await this.field('role_id').selectOption({ label: v });
      else if (k === 'password') {
        await this.field('password').fill(v);
        await this.field('password_confirmation').fill(v);
      } else await this.field(k).fill(v);
    }
  }

  async save() {
    await this.page.getByTestId('save').click();
  }
}
