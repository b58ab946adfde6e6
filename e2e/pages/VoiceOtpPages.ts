import { expect, type Locator, type Page } from '@playwright/test';
import { OrgFormPage, OrgListPage } from './OrgPages.ts';

/** /voice-otp/number: the hotlines' OTP switches, then the API keys (list `otp-key-list`, form `otp-key-form`). */
export class OtpNumberPage extends OrgListPage {
  constructor(private readonly otpPage: Page) {
    super(otpPage, '/voice-otp/number', 'otp-key-list');
  }

  numberRow(shown: string): Locator {
    return this.otpPage.locator(`[data-testid="otp-number-row"][data-number="${shown}"]`);
  }

  async enable(shown: string) {
    const toggle = this.numberRow(shown).getByTestId('otp-number-switch');
    // The switch follows the saved row: it turns on once the API has answered.
    await toggle.click();
    await expect(toggle).toBeChecked();
  }

  /** "Thêm khoá API", named (with a webhook URL); answers the whole key the dialog shows once. */
  async createKey(name: string, webhookUrl?: string): Promise<string> {
    // The empty list offers its own "add" button.
    await this.otpPage.getByTestId('add').or(this.otpPage.getByTestId('empty-add')).first().click();
    const form = new OrgFormPage(this.otpPage);
    await form.fill(webhookUrl ? { name, webhook_url: webhookUrl } : { name });
    // One retry 30 s after an unanswered call, unless the key says otherwise.
    await expect(form.field('retry_after_s')).toHaveValue('30');
    await form.save();
    const secret = await this.otpPage.getByTestId('otp-key-secret').inputValue();
    return secret;
  }

  /** The webhook signing secret the once-dialog shows beside the key. */
  webhookSecret(): Promise<string> {
    return this.otpPage.getByTestId('otp-webhook-secret').inputValue();
  }

  async closeKeyDialog() {
    await this.otpPage.getByTestId('otp-key-once-close').click();
    await expect(this.otpPage.getByTestId('otp-key-once')).toHaveCount(0);
  }
}

/** /voice-otp/list: rows by the phone as shown. */
export class OtpListPage extends OrgListPage {
  constructor(private readonly listPage: Page) {
    super(listPage, '/voice-otp/list', 'otp-request-list');
  }

  rows(): Locator {
    return this.listPage.getByTestId('list-row');
  }

  rowOfPhone(phone: string): Locator {
    return this.listPage.getByTestId('list-row').filter({ has: this.listPage.getByTestId('otp-phone').getByText(phone, { exact: true }) });
  }
}
