import { expect, type Locator, type Page } from '@playwright/test';
import { OrgFormPage, OrgListPage } from './OrgPages.ts';

/** /integrations ("Tích hợp CRM"): the CRM's API keys (list `crm-key-list`, form `crm-key-form`). */
export class IntegrationsPage extends OrgListPage {
  constructor(private readonly crmPage: Page) {
    super(crmPage, '/integrations', 'crm-key-list');
  }

  /** "Thêm khoá cho CRM" with a webhook URL; answers the whole key and the signing secret the dialog shows once. */
  async createKey(name: string, webhookUrl: string): Promise<{ key: string; signing: string }> {
    await this.crmPage.getByTestId('add').or(this.crmPage.getByTestId('empty-add')).first().click();
    const form = new OrgFormPage(this.crmPage);
    await form.fill({ name, webhook_url: webhookUrl });
    await form.save();
    const key = await this.crmPage.getByTestId('otp-key-secret').inputValue();
    const signing = await this.crmPage.getByTestId('otp-webhook-secret').inputValue();
    await this.crmPage.getByTestId('otp-key-once-close').click();
    await expect(this.crmPage.getByTestId('otp-key-once')).toHaveCount(0);
    return { key, signing };
  }
}

/** /webhook-deliveries: the webhook deliveries, newest first. */
export class DeliveryLogPage {
  constructor(private readonly page: Page) {}

  rows(): Locator {
    return this.page.getByTestId('call-delivery-list').getByTestId('list-row');
  }

  ofCall(callId: string): Locator {
    return this.rows().filter({ has: this.page.getByTestId('delivery-call').getByText(callId, { exact: true }) });
  }
}
