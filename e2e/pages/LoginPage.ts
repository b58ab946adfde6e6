import { expect, type Page } from '@playwright/test';

export const DEMO = { maDn: 'demo', username: 'admin', password: 'Admin@123' };
export const DEMO_AGENT = { maDn: 'demo', username: 'nhanvien', password: 'Nhanvien@123' };
export const ABC = { maDn: 'abc', username: 'admin', password: 'Admin@123' };

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/login');
    await expect(this.page.getByTestId('login-form')).toBeVisible();
  }

  async fill(c: { maDn: string; username: string; password: string }) {
    await this.page.getByTestId('login-maDn').fill(c.maDn);
    await this.page.getByTestId('login-username').fill(c.username);
    await this.page.getByTestId('login-password').fill(c.password);
    await this.page.getByTestId('login-submit').click();
  }

  /** Logs in and waits for the dashboard. */
  async loginAs(c = DEMO) {
    await this.goto();
    await this.fill(c);
    await expect(this.page).toHaveURL(/\/dashboard$/);
    await expect(this.page.getByTestId('dashboard')).toBeVisible();
  }

  alert() {
    return this.page.getByTestId('login-alert');
  }
}
