import { expect, test, type Page } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { CampaignListPage } from '../pages/CampaignPages.ts';
import { DncPage } from '../pages/DncPage.ts';
import { HotlineListPage, TelecomFormPage } from '../pages/TelecomPages.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { shot, stillness } from '../support/screens.ts';
import { openScreen } from '../support/navigate.ts';

const toast = (page: Page, text: string) => page.getByTestId('toast-success').filter({ hasText: text });
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

test('Decree 91: a hotline registered as a "tên định danh" on its edit dialog; an advertising campaign made with it on the marketing screen and started (issue 33)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const suffix = String(Date.now()).slice(-4);
  const number = `0287301${suffix}`;
  const stored = `84${number.slice(1)}`;
  const api = await tenantApiAs(request, DEMO);
  const board = await api.create('etelecom/switchboards', { name: `Nhà mạng QC ${suffix}`, carrier: 'viettel', host: '127.0.0.1', port: 5099, register: false });
  await api.create('etelecom/hotlines', { number, switchboard_id: board.id, destination: { type: 'direct', target: '101' }, description: 'Hotline quảng cáo' });

  const hotlines = new HotlineListPage(page);
  await hotlines.goto(DEMO);
  await hotlines.search(number);
  await hotlines.rowOf(stored).getByTestId('edit').click();
  const form = new TelecomFormPage(page);
  await expect(form.field('advertising_name')).toHaveCount(0);
  await form.toggle('advertising_identity');
  await expect(form.box('advertising_identity')).toContainText('chiến dịch quảng cáo chỉ được gọi từ hotline đã đăng ký tên định danh');
  await form.save();
  await expect(form.box('advertising_name')).toContainText('Nhập tên định danh đã đăng ký cho hotline');
  await expect(form.box('advertising_registered_on')).toContainText('Nhập ngày đăng ký tên định danh');
  await form.fill({ advertising_name: 'TONGDAI QC', advertising_registered_on: today() });
  await stillness(page);
  await page.screenshot(shot('hotline-identity-dialog-light'));
  await form.save();
  await expect(toast(page, 'Đã lưu thay đổi')).toBeVisible();
  await expect(hotlines.rowOf(stored).getByTestId('row-identity')).toHaveText('Tên định danh: TONGDAI QC');

  // The marketing form offers it for an advertising campaign; the campaign is made and started.
  const NAME = `Khuyến mãi QC ${suffix}`;
  const list = new CampaignListPage(page, 'marketing');
  await list.open();
  const campaign = await list.add();
  await campaign.field('name').fill(NAME);
  await campaign.field('purpose').selectOption({ label: 'Quảng cáo' });
  await campaign.field('hotline_id').selectOption({ label: `${number} — đã đăng ký định danh quảng cáo` });
  await campaign.field('script').fill('Chào anh/chị {{name}}, chương trình khuyến mãi cuối năm.');
  await campaign.pick('agent_ids', [/^Quản trị viên/]);
  await campaign.save();
  await campaign.saved();
  await expect(list.state(NAME)).toHaveText('Nháp');
  const options = await api.get('marketing-campaigns/options');
  expect(options.hotlines).toContainEqual({ id: expect.any(Number), number: stored, advertising_identity: true });
  const made = (await api.get(`marketing-campaigns?search=${encodeURIComponent(NAME)}`)) as { id: number; purpose: string }[];
  expect(made.map((c) => c.purpose)).toEqual(['advertising']);
  const contacts = await list.openContacts(NAME);
  await contacts.upload({ name: 'danh-ba.csv', mimeType: 'text/csv', buffer: Buffer.from('Họ tên,Số điện thoại\r\nNguyễn Văn An,0912345681\r\n') });
  await contacts.commit().click();
  await expect(toast(page, 'Đã nhập 1 liên hệ')).toBeVisible();
  await list.transition(NAME, 'running', /Bắt đầu chiến dịch/);
  await expect(list.state(NAME)).toHaveText('Đang chạy');
});

