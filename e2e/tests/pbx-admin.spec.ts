import { expect, test } from '../support/fixtures.ts';
import writeXlsxFile from 'write-excel-file/node';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { PbxFormPage, PbxListPage } from '../pages/PbxPages.ts';
import { toast } from '../pages/PbxMediaPages.ts';

/**
 * Issue 6's admin story: a DID → time condition "office hours" → a ring group of two extensions,
 * otherwise an IVR; then 50 inbound routes imported from an Excel file with 3 bad rows.
 */
const DID = '02873009500';
const GROUP = 'Hỗ trợ E2E';
const IVR = 'Ngoài giờ E2E';
const CONDITION = 'Giờ hành chính E2E';
const EXT_101 = '101 - Quản trị viên';
const EXT_102 = '102 - Nhân viên tổng đài';

test('DID → time condition (office hours) → ring group of 101+102, otherwise an IVR', async ({ page }) => {
  await new LoginPage(page).loginAs(DEMO);
  const form = new PbxFormPage(page);

  await page.getByTestId('nav-numbers').click();
  const numbers = new PbxListPage(page, '/numbers', 'number-list');
  await numbers.add();
  await form.fill({ number: DID, description: 'Tổng đài chăm sóc khách hàng' });
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm số điện thoại')).toBeVisible();

  await page.getByTestId('nav-ringgroup').click();
  await new PbxListPage(page, '/ringgroup', 'ringgroup-list').add();
  await form.fill({ name: GROUP });
  await form.addExtensions('extensions', [EXT_101, EXT_102]);
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm nhóm đổ chuông')).toBeVisible();

  await page.getByTestId('nav-ivr-details').click();
  await new PbxListPage(page, '/ivr-details', 'ivr-list').add();
  await form.fill({ name: IVR });
  await page.getByTestId('entries-add').click();
  await form.field('entries-0-digit').selectOption('1');
  await form.destination('entries-0-destination', 'Máy nhánh', EXT_101);
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm IVR')).toBeVisible();

  // The seeded "Giờ hành chính" group: Monday to Friday, 08:00–17:30.
  await page.getByTestId('nav-conditions').click();
  const conditions = new PbxListPage(page, '/conditions', 'condition-list');
  await conditions.add();
  await form.fill({ name: CONDITION });
  await form.field('time_group_id').selectOption({ label: 'Giờ hành chính' });
  await expect(page.getByTestId('time-group-ranges')).toHaveText('08:00–17:30, Thứ Hai – Thứ Sáu, mọi ngày, mọi tháng');
  await form.destination('matched_destination', 'Nhóm đổ chuông', GROUP);
  await form.destination('unmatched_destination', 'IVR', IVR);
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm điều kiện thời gian')).toBeVisible();
  await expect(conditions.row(CONDITION).getByTestId('row-matched_destination')).toHaveText(`Nhóm đổ chuông: ${GROUP}`);
  await expect(conditions.row(CONDITION).getByTestId('row-unmatched_destination')).toHaveText(`IVR: ${IVR}`);

  await page.getByTestId('nav-inbounds').click();
  const inbounds = new PbxListPage(page, '/inbounds', 'inbound-list');
  await inbounds.add();
  await form.field('did').selectOption(DID);
  await form.destination('destination', 'Điều kiện thời gian', CONDITION);
  await form.save();
  await expect(toast(page, 'success', 'Đã thêm tuyến gọi vào')).toBeVisible();
  await inbounds.filterBy('time');
  await expect(inbounds.row(DID).getByTestId('row-destination')).toHaveText(`Điều kiện thời gian: ${CONDITION}`);

  // The IVR cannot time out back into the condition that leads to it: a loop, named, refused.
  await page.getByTestId('nav-ivr-details').click();
  await new PbxListPage(page, '/ivr-details', 'ivr-list').row(IVR).getByTestId('edit').click();
  await form.destination('timeout_destination', 'Điều kiện thời gian', CONDITION);
  await form.save();
  await expect(form.error()).toHaveText(`Cấu hình tạo vòng lặp: IVR "${IVR}" → Điều kiện thời gian "${CONDITION}" → IVR "${IVR}"`);
});

test('50 inbound routes from an Excel file, 3 bad rows reported with their reasons', async ({ page }) => {
  const header = ['did', 'caller_pattern', 'destination_type', 'destination_target', 'description'];
  const rows: string[][] = [];
  for (let row = 2; row <= 51; row++) {
    if (row === 7) rows.push(['0999000111', '', 'direct', '101', 'Số không thuộc doanh nghiệp']);
    else if (row === 23) rows.push(['02873000003', '0912XXXXXX', 'direct', '999', 'Máy nhánh không có']);
    else if (row === 40) rows.push(['02873000003', '09a', 'direct', '101', 'Mẫu sai']);
    else rows.push(['02873000003', `09${String(row).padStart(2, '0')}.`, row % 2 ? 'direct' : 'group', row % 2 ? '102' : 'Kinh doanh', `Excel dòng ${row}`]);
  }
  const bytes = await writeXlsxFile([header, ...rows].map((r) => r.map((value) => ({ value, type: String }))), {}).toBuffer();

  const inbounds = new PbxListPage(page, '/inbounds', 'inbound-list');
  await inbounds.goto(DEMO);
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'tuyen-goi-vao.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: bytes });
  await page.getByTestId('import-submit').click();
  await expect(page.getByTestId('import-imported')).toHaveText('Đã nhập 47 tuyến');
  const refused = page.getByTestId('import-refused-row');
  await expect(refused).toHaveCount(3);
  await expect(refused.nth(0).getByRole('cell')).toHaveText(['7', '0999000111', 'Số DID không thuộc doanh nghiệp']);
  await expect(refused.nth(1).getByRole('cell')).toHaveText(['23', '02873000003', 'Điểm đến không tồn tại']);
  await expect(refused.nth(2).getByRole('cell')).toHaveText(['40', '02873000003', 'Mẫu số gọi chỉ gồm chữ số, X, Z, N, [ ], dấu . ở cuối']);
  await page.getByTestId('import-close').click();

  await inbounds.search('Excel dòng');
  await expect(page.getByTestId('pager-status')).toContainText('47');
  await expect(inbounds.rows()).toHaveCount(10);
});
