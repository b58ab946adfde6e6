import { useMemo } from 'react';
import { Link as FluentLink, Subtitle2, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PBX_RESOURCES, paths, type TimeGroup } from '@tongdai/contracts';
import { EntityFields, ErrorState, FormShell, LoadingState, useApiError, useCrudQueries, useFormSubmit } from '@tongdai/ui';
import { pbxResource } from '../shared/entity';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { useSaveRange } from './time-groups.api';
import { describeRange, rangeToDraft } from './timeRange';
import { groupForm, useTimeGroupForms } from './useTimeGroupForms';

const useStyles = makeStyles({ wide: { gridColumn: '1 / -1', display: 'flex', flexDirection: 'column', gap: '4px' } });
const timeGroups = pbxResource(PBX_RESOURCES.timeGroup);

/** /time-groups/edit/:id/:detailId: one range of a group, with the group's name, description and holiday mode. */
export default function TimeRangeEditScreen() {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const params = useParams();
  const id = Number(params.id);
  const detailId = Number(params.detailId);
  const group = useCrudQueries<TimeGroup>(timeGroups, { id }).one;
  const loadError = useApiError(group.error);
  const range = group.data?.ranges.find((r) => r.id === detailId);

  if (group.isPending) return <LoadingState />;
  if (group.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void group.refetch()} />;
  if (!range) return <ErrorState message={t('rangeNotFound')} />;
  return <RangeEditForm key={`${id}/${detailId}`} group={group.data} detailId={detailId} />;
}

function RangeEditForm({ group, detailId }: { group: TimeGroup; detailId: number }) {
  const s = useStyles();
  const { t } = useTranslation(TIME_GROUPS_NS);
  const navigate = useNavigate();
  const existing = useMemo(() => {
    const r = group.ranges.find((x) => x.id === detailId);
    return r && { group: { name: group.name, description: group.description, holiday_mode: group.holiday_mode ?? 'none' }, range: rangeToDraft(r) };
  }, [group, detailId]);
  const forms = useTimeGroupForms(existing);
  const saveGroup = useCrudQueries<TimeGroup>(timeGroups, { id: group.id }).save;
  const saveRange = useSaveRange(group.id, detailId);
  const others = group.ranges.filter((r) => r.id !== detailId);

  const { submit, formError } = useFormSubmit(forms, async (parsed) => {
    await saveRange.mutateAsync(parsed.range);
    const g = parsed.group;
    if (g.name !== group.name || g.description !== group.description || g.holiday_mode !== group.holiday_mode) await saveGroup.mutateAsync(g);
  }, () => t('updated'));

  return (
    <FormShell title={t('editTitle')} testId="time-range-form" onSubmit={() => void submit().then((ok) => ok && navigate(paths.timeGroup.list))} submitting={saveGroup.isPending || saveRange.isPending}
      error={formError} backTo={paths.timeGroup.list}>
      <EntityFields entity={{ ns: TIME_GROUPS_NS, fields: groupForm.fields }} form={forms.group} />
      <Subtitle2 style={{ gridColumn: '1 / -1' }}>{t('thisRange')}</Subtitle2>
      <RangeFields form={forms.range} />
      {others.length > 0 && (
        <div className={s.wide} data-testid="other-ranges">
          <Subtitle2>{t('otherRanges')}</Subtitle2>
          {others.map((r) => (
            <Link key={r.id} to={paths.timeGroup.edit(group.id, r.id)}><FluentLink as="span">{describeRange(r)}</FluentLink></Link>
          ))}
        </div>
      )}
    </FormShell>
  );
}
