import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MSG, SURVEY_MSG, type SurveyAnswerValue } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import '../i18n';
import { SurveyForm, surveyProblems, type SurveyAnswers } from './SurveyForm';
import type { AskedQuestion } from './SurveyQuestionView';

const QUESTIONS: (AskedQuestion & { key: string })[] = [
  { key: '1', kind: 'single', text: 'Anh/chị biết đến chúng tôi qua đâu?', options: ['Facebook', 'Bạn bè'], required: true },
  { key: '2', kind: 'multiple', text: 'Dịch vụ quan tâm', options: ['Internet', 'Truyền hình', 'Di động'], required: false },
  { key: '3', kind: 'rating', text: 'Chấm điểm tư vấn viên', options: [], required: true },
  { key: '4', kind: 'number', text: 'Gia đình có mấy người?', options: [], required: false },
  { key: '5', kind: 'yes_no', text: 'Có giới thiệu cho người quen không?', options: [], required: true },
  { key: '6', kind: 'text', text: 'Góp ý khác', options: [], required: false },
];

let answers: SurveyAnswers = {};
function Harness({ check }: { check?: boolean }) {
  const [values, setValues] = useState<SurveyAnswers>({});
  answers = values;
  const set = (key: string, value: SurveyAnswerValue) => setValues((a) => ({ ...a, [key]: value }));
  return <SurveyForm questions={QUESTIONS} answers={values} onAnswer={set} problems={check ? surveyProblems(QUESTIONS, values) : {}} />;
}
const renderForm = (check = false) => render(<I18nextProvider i18n={i18n}><Harness check={check} /></I18nextProvider>);
const question = (n: number) => screen.getByTestId(`survey-question-${n}`);

describe('SurveyForm: the questions as the agent sees and answers them', () => {
  it('numbers the questions in order, marks the required ones and shows each kind its control', () => {
    renderForm();
    expect(screen.getByText('1. Anh/chị biết đến chúng tôi qua đâu?')).toBeTruthy();
    expect(within(question(1)).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['Facebook', 'Bạn bè']);
    expect(within(question(2)).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(question(3)).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['1', '2', '3', '4', '5']);
    expect(within(question(3)).getByText('Rất hài lòng')).toBeTruthy();
    expect(within(question(4)).getByRole('spinbutton')).toBeTruthy();
    expect([within(question(5)).getByLabelText('Có'), within(question(5)).getByLabelText('Không')].map((r) => (r as HTMLInputElement).value)).toEqual(['true', 'false']);
    expect(within(question(6)).getByRole('textbox')).toBeTruthy();
    // Required ones carry the mark (Fluent's asterisk) on their label.
    expect(question(1).textContent).toContain('*');
    expect(question(2).textContent).not.toContain('*');
  });

  it('turns what the agent picks and types into the saved answer of each kind', () => {
    renderForm();
    fireEvent.click(within(question(1)).getByLabelText('Bạn bè'));
    fireEvent.click(within(question(2)).getByLabelText('Di động'));
    fireEvent.click(within(question(2)).getByLabelText('Internet'));
    fireEvent.click(within(question(3)).getByLabelText('4'));
    fireEvent.change(within(question(4)).getByRole('spinbutton'), { target: { value: '5' } });
    fireEvent.click(within(question(5)).getByLabelText('Không'));
    fireEvent.change(within(question(6)).getByRole('textbox'), { target: { value: 'Nhân viên nhiệt tình' } });
    // Options in the question's order, whatever the order they were ticked in.
    expect(answers).toEqual({ 1: 'Bạn bè', 2: ['Internet', 'Di động'], 3: 4, 4: 5, 5: false, 6: 'Nhân viên nhiệt tình' });
    fireEvent.click(within(question(2)).getByLabelText('Internet'));
    expect(answers[2]).toEqual(['Di động']);
  });

  it('says which required questions are unanswered, in Vietnamese, the rule of the API', () => {
    renderForm(true);
    expect(within(question(1)).getByText(MSG.required)).toBeTruthy();
    expect(within(question(3)).getByText(MSG.required)).toBeTruthy();
    expect(within(question(5)).getByText(MSG.required)).toBeTruthy();
    expect(within(question(2)).queryByText(MSG.required)).toBeNull();
    fireEvent.click(within(question(5)).getByLabelText('Có'));
    expect(within(question(5)).queryByText(MSG.required)).toBeNull();
  });

  it('surveyProblems refuses an answer the question does not take', () => {
    const problems = surveyProblems(QUESTIONS, { 1: 'Zalo', 2: ['Internet'], 3: 7, 4: Number.NaN, 5: true });
    expect(problems).toEqual({ 1: SURVEY_MSG.answerInvalid, 3: SURVEY_MSG.answerRating, 4: SURVEY_MSG.answerNumber });
  });
});
