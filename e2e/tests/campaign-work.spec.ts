import { expect, test } from '../support/fixtures.ts';
import writeXlsxFile from 'write-excel-file/node';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { CampaignListPage } from '../pages/CampaignPages.ts';
import { axeViolations } from '../support/axe.ts';
import { tenantApiAs } from '../support/tenant-api.ts';
import { shot, stillness } from '../support/screens.ts';

const CAMPAIGN = 'Chăm sóc sau lắp đặt E2E';
const NAMES = ['Nguyễn Văn An', 'Trần Thị Bình', 'Lê Văn Cường'];

async function contactsXlsx(): Promise<Buffer> {
  const rows = [
    ['Họ và tên', 'Số điện thoại', 'Gói cước'],
    [NAMES[0], '0912345611', 'Gói A'],
    [NAMES[1], '0912345612', 'Gói B'],
    [NAMES[2], '0912345613', 'Gói C'],
  ];
  return (await writeXlsxFile(rows.map((r) => r.map((value) => ({ value }))), {}).toBuffer()) as Buffer;
}

/** Tomorrow at 10:00 as a datetime-local input takes it (the browser runs in Asia/Ho_Chi_Minh). */
function tomorrowAt10(): string {
  const d = new Date(Date.now() + 24 * 3600_000 + 7 * 3600_000);
  return `${d.toISOString().slice(0, 10)}T10:00`;
}

