import { useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, MessageBar, MessageBarBody,
} from '@fluentui/react-components';
import { EyeRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { SurveyAnswerValue } from '@tongdai/contracts';
import { EmptyState, ErrorState, LoadingState, useApiError } from '@tongdai/ui';
import { NS } from '../i18n';
import { useCategoryOptions, useCategoryQuestions } from './survey.api';
import { SurveyForm, surveyProblems, type SurveyAnswers, type SurveyProblems } from './SurveyForm';

/** The chosen category's survey, answerable and checked like the agent's, saving nothing. */
function Preview({ categoryId }: { categoryId: number }) {
  const { t } = useTranslation(NS);
  const query = useCategoryQuestions(categoryId);
  const error = useApiError(query.error);
  const [answers, setAnswers] = useState<SurveyAnswers>({});
  const [problems, setProblems] = useState<SurveyProblems | null>(null);
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState message={error?.message ?? ''} onRetry={() => void query.refetch()} />;
  const questions = query.data.map((q) => ({ ...q, key: String(q.id) }));
  if (!questions.length) return <EmptyState message={t('question.previewEmpty')} />;
  const answer = (key: string, value: SurveyAnswerValue) => {
    setAnswers((a) => ({ ...a, [key]: value }));
    setProblems((p) => (p ? { ...p, [key]: null } : p));
  };
  const checked = problems && Object.values(problems).every((p) => !p);
  return (
    <>
      <SurveyForm questions={questions} answers={answers} onAnswer={answer} problems={problems ?? {}} />
      {checked && <MessageBar intent="success" data-testid="preview-valid"><MessageBarBody>{t('question.checked')}</MessageBarBody></MessageBar>}
      <div><Button onClick={() => setProblems(surveyProblems(questions, answers))} data-testid="preview-check">{t('question.check')}</Button></div>
    </>
  );
}

/** The list's "Xem trước": every question of the filtered category, in order, exactly as the agent sees them. */
export function SurveyPreviewButton() {
  const { t } = useTranslation(NS);
  const [params] = useSearchParams();
  const raw = params.get('category_id') ?? '';
  const categoryId = /^\d+$/.test(raw) ? Number(raw) : null;
  const name = useCategoryOptions().data?.find((c) => c.id === categoryId)?.name ?? '';
  return (
    <Dialog>
      <DialogTrigger disableButtonEnhancement>
        <Button icon={<EyeRegular />} disabled={categoryId === null} title={categoryId === null ? t('question.previewHint') : undefined} data-testid="survey-preview">
          {t('question.preview')}
        </Button>
      </DialogTrigger>
      <DialogSurface data-testid="survey-preview-dialog">
        <DialogBody>
          <DialogTitle>{t('question.previewTitle', { name })}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>{categoryId !== null && <Preview categoryId={categoryId} />}</DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement><Button appearance="secondary">{t('question.close')}</Button></DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
