import { expect, type Page } from '@playwright/test';

export class AccountListPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/accounts');
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