test('campaign work: an agent opens "Gọi liên hệ", answers (kept across a reload), sets "Hẹn gọi lại" and gets the next contact; "Máy bận" brings the next (issue 33)', async ({ page, request }) => {
  test.setTimeout(150_000);
  // The campaign through the API (campaigns.spec makes one through its screens); the contacts from an XLSX on the screen.
  const api = await tenantApiAs(request, DEMO);
  const category = await api.create('survey-categories', { name: 'Gọi liên hệ E2E' });
  await api.create('survey-questions', { category_id: category.id, kind: 'yes_no', text: 'Anh/chị có hài lòng với kỹ thuật viên không?' });
  await api.create('survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý của anh/chị' });
  const options = await api.get('survey-campaigns/options');
  const questionIds = (options.questions as { id: number; category_name: string }[]).filter((q) => q.category_name === 'Gọi liên hệ E2E').map((q) => q.id);
  const admin = (options.agents as { id: number; name: string }[]).find((a) => /Quản trị viên/.test(a.name))!;
  await api.create('survey-campaigns', {
    name: CAMPAIGN, purpose: 'care', question_ids: questionIds, agent_ids: [admin.id], hotline_id: options.hotlines[0].id,
    script: 'Xin chào anh/chị {{name}}, em gọi từ tổng đài về {{Gói cước}} vừa lắp đặt.',
  });

  await new LoginPage(page).loginAs(DEMO);
  const list = new CampaignListPage(page, 'survey');
  await list.open();
  const contacts = await list.openContacts(CAMPAIGN);
  await contacts.upload({ name: 'danh-ba.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await contactsXlsx() });
  await expect(contacts.summary()).toHaveText('3 dòng · 3 hợp lệ · 0 lỗi');
  await contacts.commit().click();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã nhập 3 liên hệ' })).toBeVisible();
  await expect(list.row(CAMPAIGN).getByTestId('campaign-work')).toHaveCount(0);
  await list.transition(CAMPAIGN, 'running', /Bắt đầu chiến dịch/);
  await expect(list.state(CAMPAIGN)).toHaveText('Đang chạy');

  // The first contact, its script filled in with its fields, the questions.
  const work = await list.work(CAMPAIGN);
  await expect(page).toHaveURL(/\/survey\/campaign\/start\/\d+$/);
  await expect(work.contact()).toContainText(NAMES[0]);
  await expect(work.phone()).toHaveText(/^(0912345611|\d{4}\*+\d+|[0-9*x ]+)$/);
  await expect(work.script()).toHaveText(`Xin chào anh/chị ${NAMES[0]}, em gọi từ tổng đài về Gói A vừa lắp đặt.`);
  await expect(work.contact()).toContainText('Gói cước: Gói A');
  await expect(page.getByText('Chưa gọi lần nào')).toBeVisible();

  // Answers are saved as typed: a reload gets the same contact with them.
  await work.question(1).getByRole('radio', { name: 'Có' }).check();
  const saved = page.waitForResponse((r) => r.url().includes('/answers') && r.request().method() === 'PUT' && r.ok());
  await work.question(2).getByTestId('answer-input').fill('Kỹ thuật viên đến đúng giờ');
  await saved;
  await page.reload();
  await expect(work.contact()).toContainText(NAMES[0]);
  await expect(work.question(1).getByRole('radio', { name: 'Có' })).toBeChecked();
  await expect(work.question(2).getByTestId('answer-input')).toHaveValue('Kỹ thuật viên đến đúng giờ');
  await stillness(page);
  await page.screenshot(shot('campaign-work-light'));
  expect(await axeViolations(page, '/survey/campaign/start/:id')).toEqual([]);

  // "Hẹn gọi lại" needs its date and time; then the next contact comes, with no answers.
  await page.getByTestId('work-result-callback').click();
  await expect(page.getByText('Chọn ngày giờ gọi lại')).toBeVisible();
  await work.setCallbackAt(tomorrowAt10());
  await work.result('callback', 'Hẹn gọi lại');
  await expect(work.contact()).toContainText(NAMES[1]);
  await expect(work.script()).toContainText('Gói B');
  await expect(work.question(2).getByTestId('answer-input')).toHaveValue('');

  // "Máy bận" ends this one for now (retried later) and brings the third.
  await work.result('busy', 'Máy bận');
  await expect(work.contact()).toContainText(NAMES[2]);

  // Dark: the same screen.
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
  await page.reload();
  await expect(work.contact()).toContainText(NAMES[2]);
  await stillness(page);
  await page.screenshot(shot('campaign-work-dark'));
  expect(await axeViolations(page, '/survey/campaign/start/:id')).toEqual([]);

  // The last one done: nothing left to hand out now (the callback is tomorrow, the busy one later).
  await work.result('agreed', 'Đồng ý');
  await expect(work.empty()).toBeVisible();
  await page.screenshot(shot('campaign-work-empty-dark'));

  // The results (slice 4): what the agent just did, counted from the server's read model; charts in dark, then light.
  await list.open();
  const results = await list.results(CAMPAIGN);
  await expect(results.getByTestId('figure-attempts')).toHaveText('3Lượt gọi');
  await expect(results.getByTestId('figure-done')).toHaveText('1Liên hệ đã xong / 3');
  for (const label of ['Đồng ý', 'Hẹn gọi lại', 'Máy bận']) await expect(results.getByText(label, { exact: true }).first()).toBeVisible();
  await expect(results.getByTestId('question-result').first()).toContainText('1 câu trả lời');
  await expect(results.getByTestId('agent-chart')).toContainText('Quản trị viên');
  // The legends keep Vietnamese case as drawn (innerText applies CSS): "Hẹn gọi lại", not "Hẹn Gọi Lại".
  await expect(results.getByTestId('agent-chart').locator('.fui-legend__legend', { hasText: /hẹn gọi lại/i })).toContainText('Hẹn gọi lại', { useInnerText: true });
  await expect(results.getByTestId('results-export-xlsx')).toBeVisible();
  await stillness(page);
  await page.screenshot(shot('campaign-results-dark'));
  await expect(results.getByTestId('contact-row')).toHaveCount(3);
  await results.getByTestId('contact-row').last().scrollIntoViewIfNeeded();
  await stillness(page);
  await results.getByTestId('contact-calls').screenshot({ path: '../.tmp/screens/campaign-results-contacts-dark.png' });
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '0'));
  await page.reload();
  const light = await list.results(CAMPAIGN);
  await expect(light.getByTestId('figure-attempts')).toHaveText('3Lượt gọi');
  // Scrolled to the day chart: the light shot shows the dialog's lower half.
  await light.getByTestId('day-chart').scrollIntoViewIfNeeded();
  await expect(light.getByTestId('day-chart')).toContainText('Kết quả theo ngày');
  await stillness(page);
  await page.screenshot(shot('campaign-results-light'));
  // The contacts with their results and calls (ADR 0050: an attempt knows its call), under the charts.
  const calls = light.getByTestId('contact-calls');
  await expect(calls.getByTestId('contact-row')).toHaveCount(3);
  await expect(calls.getByTestId('contact-row').filter({ hasText: 'Đồng ý' })).toHaveCount(1);
  await stillness(page);
  await calls.getByTestId('contact-row').last().scrollIntoViewIfNeeded();
  await stillness(page);
  await calls.screenshot({ path: '../.tmp/screens/campaign-results-contacts-light.png' });
});
