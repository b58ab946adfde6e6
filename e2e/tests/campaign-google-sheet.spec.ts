import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { CampaignListPage } from '../pages/CampaignPages.ts';
import { SettingsPage } from '../pages/SettingsPages.ts';
import { E2E_SHEET } from '../support/google-sheets.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { shot, stillness } from '../support/screens.ts';

const CAMPAIGN = 'Khảo sát từ Google Sheet E2E';
const ACCOUNT_EMAIL = 'tongdai-e2e@du-an.iam.gserviceaccount.com';

test("campaigns: contacts from a Google Sheet — the service account set on /setting/google-sheet, the sheet read through Google's stand-in, a bad row skipped (issue 33)", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await tenantApiAs(request, DEMO);
  const category = await api.create('survey-categories', { name: 'Google Sheet E2E' });
  const question = await api.create('survey-questions', { category_id: category.id, kind: 'rating', text: 'Anh/chị hài lòng với dịch vụ không?' });
  const options = (await api.get('survey-campaigns/options')) as { agents: { id: number }[]; hotlines: { id: number }[] };
  await api.create('survey-campaigns', { name: CAMPAIGN, purpose: 'care', question_ids: [question.id], agent_ids: [options.agents[0].id], hotline_id: options.hotlines[0].id });

  await new LoginPage(page).loginAs(DEMO);
  const list = new CampaignListPage(page, 'survey');
  await list.open();

  // No service account yet: the tab says so and links to its settings; the SPEC's four fields are required.
  let contacts = await list.openContacts(CAMPAIGN);
  await contacts.root.getByTestId('source-sheet').click();
  await expect(contacts.root.getByTestId('sheet-account')).toContainText('Chưa cấu hình tài khoản dịch vụ Google.');
  await contacts.root.getByTestId('sheet-preview').click();
  await expect(contacts.root.getByText('Thông tin không được để trống')).toHaveCount(4);
  await contacts.root.getByTestId('sheet-settings').click();

  // /setting/google-sheet: a file that is not a key is refused; the key is kept sealed, only its e-mail shown.
  const settings = new SettingsPage(page);
  await expect(page.getByTestId('google-sheet-settings')).toBeVisible();
  await expect(page.getByTestId('google-account')).toContainText('Chưa có tài khoản dịch vụ');
  await settings.field('key_json').fill('{"client_email": "x"}');
  await page.getByTestId('save').click();
  await expect(page.getByText('cần tệp JSON có client_email và private_key')).toBeVisible();
  await settings.field('key_json').fill(process.env.E2E_GOOGLE_ACCOUNT!);
  await settings.save();
  await expect(page.getByTestId('google-account')).toContainText(ACCOUNT_EMAIL);
  await expect(settings.field('key_json')).toHaveValue('');
  await stillness(page);
  await page.screenshot(shot('google-sheet-settings-light'));

  // Back to the campaign: a sheet not shared with the account is refused in Vietnamese, then the good one previewed.
  await list.open();
  contacts = await list.openContacts(CAMPAIGN);
  await contacts.readSheet({ name: 'Khách hàng quận', sheetId: 'sheet-private', sheetName: E2E_SHEET.tab });
  await expect(contacts.root.getByTestId('import-error')).toHaveText('Google từ chối truy cập trang tính: hãy chia sẻ trang tính cho email của tài khoản dịch vụ');
  await expect(contacts.root.getByTestId('sheet-account')).toContainText(`Hãy chia sẻ trang tính (quyền Xem) cho ${ACCOUNT_EMAIL}.`);
  await contacts.root.getByTestId('field-sheet_id').fill(E2E_SHEET.id);
  await contacts.root.getByTestId('sheet-preview').click();
  await expect(contacts.summary()).toHaveText('4 dòng · 3 hợp lệ · 1 lỗi');
  await expect(contacts.errors()).toHaveCount(1);
  await expect(contacts.errors().first()).toContainText('Định dạng số điện thoại sai');
  await expect(contacts.root.getByTestId('field-phone_column')).toHaveValue('1');
  await expect(contacts.commit()).toBeDisabled();
  await contacts.skipInvalid();
  await stillness(page);
  await page.screenshot(shot('campaign-google-sheet-light'));
  await contacts.commit().click();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã nhập 3 liên hệ' })).toBeVisible();
  await expect(list.progress(CAMPAIGN)).toContainText('Đã gọi 0/3');

  // Dark: the settings card and the tab.
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
  await page.reload();
  await settings.open();
  await settings.openCard('google-sheet');
  await expect(page.getByTestId('google-account')).toContainText(ACCOUNT_EMAIL);
  await stillness(page);
  await page.screenshot(shot('google-sheet-settings-dark'));
  await list.open();
  contacts = await list.openContacts(CAMPAIGN);
  await contacts.readSheet({ name: 'Khách hàng quận', sheetId: E2E_SHEET.id, sheetName: E2E_SHEET.tab });
  await expect(contacts.errors()).toHaveCount(4);
  await stillness(page);
  await page.screenshot(shot('campaign-google-sheet-dark'));
});
