import { expect, type Locator, type Page } from '@playwright/test';
import { fillDate } from '../support/dates.ts';

type Family = 'survey' | 'marketing';
const NAV: Record<Family, string> = { survey: 'nav-survey/campaign', marketing: 'nav-marketings/campaign' };

/** /survey/campaign and /marketings/campaign: the kit's list with each row's contacts and state actions. */
export class CampaignListPage {
  constructor(
    private readonly page: Page,
    private readonly family: Family,
  ) {}

  async open() {
    await this.page.getByTestId(NAV[this.family]).click();
    await expect(this.page.getByTestId(`${this.family}-campaign-list`)).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.getByTestId('list-row').filter({ has: this.page.getByTestId('row-name').getByText(name, { exact: true }) });
  }

  async add(): Promise<CampaignFormDialog> {
    await this.page.getByTestId('add').first().click();
    const dialog = new CampaignFormDialog(this.page, this.family);
    await expect(dialog.root).toBeVisible();
    return dialog;
  }

  state(name: string): Locator {
    return this.row(name).getByTestId('campaign-state');
  }

  progress(name: string): Locator {
    return this.row(name).getByTestId('campaign-progress');
  }

  /** A state action of the row, confirmed in its dialog. */
  async transition(name: string, to: 'running' | 'paused' | 'ended', expectMessage: RegExp) {
    await this.row(name).getByTestId(`campaign-${to}`).click();
    const confirm = this.page.getByTestId('confirm-dialog');
    await expect(confirm).toContainText(expectMessage);
    await confirm.getByTestId('confirm').click();
    await expect(confirm).toBeHidden();
  }

  /** "Gọi liên hệ" of a running campaign: the agent's working screen. */
  async work(name: string): Promise<CampaignWorkPage> {
    await this.row(name).getByTestId('campaign-work').click();
    const work = new CampaignWorkPage(this.page);
    await expect(this.page.getByRole('heading', { level: 1, name })).toBeVisible();
    return work;
  }

  /** "Kết quả" of a campaign past its draft: the results dialog, its charts loaded. */
  async results(name: string): Promise<Locator> {
    await this.row(name).getByTestId('campaign-results').click();
    const dialog = this.page.getByTestId('results-dialog');
    await expect(dialog.getByTestId('results-charts')).toBeVisible();
    return dialog;
  }

  async openContacts(name: string): Promise<ContactImportDialog> {
    await this.row(name).getByTestId('campaign-contacts').click();
    const dialog = new ContactImportDialog(this.page);
    await expect(dialog.root).toBeVisible();
    return dialog;
  }
}

export class CampaignFormDialog {
  readonly root: Locator;
  constructor(
    private readonly page: Page,
    family: Family,
  ) {
    this.root = page.getByTestId(`${family}-campaign-form`);
  }

  field(name: string): Locator {
    return this.root.getByTestId(`field-${name}`);
  }

  /** Chooses options of a multiselect dropdown (questions in the order given, agents, teams). */
  async pick(name: string, labels: (string | RegExp)[]) {
    await this.field(name).click();
    // A multiselect's options are checkable menu items.
    for (const label of labels) await this.page.getByRole('menuitemcheckbox', { name: label }).click();
    await this.page.keyboard.press('Escape');
  }

  async save() {
    await this.root.getByTestId('save').click();
  }

  async saved() {
    await expect(this.root).toBeHidden();
  }
}

/** The contact import: a file (its columns mapped) or a CRM filter, previewed before anything is saved. */
export class ContactImportDialog {
  readonly root: Locator;
  constructor(page: Page) {
    this.root = page.getByTestId('contact-import');
  }

  async upload(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.root.getByTestId('contact-file').setInputFiles(file);
    await expect(this.root.getByTestId('import-preview')).toBeVisible();
  }

  summary(): Locator {
    return this.root.getByTestId('import-summary');
  }

  errors(): Locator {
    return this.root.getByTestId('error-row');
  }

  commit(): Locator {
    return this.root.getByTestId('import-commit');
  }

  /** The Google Sheet tab: the SPEC's four fields, then "Đọc trang tính" (the preview, or the refusal shown). */
  async readSheet(o: { name: string; sheetId: string; sheetName: string }) {
    await this.root.getByTestId('source-sheet').click();
    await this.root.getByTestId('field-name').fill(o.name);
    await this.root.getByTestId('field-sheet_id').fill(o.sheetId);
    await this.root.getByTestId('field-sheet_name').fill(o.sheetName);
    // The first user offered (the demo's admin) is the list's owner.
    await this.root.getByTestId('field-user_id').selectOption({ index: 1 });
    await this.root.getByTestId('sheet-preview').click();
  }

  async skipInvalid() {
    await this.root.getByTestId('skip-invalid').check();
  }
}

/** /survey/campaign/start/:id — the contact handed out, the script, the questions, the result that brings the next. */
export class CampaignWorkPage {
  constructor(private readonly page: Page) {}

  contact(): Locator {
    return this.page.getByTestId('work-contact');
  }

  phone(): Locator {
    return this.page.getByTestId('work-phone');
  }

  script(): Locator {
    return this.page.getByTestId('work-script');
  }

  /** The n-th question (1-based) as SurveyForm draws it. */
  question(n: number): Locator {
    return this.page.getByTestId(`survey-question-${n}`);
  }

  /** The callback's day and 24-hour time, given as 'yyyy-MM-ddTHH:mm' (typed as dd/MM/yyyy and HH:mm). */
  async setCallbackAt(at: string): Promise<void> {
    const [day, time] = at.split('T');
    await fillDate(this.page.getByTestId('work-callback-at'), day);
    await this.page.getByTestId('work-callback-time').fill(time);
  }

  /** Ends the contact with a result; the toast says it was saved. */
  async result(code: 'agreed' | 'declined' | 'callback' | 'wrong_number' | 'no_answer' | 'busy', label: string) {
    await this.page.getByTestId(`work-result-${code}`).click();
    await expect(this.page.getByTestId('toast-success').filter({ hasText: `Đã lưu kết quả "${label}"` })).toBeVisible();
  }

  empty(): Locator {
    return this.page.getByTestId('work-empty');
  }

  /** A progressive campaign (issue 34): the switch "Sẵn sàng nhận cuộc gọi" (its input, role switch). */
  ready(): Locator {
    return this.page.getByTestId('work-ready');
  }

  /** Ready, holding no contact: the dialer is calling for the agent. */
  waiting(): Locator {
    return this.page.getByTestId('work-waiting');
  }

  /** The dialer's call to the contact on screen, where it stands (DIALER_CALL_STATE_LABELS). */
  dialerState(): Locator {
    return this.page.getByTestId('work-dialer-state');
  }

  resultButton(code: 'agreed' | 'declined' | 'callback' | 'wrong_number' | 'no_answer' | 'busy'): Locator {
    return this.page.getByTestId(`work-result-${code}`);
  }
}