test('Decree 91: the do-not-call lists — one number added with a note, a national file imported with its bad rows named, searched, removed (issue 33)', async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = String(Date.now()).slice(-5);
  const own = `09120${suffix}`;
  await new LoginPage(page).loginAs(DEMO);
  const dnc = new DncPage(page);
  await dnc.open();
  await dnc.add({ number: '12345' });
  await expect(page.getByText('Số điện thoại không hợp lệ (0…, 84… hoặc +84…)')).toBeVisible();
  await dnc.field('number').fill(`+84 ${own.slice(1)}`);
  await dnc.field('note').fill('Khách yêu cầu không gọi lại');
  await page.getByTestId('save').click();
  await expect(dnc.row(own)).toContainText('Khách yêu cầu không gọi lại');
  await expect(dnc.row(own).getByTestId('row-source')).toHaveText('Riêng');
  // Twice: the form says it is already there.
  await dnc.add({ number: own });
  await expect(page.locator('.fui-Field').filter({ has: dnc.field('number') })).toContainText('Số này đã có trong danh sách');
  await page.getByRole('button', { name: 'Huỷ' }).click();
  await expect(page.getByTestId('dnc-form')).toHaveCount(0);

  const lines = ['Số điện thoại', `03980${suffix}`, `+8439810${suffix.slice(1)}`, 'không phải số', `03980${suffix}`];
  const dialog = await dnc.importFile({ name: 'khong-quang-cao.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) }, 'Danh sách không quảng cáo quốc gia');
  await expect(dialog.getByTestId('dnc-import-result')).toHaveText('4 dòng · 2 số mới · 1 đã có · 1 lỗi');
  await expect(dialog.getByTestId('dnc-error-row')).toHaveText(['Dòng 4: "không phải số" — Số điện thoại không hợp lệ (0…, 84… hoặc +84…)']);
  await stillness(page);
  await page.screenshot(shot('dnc-import-light'));
  await dialog.getByRole('button', { name: 'Đóng' }).click();
  await expect(dnc.counts()).toContainText('Không quảng cáo quốc gia');

  await dnc.search(`03980${suffix}`);
  await expect(dnc.row(`03980${suffix}`).getByTestId('row-source')).toHaveText('Quốc gia');
  await dnc.search('');
  await page.screenshot(shot('dnc-list-light'));
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
  await page.reload();
  await expect(dnc.row(own)).toBeVisible();
  await page.screenshot(shot('dnc-list-dark'));

  await dnc.row(own).getByTestId('delete').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(own);
  await page.getByTestId('confirm').click();
  await expect(dnc.row(own)).toHaveCount(0);
});

test('Decree 91: a consent recorded on its screen is listed and shows on the agent\'s working screen (issue 33)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const suffix = String(Date.now()).slice(-5);
  const number = `09130${suffix}`;
  const NAME = `Chăm sóc đồng ý ${suffix}`;
  const api = await tenantApiAs(request, DEMO);
  const options = await api.get('marketing-campaigns/options');
  const admin = (options.agents as { id: number; name: string }[]).find((a) => /Quản trị viên/.test(a.name))!;
  await api.create('marketing-campaigns', { name: NAME, purpose: 'care', script: 'Chào anh/chị {{name}}.', agent_ids: [admin.id], hotline_id: options.hotlines[0].id });

  await new LoginPage(page).loginAs(DEMO);
  await page.getByTestId('nav-marketings/consent').click();
  await expect(page.getByTestId('consent-list')).toBeVisible();
  await page.getByTestId('add').first().click();
  const form = new TelecomFormPage(page);
  await form.fill({ number, agreed_on: today() });
  await form.save();
  await expect(form.box('source')).toContainText('Nhập nguồn ghi nhận sự đồng ý');
  await form.fill({ source: 'Cuộc gọi ghi âm' });
  await form.toggle('lifts_cap');
  await form.toggle('lifts_window');
  await stillness(page);
  await page.screenshot(shot('consent-dialog-light'));
  await form.save();
  const row = page.getByTestId('list-row').filter({ has: page.getByTestId('row-name').getByText(number, { exact: true }) });
  await expect(row.getByTestId('row-lifts')).toHaveText('ngoài 8h–17h · quá 1 cuộc/24 giờ');
  await expect(row).toContainText('Cuộc gọi ghi âm');

  const list = new CampaignListPage(page, 'marketing');
  await list.open();
  const contacts = await list.openContacts(NAME);
  await contacts.upload({ name: 'danh-ba.csv', mimeType: 'text/csv', buffer: Buffer.from(`Họ tên,Số điện thoại\r\nTrần Thị Đồng Ý,${number}\r\n`) });
  await contacts.commit().click();
  await expect(toast(page, 'Đã nhập 1 liên hệ')).toBeVisible();
  await list.transition(NAME, 'running', /Bắt đầu chiến dịch/);
  await list.work(NAME);
  await expect(page.getByTestId('work-consent')).toContainText('Khách đã đồng ý ngày');
  await expect(page.getByTestId('work-consent')).toContainText('(Cuộc gọi ghi âm): cho phép gọi ngoài 8h–17h · quá 1 cuộc/24 giờ');
  await page.screenshot(shot('work-consent-light'));
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
  await openScreen(page, '/marketings/consent');
  await expect(page.getByTestId('consent-list')).toBeVisible();
  await page.screenshot(shot('consent-list-dark'));
});
