import { expect, type Page } from '@playwright/test';
import { searchList } from './list-search.ts';
import { openScreen } from '../support/navigate.ts';

export class SubscriberListPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await openScreen(this.page, '/subscribers');
    await expect(this.page.getByTestId('subscriber-list')).toBeVisible();
  }

  rows() {
    return this.page.getByTestId('list-row');
  }

  row(text: string) {
    return this.rows().filter({ hasText: text });
  }

  async search(text: string) {
    await searchList(this.page, text);
  }
}

export class SubscriberFormPage {
  constructor(private readonly page: Page) {}

  field(name: 'extension' | 'display_name' | 'user_id') {
    return this.page.getByTestId(`field-${name}`);
  }

  async save() {
    await this.page.getByTestId('save').click();
  }
}

/** The dialog that shows a SIP password the one time the API hands it out. */
export class SipPasswordDialog {
  constructor(private readonly page: Page) {}

  root() {
    return this.page.getByTestId('sip-password-dialog');
  }

  async password(): Promise<string> {
    await expect(this.root()).toBeVisible();
    return this.page.getByTestId('sip-password').inputValue();
  }

  async close() {
    await this.page.getByTestId('close-password').click();
    await expect(this.root()).toHaveCount(0);
  }
}
