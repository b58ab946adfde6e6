import { expect, type Page } from '@playwright/test';

export class SettingsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByTestId('settings-link').click();
    await expect(this.page.getByTestId('settings-index')).toBeVisible();
  }

  async openCard(slug: 'site' | 'system' | 'profile' | 'password' | 'status' | 'google-sheet') {
    await this.page.getByTestId(`open-${slug}`).click();
  }

  field(name: string) {
    return this.page.getByTestId(`field-${name}`);
  }

  async save() {
    await this.page.getByTestId('save').click();
    await expect(this.page.getByTestId('toast-success').last()).toBeVisible();
  }
}
