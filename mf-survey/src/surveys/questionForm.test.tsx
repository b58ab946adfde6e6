import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { SURVEY_API, SURVEY_MSG } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { EntityFields, parseDraft, useEntityDraft } from '@tongdai/ui';
import { question } from './surveys.entities';

const mockGet = jest.fn();
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get: mockGet }) }));

let form: ReturnType<typeof useEntityDraft>;
function Harness({ existing }: { existing: object | null }) {
  const [row] = useState(existing);
  form = useEntityDraft(question, row);
  return <EntityFields entity={question} form={form} />;
}
const renderForm = (existing: object | null = null) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}><Harness existing={existing} /></I18nextProvider>
    </QueryClientProvider>,
  );
const preview = () => screen.getByTestId('question-preview');
const optionInputs = () => screen.getAllByTestId('option-input').map((e) => e as HTMLInputElement);

/** GET answers by path: the categories, and the tenant's greetings a question may play. */
const ANSWERS: Record<string, unknown> = {
  [SURVEY_API.categoryOptions]: [{ id: 3, name: 'Chăm sóc khách hàng', active: true }],
  [SURVEY_API.audioOptions]: [{ id: 41, name: 'Câu hỏi đánh giá (giọng thật)' }, { id: 42, name: 'Câu hỏi giới thiệu' }],
};
beforeEach(() => mockGet.mockImplementation((path: string) => ({ json: () => Promise.resolve({ data: ANSWERS[path] ?? [] }) })));

describe('the question form: options for the choice kinds, and the preview as the agent will see it', () => {
  it('a new question is single choice with two empty options; the preview follows what is typed', async () => {
    renderForm();
    await screen.findByRole('option', { name: 'Chăm sóc khách hàng' }, { timeout: 10_000 }); // the first render of the kit's form loads Fluent UI (3 s on a busy CI machine)
    expect((screen.getByTestId('field-kind') as HTMLSelectElement).value).toBe('single');
    expect(optionInputs().map((i) => i.value)).toEqual(['', '']);
    fireEvent.change(screen.getByTestId('field-text'), { target: { value: 'Anh/chị hài lòng với gói cước không?' } });
    fireEvent.change(optionInputs()[0], { target: { value: 'Hài lòng' } });
    fireEvent.change(optionInputs()[1], { target: { value: 'Chưa hài lòng' } });
    fireEvent.click(screen.getByTestId('option-add'));
    fireEvent.change(optionInputs()[2], { target: { value: 'Không ý kiến' } });
    expect(within(preview()).getByText('1. Anh/chị hài lòng với gói cước không?')).toBeTruthy();
    expect(within(preview()).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['Hài lòng', 'Chưa hài lòng', 'Không ý kiến']);
    fireEvent.click(screen.getAllByTestId('option-remove')[1]);
    expect(within(preview()).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['Hài lòng', 'Không ý kiến']);
    // Required shows as the agent sees it.
    fireEvent.click(screen.getByTestId('field-required'));
    expect(within(preview()).getByTestId('survey-question-1').textContent).toContain('*');
  });

  it('switching to a kind without options hides them, previews its own control, and sends no options', async () => {
    renderForm();
    await screen.findByRole('option', { name: 'Chăm sóc khách hàng' }, { timeout: 10_000 }); // the first render of the kit's form loads Fluent UI (3 s on a busy CI machine)
    fireEvent.change(screen.getByTestId('field-text'), { target: { value: 'Chấm điểm nhân viên' } });
    fireEvent.change(optionInputs()[0], { target: { value: 'bị bỏ' } });
    fireEvent.change(screen.getByTestId('field-kind'), { target: { value: 'rating' } });
    expect(screen.queryByTestId('field-options')).toBeNull();
    expect(within(preview()).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['1', '2', '3', '4', '5']);
    fireEvent.change(screen.getByTestId('field-category_id'), { target: { value: '3' } });
    const parsed = parseDraft(question.schema, form.draft);
    expect(parsed).toEqual({ ok: true, input: { category_id: 3, kind: 'rating', text: 'Chấm điểm nhân viên', options: [], required: false, voice_audio_id: null } });
  });

  it("a question the voice survey asks offers the tenant's recordings, spoken by default; the one chosen is saved; the other kinds offer none", async () => {
    renderForm();
    await screen.findByRole('option', { name: 'Chăm sóc khách hàng' }, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId('field-category_id'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('field-text'), { target: { value: 'Anh/chị chấm điểm nhân viên' } });
    fireEvent.change(screen.getByTestId('field-kind'), { target: { value: 'rating' } });
    const select = (await screen.findByRole('combobox', { name: /Ghi âm câu hỏi \(khảo sát tự động\)/ })) as HTMLSelectElement;
    expect(select).toBe(screen.getByTestId('field-voice_audio_id'));
    await screen.findByRole('option', { name: 'Câu hỏi đánh giá (giọng thật)' });
    // The empty choice first: spoken from the text.
    expect(within(select).getAllByRole('option').map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual([
      ['', 'Đọc tự động bằng giọng nói'], ['41', 'Câu hỏi đánh giá (giọng thật)'], ['42', 'Câu hỏi giới thiệu'],
    ]);
    expect(select.value).toBe('');
    expect(parseDraft(question.schema, form.draft)).toMatchObject({ ok: true, input: { voice_audio_id: null } });
    fireEvent.change(select, { target: { value: '41' } });
    expect(parseDraft(question.schema, form.draft)).toEqual({
      ok: true, input: { category_id: 3, kind: 'rating', text: 'Anh/chị chấm điểm nhân viên', options: [], required: false, voice_audio_id: 41 },
    });
    // A free-text question cannot be asked by phone: no recording offered, none sent.
    fireEvent.change(screen.getByTestId('field-kind'), { target: { value: 'text' } });
    expect(screen.queryByTestId('field-voice_audio_id')).toBeNull();
    expect(parseDraft(question.schema, form.draft)).toMatchObject({ ok: true, input: { kind: 'text', voice_audio_id: null } });
  });

  it('a choice question with fewer than two filled options is refused before anything is sent, under the options', async () => {
    renderForm();
    fireEvent.change(screen.getByTestId('field-text'), { target: { value: 'Kênh liên hệ?' } });
    fireEvent.change(optionInputs()[0], { target: { value: 'Zalo' } });
    const parsed = parseDraft(question.schema, form.draft);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors.options).toBe(SURVEY_MSG.optionsBlank);
  });

  it('editing shows the saved question and its options', async () => {
    renderForm({ id: 9, category_id: 3, kind: 'multiple', text: 'Dịch vụ đang dùng', options: ['Internet', 'Truyền hình', 'Di động'], required: true, voice_audio_id: null });
    expect(optionInputs().map((i) => i.value)).toEqual(['Internet', 'Truyền hình', 'Di động']);
    expect(within(preview()).getAllByRole('checkbox')).toHaveLength(3);
  });

  it('editing a question with a recording shows the file chosen', async () => {
    renderForm({ id: 10, category_id: 3, kind: 'yes_no', text: 'Anh/chị có giới thiệu không?', options: [], required: false, voice_audio_id: 42 });
    await screen.findByRole('option', { name: 'Câu hỏi giới thiệu' });
    expect((screen.getByTestId('field-voice_audio_id') as HTMLSelectElement).value).toBe('42');
    expect(parseDraft(question.schema, form.draft)).toMatchObject({ ok: true, input: { voice_audio_id: 42 } });
  });
});
