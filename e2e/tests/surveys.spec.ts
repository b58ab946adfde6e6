import { expect, test } from '../support/fixtures.ts';
import { DEMO, LoginPage } from '../pages/LoginPage.ts';
import { SurveyFormDialog, SurveyListPage } from '../pages/SurveyPages.ts';
import { shot, stillness } from '../support/screens.ts';

test('survey: a category, questions of several kinds in order, and the preview as the agent sees it (issue 33)', async ({ page }) => {
  test.setTimeout(120_000);
  // Its own category on each repeat (--repeat-each runs it again on the same database).
  const CATEGORY = `Khảo sát hài lòng E2E${test.info().repeatEachIndex ? ` ${test.info().repeatEachIndex}` : ''}`;
  await new LoginPage(page).loginAs(DEMO);
  const categories = new SurveyListPage(page, 'survey-category');
  const questions = new SurveyListPage(page, 'survey-question');

  await categories.open();
  let form = await categories.add();
  await form.save();
  await expect(form.root.getByText('Thông tin không được để trống')).toBeVisible();
  await form.field('name').fill(CATEGORY);
  await form.field('description').fill('Gọi khách hàng sau khi lắp đặt');
  await form.save();
  await form.saved();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm danh mục khảo sát' })).toBeVisible();
  await expect(categories.row(CATEGORY)).toContainText('Đang dùng');
  await page.screenshot(shot('survey-categories-light'));

  await questions.open();
  form = await questions.add();
  // A choice question with one option is refused under the options, before anything is sent.
  await form.fillQuestion({ category: CATEGORY, kind: 'Chọn một', text: 'Anh/chị biết đến dịch vụ qua đâu?', options: ['Facebook'], required: true });
  await form.save();
  await expect(form.root.getByTestId('options-error')).toHaveText('Các lựa chọn không được để trống');
  await form.root.getByTestId('option-input').nth(1).fill('Bạn bè giới thiệu');
  await form.root.getByTestId('option-add').click();
  await form.root.getByTestId('option-input').nth(2).fill('Quảng cáo');
  // The preview follows the form: the question, its options, required.
  await expect(form.preview()).toContainText('1. Anh/chị biết đến dịch vụ qua đâu?');
  await expect(form.preview().getByRole('radio')).toHaveCount(3);
  await form.preview().scrollIntoViewIfNeeded();
  await stillness(page);
  await page.screenshot(shot('survey-question-form-light'));
  await form.save();
  await form.saved();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Đã thêm câu hỏi' })).toBeVisible();

  const more = [
    { kind: 'Đánh giá 1–5', text: 'Anh/chị chấm điểm kỹ thuật viên', required: true },
    { kind: 'Chọn nhiều', text: 'Anh/chị quan tâm dịch vụ nào?', options: ['Internet', 'Truyền hình', 'Camera'] },
    { kind: 'Có / Không', text: 'Anh/chị có giới thiệu cho người quen không?' },
    { kind: 'Số', text: 'Gia đình có mấy người dùng Internet?' },
    { kind: 'Văn bản tự do', text: 'Góp ý khác' },
  ];
  for (const q of more) {
    form = await questions.add();
    await form.fillQuestion({ category: CATEGORY, ...q });
    if (q.kind === 'Đánh giá 1–5') await expect(form.preview().getByRole('radio')).toHaveCount(5);
    await form.save();
    await form.saved();
  }

  await questions.filterByCategory(CATEGORY);
  await expect(questions.rows()).toHaveCount(6);
  // "Góp ý khác" up one: before the number question.
  await questions.move('Góp ý khác', 'up');
  await expect(questions.rows().nth(4)).toContainText('Góp ý khác');
  await expect(questions.rows().nth(5)).toContainText('Gia đình có mấy người dùng Internet?');
  await page.screenshot(shot('survey-questions-light'));

  const preview = await questions.openPreview();
  const asked = preview.getByTestId(/^survey-question-\d+$/);
  await expect(asked).toHaveCount(6);
  await expect(asked.nth(0)).toContainText('1. Anh/chị biết đến dịch vụ qua đâu?');
  await expect(asked.nth(4)).toContainText('5. Góp ý khác');
  await preview.getByTestId('preview-check').click();
  // The two required ones are unanswered.
  await expect(preview.getByText('Thông tin không được để trống')).toHaveCount(2);
  await asked.nth(0).getByLabel('Bạn bè giới thiệu').check();
  await asked.nth(1).getByLabel('4').check();
  await asked.nth(2).getByLabel('Camera').check();
  await asked.nth(4).getByRole('textbox').fill('Lắp đặt nhanh');
  await preview.getByTestId('preview-check').click();
  await expect(preview.getByTestId('preview-valid')).toHaveText('Câu trả lời hợp lệ');
  await stillness(page);
  await page.screenshot(shot('survey-preview-light'));

  // The same screens in dark mode.
  await page.evaluate(() => localStorage.setItem('tongdai.dark_mode', '1'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass('dark');
  await expect(questions.rows()).toHaveCount(6);
  await page.screenshot(shot('survey-questions-dark'));
  await questions.openPreview();
  await expect(page.getByTestId('survey-preview-dialog').getByTestId(/^survey-question-\d+$/)).toHaveCount(6);
  await stillness(page);
  await page.screenshot(shot('survey-preview-dark'));
  await page.keyboard.press('Escape');
  await questions.row('Anh/chị quan tâm dịch vụ nào?').getByTestId('edit').click();
  form = new SurveyFormDialog(page, 'survey-question');
  await expect(form.root.getByTestId('option-input')).toHaveCount(3);
  await stillness(page);
  await page.screenshot(shot('survey-question-form-dark'));
  await page.keyboard.press('Escape');
  await categories.open();
  await expect(categories.row(CATEGORY)).toContainText('6');
  await page.screenshot(shot('survey-categories-dark'));
});
