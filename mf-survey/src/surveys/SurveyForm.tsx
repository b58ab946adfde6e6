import { makeStyles } from '@fluentui/react-components';
import { answerProblem, type SurveyAnswerValue } from '@tongdai/contracts';
import { SurveyQuestionView, type AskedQuestion } from './SurveyQuestionView';

/** Answers by question key (the question's id on the agent's screen). */
export type SurveyAnswers = Readonly<Record<string, SurveyAnswerValue>>;
export type SurveyProblems = Readonly<Record<string, string | null>>;

const useStyles = makeStyles({ list: { display: 'flex', flexDirection: 'column', gap: '20px' } });

/** Why each answer cannot be saved yet (contracts answerProblem, the rule the API applies too); {} when all can. */
export function surveyProblems(questions: readonly (AskedQuestion & { key: string })[], answers: SurveyAnswers): SurveyProblems {
  const out: Record<string, string> = {};
  for (const q of questions) {
    const problem = answerProblem({ kind: q.kind, options: [...q.options], required: q.required }, answers[q.key] ?? null);
    if (problem) out[q.key] = problem;
  }
  return out;
}

/**
 * A survey's questions in their order, as the agent answers them: the preview of /survey/question
 * and the working screen of a campaign render this one component.
 */
export function SurveyForm({ questions, answers, onAnswer, problems = {} }: {
  questions: readonly (AskedQuestion & { key: string })[];
  answers: SurveyAnswers;
  onAnswer: (key: string, value: SurveyAnswerValue) => void;
  problems?: SurveyProblems;
}) {
  const s = useStyles();
  return (
    <div className={s.list} data-testid="survey-form">
      {questions.map((q, i) => (
        <SurveyQuestionView key={q.key} question={q} number={i + 1} value={answers[q.key] ?? null} onChange={(x) => onAnswer(q.key, x)} error={problems[q.key]} />
      ))}
    </div>
  );
}
