import { expect, test, type Page, TOUR_THEMES } from '../support/fixtures.ts';
import { ABC, DEMO, LoginPage } from '../pages/LoginPage.ts';
import { PbxListPage } from '../pages/PbxPages.ts';
import { expectHeading, toast } from '../pages/PbxMediaPages.ts';
import { HotlineListPage, SwitchboardListPage, TelecomFormPage } from '../pages/TelecomPages.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { API_PORT } from '../support/ports.ts';
import { openScreen } from '../support/navigate.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `../.tmp/screens/${name}.png`, fullPage: true });
const STATUS = /^(Đang đăng ký|Đã đăng ký|Đăng ký thất bại|Xác thực theo IP|Đã tắt|Bị chặn)$/;

const suffix = Date.now().toString(36).slice(-5);
const BOARD = `Viettel e2e ${suffix}`;
const BACKUP = `VNPT theo IP ${suffix}`;
const PASSWORD = `Mk-${suffix}-bí-mật`;
/** Distinct numbers per run: Viettel mobiles (096…), stored as 84… by the API. */
const digits7 = () => String(Math.floor(1_000_000 + Math.random() * 8_999_999));
const HOTLINE = `096${digits7()}`;
const STORED = `84${HOTLINE.slice(1)}`;
const SHOWN = `${HOTLINE.slice(0, 4)} ${HOTLINE.slice(4, 7)} ${HOTLINE.slice(7)}`;
const TAKEN = `097${digits7()}`;

// First in the file: abc has no switchboard or hotline yet (the next test gives it one).
test('empty and unreachable: the lists say what to do, the hotline form says a switchboard comes first', async ({ page }) => {
  await new LoginPage(page).loginAs(ABC);
  for (const mode of TOUR_THEMES) {
    if (mode === 'dark') await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
    await openScreen(page, '/etelecom/switchboards');
    await expect(page.getByTestId('switchboard-list')).toContainText('Chưa có tổng đài nhà mạng nào. Thêm kết nối SIP trunk');
    await expect(page.getByTestId('empty-add')).toHaveText('Thêm tổng đài nhà mạng');
    await shot(page, `etelecom-switchboards-empty-${mode}`);
    await openScreen(page, '/etelecom/list-hotline');
    await expect(page.getByTestId('hotline-list')).toContainText('Chưa có hotline nào');
    await shot(page, `etelecom-list-hotline-empty-${mode}`);
    await openScreen(page, '/etelecom/create-hotline');
    await expect(page.getByTestId('hotline-form')).toContainText('Chưa có tổng đài nhà mạng nào: thêm ở mục Tổng đài nhà mạng trước.');
    await shot(page, `etelecom-create-hotline-no-switchboard-${mode}`);
    // The API unreachable (the request fails in the network): the list says so and offers a retry.
    await page.route('**/etelecom/switchboards?*', (route) => route.abort('connectionrefused'));
    await openScreen(page, '/etelecom/switchboards');
    await expect(page.getByTestId('switchboard-list').getByRole('button', { name: 'Thử lại' })).toBeVisible({ timeout: 20_000 });
    await shot(page, `etelecom-switchboards-error-${mode}`);
    await page.unroute('**/etelecom/switchboards?*');
  }
});

