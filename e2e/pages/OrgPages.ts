import { expect, type Page } from '@playwright/test';
import { LoginPage, type Credentials } from './LoginPage.ts';
import { searchList } from './list-search.ts';
import { clickUntilNavigated, openScreen } from '../support/navigate.ts';

/** Any organisation list screen (departments, teams, branches, …); testId e.g. "department-list". */
export class OrgListPage {
  constructor(
    private readonly page: Page,
    private readonly path: string,
    private readonly testId: string,
  ) {}

  /** Opens it; with `as`, from a logged-out browser: the login as that user goes on to it (LoginPage.loginAs). */
  async goto(as?: Credentials) {
    if (as) await new LoginPage(this.page).loginAs(as, this.path);
    else await openScreen(this.page, this.path);
    await expect(this.page.getByTestId(this.testId)).toBeVisible();
  }

  row(name: string) {
    return this.page.getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(name, { exact: true }) });
  }

  async search(text: string) {
    await searchList(this.page, text);
  }

  /**
   * Clicks "Thêm" of this list, once it is on screen: right after a menu click the previous screen
   * stays up while this one loads, and its own "Thêm" (same test id) was clicked instead once (the IVR
   * list after the ring groups' showed no form). Again until it opened the form (clickUntilNavigated).
   */
  async add() {
    await expect(this.page.getByTestId(this.testId)).toBeVisible();
    await clickUntilNavigated(this.page, this.page.getByTestId(this.testId).getByTestId('add'));
  }

  /**
   * Clicks delete on the row and confirms. Right after a search the list is fetched again and its rows
   * drawn anew: a click on the row as it was drawn before reached nothing and no dialog opened (ci3 of
   * the twenty-fifth session, pbx-screens), so the click is made again until the dialog is up.
   */
  async remove(name: string) {
    const dialog = this.page.getByTestId('confirm-dialog');
    await expect(async () => {
      if (!(await dialog.isVisible())) await this.row(name).getByTestId('delete').click({ timeout: 2000 });
      await expect(dialog).toBeVisible({ timeout: 2000 });
    }, 'the delete confirmation opened').toPass({ timeout: 15_000 });
    await expect(dialog).toContainText(name);
    await this.page.getByTestId('confirm').click();
  }
}

/** Any organisation form (page or dialog): fields are field-<name>. */
export class OrgFormPage {
  constructor(private readonly page: Page) {}

  field(name: string) {
    return this.page.getByTestId(`field-${name}`);
  }

  async fill(values: Record<string, string>) {
    for (const [k, v] of Object.entries(values)) await this.field(k).fill(v);
  }

  async choose(name: string, label: string) {
    await this.field(name).selectOption({ label });
  }

  async save() {
    await this.page.getByTestId('save').click();
  }
}
