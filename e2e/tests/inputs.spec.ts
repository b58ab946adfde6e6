import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { PbxListPage } from '../pages/PbxPages.ts';
import { openScreen } from '../support/navigate.ts';

test.beforeEach(async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO);
});

// Times are typed and shown 24-hour (HH:MM), never "08:00 AM" whatever the browser's language.
test('time group ranges take and show 24-hour times', async ({ page }) => {
  await openScreen(page, '/time-groups/add');
  const start = page.getByRole('textbox', { name: 'Giờ bắt đầu' });
  await expect(start).toHaveAttribute('placeholder', 'HH:MM');
  await start.fill('17:30');
  await expect(start).toHaveValue('17:30');
  await page.getByRole('textbox', { name: 'Giờ kết thúc' }).fill('25:00');
  await page.getByTestId('field-name').fill('Giờ 24h');
  await page.getByTestId('save').click();
  await expect(page.getByTestId('time-group-form')).toContainText('Giờ có dạng HH:MM');

  const groups = new PbxListPage(page, '/time-groups', 'time-group-list');
  await groups.goto();
  await page.getByTestId('list-row').filter({ hasText: 'Giờ hành chính' }).getByTestId('edit-range').first().click();
  await expect(page.getByRole('textbox', { name: 'Giờ kết thúc' })).toHaveValue('17:30');
});

// File pickers speak Vietnamese: a "Chọn tệp" button and the chosen file's name (or "Chưa chọn tệp").
test('greeting upload, inbound import and site logo file pickers are in Vietnamese', async ({ page }) => {
  const picker = async (open: () => Promise<unknown>, scope: string, input: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
    await open();
    const box = page.getByTestId(scope);
    await expect(box.getByRole('button', { name: 'Chọn tệp' })).toBeVisible();
    await expect(box).toContainText('Chưa chọn tệp');
    await expect(page.getByTestId(input)).toBeHidden();
    await page.getByTestId(input).setInputFiles(file);
    await expect(box).toContainText(file.name);
    await expect(box).not.toContainText('Chưa chọn tệp');
  };
  const greetings = new PbxListPage(page, '/greeting', 'greeting-list');
  await picker(async () => { await greetings.goto(); await greetings.add(); }, 'audio-upload-form', 'field-file',
    { name: 'loi-chao.wav', mimeType: 'audio/wav', buffer: Buffer.from('RIFF') });
  await picker(async () => { await openScreen(page, '/inbounds'); await page.getByTestId('import-open').click(); }, 'import-dialog', 'import-file',
    { name: 'tuyen.csv', mimeType: 'text/csv', buffer: Buffer.from('did\r\n') });
  await picker(() => openScreen(page, '/setting/site'), 'site-settings-form', 'field-logo',
    { name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
});