test('switchboard and hotline through the screens, then an outbound rule through the switchboards; the password never comes back', async ({ page, request }) => {
  test.setTimeout(180_000);
  // Every answer the page gets from the API, read as text: the password must be in none of them.
  const bodies: Promise<string>[] = [];
  page.on('response', (res) => {
    if (/\/(t|pbx|identity|telecom)\//.test(res.url()) && res.request().resourceType() !== 'document') bodies.push(res.text().catch(() => ''));
  });

  // A number another tenant already owns (abc, through its own switchboard).
  const abc = await tenantApiAs(request, ABC);
  const abcBoard = await abc.create('etelecom/switchboards', { name: `ABC ${suffix}`, host: '127.0.0.1', port: 5098, register: false });
  await abc.create('etelecom/hotlines', { number: TAKEN, switchboard_id: abcBoard.id, destination: { type: 'fw', target: '0909000111' } });

  await new LoginPage(page).loginAs(DEMO);
  const form = new TelecomFormPage(page);

  // The menu: a "Viễn thông" group.
  const group = page.locator('[data-testid="nav-group"][data-group="Viễn thông"]');
  await expect(group).toContainText('Tổng đài nhà mạng');
  await expect(group).toContainText('Thêm hotline');
  await expect(group).toContainText('Hotline');

  // Switchboard: checked in the browser with the contract's Vietnamese messages.
  await group.getByText('Tổng đài nhà mạng').click();
  const boards = new SwitchboardListPage(page);
  await expect(page.getByTestId('switchboard-list')).toBeVisible();
  await expectHeading(page, 'Danh sách tổng đài nhà mạng');
  await boards.add();
  const dialog = page.getByTestId('switchboard-form');
  await expect(dialog).toContainText('Thêm tổng đài nhà mạng');
  await form.fill({ port: '70000' });
  await form.save();
  await expect(form.box('name')).toContainText('Thông tin không được để trống');
  await expect(form.box('host')).toContainText('Thông tin không được để trống');
  await expect(form.box('port')).toContainText('Tối đa 65535');
  await form.fill({ name: BOARD, host: 'máy chủ sai', port: '0' });
  await form.save();
  await expect(form.box('host')).toContainText('Địa chỉ máy chủ không hợp lệ (tên miền, địa chỉ IPv4 hoặc IPv6)');
  await expect(form.box('port')).toContainText('Tối thiểu 1');
  // Registering shows its interval; an IP-authenticated trunk has none.
  await expect(form.field('register_interval')).toBeVisible();
  await form.toggle('register');
  await expect(form.field('register_interval')).toHaveCount(0);
  await form.toggle('register');
  await expect(form.field('register_interval')).toHaveValue('300');
  await form.choose('carrier', 'Viettel');
  // The PBX's own internals (issue 32): the API refuses them (422) and the form says why under the
  // field — the cloud metadata address under the host, the API's internal listener under the port.
  await form.fill({ host: '169.254.169.254', port: '80', auth_user: `hn${suffix}`, auth_password: PASSWORD, max_channels: '4' });
  await form.save();
  await expect(form.box('host')).toContainText('Địa chỉ nội bộ của hệ thống không được dùng làm tổng đài');
  await form.fill({ host: '0x7f000001', port: String(API_PORT + 1) });
  await form.save();
  await expect(form.box('port')).toContainText('Địa chỉ nội bộ của hệ thống không được dùng làm tổng đài');
  await expect(dialog).toBeVisible();
  await form.fill({ host: '127.0.0.1', port: '5097', auth_password: PASSWORD });
  await form.codec('G722');
  // The caller ID in the form this carrier asks for, explained under the field.
  await expect(form.box('caller_id_format')).toContainText('Hotline trong From và P-Asserted-Identity của cuộc gọi ra');
  await form.choose('caller_id_format', 'Quốc tế E.164 (+84283…)');
  await shot(page, 'etelecom-switchboard-dialog-light');
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm tổng đài nhà mạng')).toBeVisible();
  const row = boards.row(BOARD);
  await expect(row.getByTestId('row-endpoint')).toHaveText('127.0.0.1:5097/UDP');
  await expect(row).toContainText('Viettel');
  await expect(row.getByTestId('row-auth')).toHaveText('Đăng ký');
  await expect(row.getByTestId('row-channels')).toHaveText('0 / 4');
  await expect(row.getByTestId('row-status')).toHaveText(STATUS);

  // Edit: the password is not shown back; empty keeps it.
  await row.getByTestId('edit').click();
  await expect(form.field('name')).toHaveValue(BOARD);
  await expect(form.field('auth_password')).toHaveValue('');
  await expect(form.field('auth_password')).toHaveAttribute('placeholder', 'Để trống để giữ mật khẩu hiện tại');
  await expect(form.field('codecs-G722')).toBeChecked();
  await expect(form.field('caller_id_format')).toHaveValue('e164');
  await form.save();
  await expect(toast(page, 'success', 'Đã lưu thay đổi')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // A second, IP-authenticated switchboard for the outbound rule's failover.
  await boards.add();
  await expect(dialog).toContainText('Thêm tổng đài nhà mạng');
  await form.fill({ name: BACKUP, host: 'sip.vnpt.example' });
  await form.choose('carrier', 'VNPT (Vinaphone)');
  await form.toggle('register');
  // The first switchboard's toast (4 s) gone first, so the one below is this save's.
  await expect(toast(page, 'success', 'Đã thêm tổng đài nhà mạng')).toHaveCount(0);
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm tổng đài nhà mạng')).toBeVisible();
  await expect(boards.row(BACKUP).getByTestId('row-auth')).toHaveText('Theo IP');
  await expect(boards.status(BACKUP)).toHaveText(STATUS);

  // Hotline: the number's kind and carrier said as it is typed; a bad number refused on the field.
  await group.getByText('Thêm hotline').click();
  await expect(page).toHaveURL(/\/etelecom\/create-hotline$/);
  await expectHeading(page, 'Thêm hotline');
  await form.fill({ number: '12345' });
  await form.field('description').focus();
  await expect(form.box('number')).toContainText('Số hotline không hợp lệ: 1800/1900, số cố định hoặc số di động Việt Nam');
  await form.fill({ number: '1900 1234' });
  await expect(page.getByTestId('hotline-detected')).toHaveText('Nhận diện: 1900 (người gọi trả phí)');
  await form.fill({ number: TAKEN });
  await expect(page.getByTestId('hotline-detected')).toHaveText('Nhận diện: Di động · Viettel');
  await form.chooseStarting('switchboard_id', `${BOARD} — `);
  await form.firstTarget('destination', 'Máy nhánh');
  await form.fill({ description: 'Hotline chăm sóc khách hàng' });
  await form.save();
  await expect(form.box('number')).toContainText('Số này đã thuộc về một doanh nghiệp khác');
  await form.fill({ number: HOTLINE });
  await shot(page, 'etelecom-create-hotline-light');
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm hotline')).toBeVisible();
  await expect(page).toHaveURL(/\/etelecom\/list-hotline$/);

  // Listed with its kind, carrier, switchboard and a link to its calls.
  const hotlines = new HotlineListPage(page);
  const line = hotlines.rowOf(STORED);
  await expect(line.getByTestId('row-name')).toHaveText(SHOWN);
  await expect(line.getByTestId('row-kind')).toHaveText('Di động');
  await expect(line.getByTestId('row-carrier')).toHaveText('Viettel');
  await expect(line.getByTestId('row-switchboard')).toHaveText(BOARD);
  await expect(line.getByTestId('row-status')).toHaveText(STATUS);
  await expect(line.getByTestId('row-destination')).toContainText('Máy nhánh');
  await expect(line.getByTestId('hotline-history')).toHaveAttribute('href', `/etelecom/call-history?hotline=${HOTLINE}`);
  // The campaign dialer's calls-per-minute cap: refused out of range under the field, then shown on the row.
  await line.getByTestId('edit').click();
  await expect(form.box('max_calls_per_minute')).toContainText('để nhà mạng không chặn số vì gọi quá dày. Để trống: không giới hạn.');
  await form.fill({ max_calls_per_minute: '0' });
  await form.save();
  await expect(form.box('max_calls_per_minute')).toContainText('Nhập số cuộc gọi mỗi phút là số nguyên từ 1 đến 600, hoặc để trống nếu không giới hạn');
  await form.fill({ max_calls_per_minute: '30' });
  await shot(page, 'etelecom-hotline-dialog-light');
  await form.save();
  await expect(toast(page, 'success', 'Đã lưu thay đổi')).toBeVisible();
  await expect(line.getByTestId('row-rate')).toHaveText('Gọi tự động tối đa 30 cuộc/phút');
  // The same number again: already the tenant's.
  await openScreen(page, '/etelecom/create-hotline');
  await form.fill({ number: HOTLINE });
  await form.chooseStarting('switchboard_id', `${BACKUP} — `);
  await form.firstTarget('destination', 'Máy nhánh');
  await form.save();
  await expect(form.box('number')).toContainText('Số này đã có trong tổng đài của bạn');

  // A hotline is one of the tenant's numbers: in /numbers and in the inbound routes.
  await openScreen(page, '/numbers');
  const numbers = new PbxListPage(page, '/numbers', 'number-list');
  await numbers.search(HOTLINE.slice(1));
  await expect(page.getByTestId('list-row').filter({ hasText: HOTLINE.slice(1) })).toHaveCount(1);
  await openScreen(page, '/inbounds');
  await numbers.search(HOTLINE.slice(1));
  await expect(page.getByTestId('list-row').filter({ hasText: HOTLINE.slice(1) }).first()).toBeVisible();

  // An outbound rule through both switchboards (failover order set by the user), the hotline as caller id.
  await openScreen(page, '/outbound');
  const outbound = new PbxListPage(page, '/outbound', 'outbound-list');
  await expect(page.getByTestId('outbound-list')).toBeVisible();
  await outbound.add();
  const rule = `Di động ${suffix}`;
  await form.fill({ name: rule, pattern: '0[35789]XXXXXXXX' });
  await form.save();
  await expect(page.getByTestId('outbound-form')).toContainText('Chọn ít nhất một tổng đài (trunk)');
  await form.addSwitchboards([BOARD, BACKUP]);
  expect(await form.switchboardOrder()).toEqual([`1.${BOARD}`, `2.${BACKUP}`]);
  await form.field('switchboard_ids-item').nth(1).getByTestId('move-up').click();
  expect(await form.switchboardOrder()).toEqual([`1.${BACKUP}`, `2.${BOARD}`]);
  await form.field('caller_id').selectOption(STORED);
  await form.field('caller_id_mode-carrier').check();
  await shot(page, 'etelecom-outbound-dialog-light');
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm tuyến gọi ra')).toBeVisible();
  const ruleRow = outbound.row(rule);
  await expect(ruleRow.getByTestId('row-trunk')).toHaveText(`${BACKUP} → ${BOARD}`);
  await expect(ruleRow.getByTestId('row-caller-id')).toHaveText(SHOWN);
  // In use: the switchboard cannot go while a hotline or a rule uses it.
  await openScreen(page, '/etelecom/switchboards');
  await boards.remove(BOARD);
  await expect(toast(page, 'error', 'Tổng đài đang được dùng bởi hotline hoặc tuyến gọi ra')).toBeVisible();
  await expect(boards.row(BOARD)).toBeVisible();

  // Each screen in both themes.
  for (const mode of TOUR_THEMES) {
    if (mode === 'dark') await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
    for (const [path, name, check] of [
      ['/etelecom/switchboards', 'etelecom-switchboards', 'Danh sách tổng đài nhà mạng'],
      ['/etelecom/list-hotline', 'etelecom-list-hotline', 'Danh sách hotline'],
      ['/etelecom/create-hotline', 'etelecom-create-hotline-empty', 'Thêm hotline'],
    ] as const) {
      await openScreen(page, path);
      await expectHeading(page, check);
      if (path !== '/etelecom/create-hotline') await expect(page.getByTestId('list-row').first()).toBeVisible();
      await shot(page, `${name}-${mode}`);
    }
    await openScreen(page, '/etelecom/switchboards');
    await boards.row(BOARD).getByTestId('edit').click();
    await expect(form.field('name')).toHaveValue(BOARD);
    await shot(page, `etelecom-switchboard-edit-${mode}`);
    await openScreen(page, `/outbound?dialog=new`);
    await expect(page.getByTestId('outbound-form')).toContainText('Tổng đài nhà mạng (theo thứ tự dự phòng)');
    await shot(page, `etelecom-outbound-new-${mode}`);
  }

  const texts = await Promise.all(bodies);
  expect(texts.length).toBeGreaterThan(10);
  expect(texts.filter((t) => t.includes(PASSWORD))).toEqual([]);
  expect(texts.filter((t) => /auth_password"\s*:\s*"[^"]/.test(t))).toEqual([]);
});
