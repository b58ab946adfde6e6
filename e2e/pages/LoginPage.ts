import { expect, type Page } from '@playwright/test';

export const DEMO = { maDn: 'demo', username: 'admin', password: 'Admin@123' };
export const DEMO_AGENT = { maDn: 'demo', username: 'nhanvien', password: 'Nhanvien@123' };
export const ABC = { maDn: 'abc', username: 'admin', password: 'Admin@123' };

/** Who logs in: tenant code, user name, password. */
export type Credentials = { maDn: string; username: string; password: string };

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/login');
    await expect(this.page.getByTestId('login-form')).toBeVisible();
  }

  async fill(c: Credentials) {
    await this.page.getByTestId('login-maDn').fill(c.maDn);
    await this.page.getByTestId('login-username').fill(c.username);
    await this.page.getByTestId('login-password').fill(c.password);
    await this.page.getByTestId('login-submit').click();
  }

  /**
   * Logs in and waits for the dashboard; with `at` (a path of the app), opens that page logged out,
   * which sends the browser to /login?next=, and logs in there: the app goes on to `at` itself, as for
   * a user who followed a link before logging in (one page load, no dashboard on the way).
   */
  async loginAs(c: Credentials = DEMO, at?: string) {
    if (!at) {
      await this.goto();
      await this.fill(c);
      await expect(this.page).toHaveURL(/\/dashboard$/);
      await expect(this.page.getByTestId('dashboard')).toBeVisible();
      return;
    }
    await this.page.goto(at);
    await expect(this.page).toHaveURL(`/login?next=${encodeURIComponent(at)}`);
    await expect(this.page.getByTestId('login-form')).toBeVisible();
    await this.fill(c);
    await expect(this.page).toHaveURL(at);
  }

  alert() {
    return this.page.getByTestId('login-alert');
  }
}
