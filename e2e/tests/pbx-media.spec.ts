import { expect, test, type Page, TOUR_THEMES } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { PbxFormPage, PbxListPage } from '../pages/PbxPages.ts';
import { TimeGroupRows, audioState, expectHeading, fillRange, toast } from '../pages/PbxMediaPages.ts';
import { toneWav } from '@tongdai/testkit/wav';
import { tenantApiAs } from '../support/tenant-api.ts';
import { openScreen } from '../support/navigate.ts';

const GROUP = 'Giờ hành chính test';
const CONDITION = 'Giờ làm việc test';
const GREETING = 'Lời chào test';
const shot = (page: Page, name: string) => page.screenshot({ path: `../.tmp/screens/${name}.png`, fullPage: true });

/** The range edited by the first test, opened again by the second. */
let rangePath = '';

test('time group → its range edited → a time condition on it; a WAV greeting uploaded and played; a blocked number; an outbound rule', async ({ page, request }) => {
  // Five areas: over a minute on a loaded 2-core machine.
  test.setTimeout(150_000);
  // The carrier trunk the outbound rule goes through (made on /etelecom/switchboards in etelecom-screens.spec).
  const trunk = await (await tenantApiAs(request, DEMO)).create('etelecom/switchboards', { name: `viettel-trunk-${Date.now().toString(36).slice(-5)}`, host: '127.0.0.1', register: false });
  await new LoginPage(page).loginAs(DEMO);
  const form = new PbxFormPage(page);
  const groups = new TimeGroupRows(page);
  const groupList = new PbxListPage(page, '/time-groups', 'time-group-list');
  /** Save a time group page form: back on the list, filtered to the test's group. */
  const saveToGroups = async (message: string) => {
    await form.save();
    await expect(toast(page, 'success', message)).toBeVisible();
    await expect(page).toHaveURL(/\/time-groups$/);
    await groupList.search(GROUP);
    // The search's rows, not the full list still drawn while they load (a click on a row replaced
    // under it opened nothing once in CI).
    await expect(groupList.rows()).toHaveCount(1);
  };

  // Time group: name, description and its first range, office hours Monday to Friday.
  await page.getByTestId('nav-time-groups').click();
  await expect(page.getByTestId('time-group-list')).toBeVisible();
  await page.getByTestId('add').click();
  await expect(page).toHaveURL(/\/time-groups\/add$/);
  await form.save();
  await expect(page.getByTestId('time-group-form')).toContainText('Thông tin không được để trống');
  await form.fill({ name: GROUP, description: 'Nhóm thời gian của bài kiểm thử' });
  await fillRange(page, { start: '08:00', end: '17:30', dowStart: 'Thứ Hai', dowEnd: 'Thứ Sáu' });
  await saveToGroups('Đã thêm nhóm thời gian');
  await expect(groups.ranges(GROUP)).toHaveText(['08:00–17:30, Thứ Hai – Thứ Sáu, mọi ngày, mọi tháng']);

  // Its range, on /time-groups/edit/:id/:detailId, with the group's name editable beside it.
  await groups.row(GROUP).getByTestId('edit-range').click();
  await expect(page).toHaveURL(/\/time-groups\/edit\/\d+\/\d+$/);
  rangePath = new URL(page.url()).pathname;
  await expect(form.field('name')).toHaveValue(GROUP);
  await expect(form.field('time_start')).toHaveValue('08:00');
  await expect(form.field('dow_end')).toHaveValue('5');
  await fillRange(page, { end: '18:00', dowEnd: 'Thứ Bảy' });
  await saveToGroups('Đã lưu thay đổi');
  await expect(groups.ranges(GROUP)).toHaveText(['08:00–18:00, Thứ Hai – Thứ Bảy, mọi ngày, mọi tháng']);

  // A second range through the dialog, then removed again (the last one cannot be).
  await groups.row(GROUP).getByTestId('add-range').click();
  await expect(page.getByTestId('add-range-form')).toContainText(GROUP);
  await fillRange(page, { start: '08:00', end: '12:00', dowStart: 'Chủ Nhật', dowEnd: 'Chủ Nhật' });
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm khoảng thời gian')).toBeVisible();
  await expect(groups.ranges(GROUP)).toHaveText([
    '08:00–18:00, Thứ Hai – Thứ Bảy, mọi ngày, mọi tháng',
    '08:00–12:00, Chủ Nhật, mọi ngày, mọi tháng',
  ]);
  await groups.range(GROUP, 'Chủ Nhật').getByTestId('delete-range').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('08:00–12:00, Chủ Nhật');
  await page.getByTestId('confirm').click();
  await expect(toast(page, 'success', 'Đã xoá khoảng thời gian')).toBeVisible();
  await expect(groups.ranges(GROUP)).toHaveCount(1);
  await expect(groups.row(GROUP).getByTestId('delete-range')).toHaveCount(0);

  // Time condition on that group: ring group "Kinh doanh" in office hours, extension 101 otherwise.
  await page.getByTestId('nav-conditions').click();
  const conditions = new PbxListPage(page, '/conditions', 'condition-list');
  await expect(page.getByTestId('condition-list')).toBeVisible();
  await conditions.add();
  await expect(page).toHaveURL(/\/conditions\/add$/);
  await expect(form.field('timezone')).toHaveValue('Asia/Ho_Chi_Minh');
  await expect(form.field('override')).toHaveValue('none');
  await form.save();
  await expect(page.getByTestId('condition-form').locator('.fui-Field__validationMessage')).toHaveText([
    'Thông tin không được để trống', 'Thông tin không được để trống', 'Chọn loại điểm đến', 'Chọn loại điểm đến',
  ]);
  await form.fill({ name: CONDITION });
  await form.field('time_group_id').selectOption({ label: GROUP });
  await expect(page.getByTestId('time-group-ranges')).toHaveText('08:00–18:00, Thứ Hai – Thứ Bảy, mọi ngày, mọi tháng');
  await form.destination('matched_destination', 'Nhóm đổ chuông', 'Kinh doanh');
  await form.destination('unmatched_destination', 'Máy nhánh', '101 - Quản trị viên');
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm điều kiện thời gian')).toBeVisible();
  await expect(page).toHaveURL(/\/conditions$/);
  const row = conditions.row(CONDITION);
  await expect(row.getByTestId('row-time_group_id')).toHaveText(GROUP);
  await expect(row.getByTestId('row-matched_destination')).toHaveText('Nhóm đổ chuông: Kinh doanh');
  await expect(row.getByTestId('row-unmatched_destination')).toHaveText('Máy nhánh: 101 - Quản trị viên');
  await expect(row.getByTestId('row-override')).toHaveText('Theo lịch');

  // A temporary override holds until the group's next change of state, which the list names.
  await row.getByTestId('edit').click();
  await expect(page).toHaveURL(/\/conditions\/edit\/\d+$/);
  await expect(form.field('name')).toHaveValue(CONDITION);
  await form.field('override').selectOption('temp_unmatched');
  await form.save();
  await expect(toast(page, 'success', 'Đã lưu thay đổi')).toBeVisible();
  await expect(conditions.row(CONDITION).getByTestId('row-override')).toHaveText(/^Tạm thời: ngoài giờ đến \d\d:\d\d \d\d\/\d\d\/\d{4}$/);

  // Greeting: the browser refuses a non-audio file, uploads a 1 s WAV, shows its size and duration, plays it.
  await page.getByTestId('nav-greeting').click();
  const greetings = new PbxListPage(page, '/greeting', 'greeting-list');
  await expect(page.getByTestId('greeting-list')).toBeVisible();
  await greetings.add();
  const upload = page.getByTestId('audio-upload-form');
  await expect(upload).toBeVisible();
  await form.field('file').setInputFiles({ name: 'ghi-chu.txt', mimeType: 'text/plain', buffer: Buffer.from('không phải âm thanh') });
  await expect(upload).toContainText('Chỉ nhận tệp âm thanh WAV hoặc MP3');
  const wav = toneWav(1, 440);
  await form.field('file').setInputFiles({ name: 'loi-chao.wav', mimeType: 'audio/wav', buffer: wav });
  await expect(upload).not.toContainText('Chỉ nhận tệp âm thanh WAV hoặc MP3');
  await expect(form.field('name')).toHaveValue('ghi-chu');
  await form.fill({ name: GREETING });
  await form.save();
  await expect(toast(page, 'success', 'Đã tải lên lời chào')).toBeVisible();
  await expect(upload).toHaveCount(0);
  const greeting = greetings.row(GREETING);
  await expect(greeting.getByTestId('row-file_name')).toHaveText('loi-chao.wav');
  expect(wav.length).toBe(16_044);
  await expect(greeting.getByTestId('row-size')).toHaveText('15.67 KB');
  await expect(greeting.getByTestId('row-duration')).toHaveText('00:01');
  // A press landing while the upload dialog is still being torn down is sometimes lost (seen in
  // CI, once): press again only while the button still says it has not started.
  await expect(async () => {
    if ((await greeting.getByTestId('play').getAttribute('data-status')) === 'idle') await greeting.getByTestId('play').click();
    await expect(greeting.getByTestId('play')).toHaveAttribute('data-status', 'playing', { timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
  await expect.poll(async () => (await audioState(greeting)).time, { timeout: 5_000 }).toBeGreaterThan(0.1);
  const playing = await audioState(greeting);
  expect(playing.src).toMatch(/^blob:/);
  await shot(page, 'greeting-playing-light');
  // The 1 s clip ends by itself; the button follows the element.
  await expect(greeting.getByTestId('play')).toHaveAttribute('data-status', 'paused', { timeout: 5_000 });
  expect((await audioState(greeting)).paused).toBe(true);

  // Blocked incoming number.
  await page.getByTestId('nav-list-of-blocked-incoming-numbers').click();
  const blocked = new PbxListPage(page, '/list-of-blocked-incoming-numbers', 'blocked-in-list');
  await expect(page.getByTestId('blocked-in-list')).toBeVisible();
  await blocked.add();
  await form.fill({ number: 'abc' });
  await form.save();
  await expect(page.getByTestId('blocked-in-form')).toContainText('Số điện thoại chỉ gồm 3–15 chữ số');
  await form.fill({ number: '0909123456', note: 'Gọi quấy rối' });
  await form.field('match').selectOption({ label: 'Đúng số' });
  await form.save();
  await expect(toast(page, 'success', 'Đã chặn số')).toBeVisible();
  await expect(blocked.row('0909123456')).toContainText('Đúng số');
  await expect(blocked.row('0909123456')).toContainText('Gọi quấy rối');

  // Outbound rule: the dial pattern is checked in the browser with the contract's message.
  await page.getByTestId('nav-outbound').click();
  const outbound = new PbxListPage(page, '/outbound', 'outbound-list');
  await expect(page.getByTestId('outbound-list')).toBeVisible();
  await outbound.add();
  await expect(page.getByTestId('outbound-form')).toContainText('Cho phép gọi quốc tế (đầu số +, 00)');
  await form.fill({ name: 'Di động Việt Nam', pattern: 'abc' });
  await form.save();
  await expect(page.getByTestId('outbound-form')).toContainText('Mẫu quay số chỉ gồm chữ số');
  await expect(page.getByTestId('outbound-form')).toContainText('Chọn ít nhất một tổng đài (trunk)');
  await form.fill({ pattern: '0[35789]XXXXXXXX', strip: '1', prepend: '84', priority: '10' });
  await form.field('switchboard_ids-add').selectOption(String(trunk.id));
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm tuyến gọi ra')).toBeVisible();
  const rule = outbound.row('Di động Việt Nam');
  await expect(rule.getByTestId('row-pattern')).toHaveText('0[35789]XXXXXXXX');
  await expect(rule).toContainText('bỏ 1 số đầu, thêm 84');
  await expect(rule.getByTestId('row-trunk')).toHaveText(trunk.name);
});

// The same screens with the first test's data, in both themes: a test of its own, with its own time (at
// load 12 in CI of stop 50 the first test's five areas and this tour took more than 150 s together).
test('the time groups, conditions, greetings, outbound rules and blocked numbers with data: each list, form and dialog opens on its heading', async ({ page }) => {
  test.setTimeout(150_000);
  expect(rangePath, 'the first test edited a range').not.toBe('');
  await new LoginPage(page).loginAs(DEMO);
  for (const mode of TOUR_THEMES) {
    if (mode === 'dark') await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
    for (const [path, name, heading] of [
      ['/time-groups', 'time-groups-data', 'Nhóm thời gian'],
      ['/conditions', 'conditions-data', 'Điều kiện thời gian'],
      ['/greeting', 'greeting-data', 'Lời chào'],
      ['/outbound', 'outbound-data', 'Danh sách tuyến gọi ra'],
      ['/list-of-blocked-incoming-numbers', 'blocked-in-data', 'Danh sách số bị chặn gọi vào'],
    ] as const) {
      await openScreen(page, path);
      await expectHeading(page, heading);
      await expect(page.getByTestId('list-row').first()).toBeVisible();
      await shot(page, `${name}-${mode}`);
    }
    for (const [path, name, heading] of [
      [rangePath, 'time-range-edit', 'Sửa khoảng thời gian'],
      ['/time-groups/add', 'time-group-add', 'Thêm nhóm thời gian'],
      ['/conditions/add', 'condition-add', 'Thêm điều kiện thời gian'],
    ] as const) {
      await openScreen(page, path);
      await expectHeading(page, heading);
      await shot(page, `${name}-${mode}`);
    }
    // Dialogs over their lists (the page behind is hidden from the accessibility tree).
    for (const [path, name, dialog, title] of [
      ['/greeting?dialog=new', 'greeting-upload', 'audio-upload-form', 'Tải lên lời chào'],
      ['/outbound?dialog=new', 'outbound-dialog', 'outbound-form', 'Thêm tuyến gọi ra'],
    ] as const) {
      await openScreen(page, path);
      await expect(page.getByTestId(dialog)).toContainText(title);
      await shot(page, `${name}-${mode}`);
    }
  }
});
