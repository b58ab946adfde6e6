import { Button, Tooltip } from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import type { SurveyQuestion } from '@tongdai/contracts';
import { EntityListScreen } from '@tongdai/ui';
import { NS } from '../i18n';
import { useMoveQuestion } from './survey.api';
import { SurveyPreviewButton } from './SurveyPreviewDialog';
import { category, question } from './surveys.entities';

/** /survey/categories: the kit's list, add and edit in a dialog. */
export const Categories = { List: () => <EntityListScreen entity={category} /> };

/** Up and down within the category (the order the agent asks in), for holders of survey.edit. */
function MoveButtons({ row }: { row: SurveyQuestion }) {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const move = useMoveQuestion();
  if (!can(question.permission.edit!)) return null;
  const go = (direction: 'up' | 'down') => move.mutateAsync({ id: row.id, direction }).catch(async (e: unknown) => notify('error', (await toApiError(e)).message));
  return (
    <>
      <Tooltip content={t('question.moveUp', { text: row.text })} relationship="label">
        <Button size="small" icon={<ArrowUpRegular />} disabled={row.position === 1 || move.isPending} onClick={() => void go('up')} data-testid="move-up" />
      </Tooltip>
      <Tooltip content={t('question.moveDown', { text: row.text })} relationship="label">
        <Button size="small" icon={<ArrowDownRegular />} disabled={move.isPending} onClick={() => void go('down')} data-testid="move-down" />
      </Tooltip>
    </>
  );
}

/** /survey/question: the questions by category and order, with the category's preview. */
export const Questions = {
  List: () => <EntityListScreen entity={question} toolbar={<SurveyPreviewButton />} rowActions={(r) => <MoveButtons row={r} />} rowActionsWidth="224px" />,
};
