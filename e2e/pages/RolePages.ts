import { expect, type Page } from '@playwright/test';
import { LoginPage, type Credentials } from './LoginPage.ts';
import { searchList } from './list-search.ts';
import { openScreen } from '../support/navigate.ts';

/** "role.changePassword" → "perm-role-changepassword" (as PermissionMatrix names its checkboxes). */
export const permTestId = (name: string) => `perm-${name.replace(/\./g, '-').toLowerCase()}`;

export class RoleListPage {
  constructor(private readonly page: Page) {}

  /** Opens it; with `as`, from a logged-out browser: the login as that user goes on to it (LoginPage.loginAs). */
  async goto(as?: Credentials) {
    if (as) await new LoginPage(this.page).loginAs(as, '/roles');
    else await openScreen(this.page, '/roles');
    await expect(this.page.getByTestId('role-list')).toBeVisible();
  }

  rows() {
    return this.page.getByTestId('list-row');
  }

  row(name: string) {
    return this.rows().filter({ has: this.page.getByTestId('role-name').getByText(name, { exact: true }) });
  }

  async search(text: string) {
    await searchList(this.page, text);
  }
}

export class RoleFormPage {
  constructor(private readonly page: Page) {}

  name() {
    return this.page.getByTestId('field-name');
  }

  permission(name: string) {
    return this.page.getByTestId('permission-matrix').getByTestId(permTestId(name));
  }

  async create(values: { name: string; description?: string; permissions: string[] }) {
    await this.name().fill(values.name);
    if (values.description) await this.page.getByTestId('field-description').fill(values.description);
    for (const p of values.permissions) await this.permission(p).check();
    await this.page.getByTestId('save').click();
  }
}
