import { Caption1, Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PBX_RESOURCES, paths, type TimeGroup } from '@tongdai/contracts';
import { EntityFields, FormShell, useCrudQueries, useFormSubmit } from '@tongdai/ui';
import { pbxResource } from '../shared/entity';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { isBlankRange } from './timeRange';
import { groupForm, useTimeGroupForms } from './useTimeGroupForms';

/** /time-groups/add: a group, how it treats public holidays, and its first range, in one request. */
export default function TimeGroupAddScreen() {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const navigate = useNavigate();
  const { save } = useCrudQueries<TimeGroup>(pbxResource(PBX_RESOURCES.timeGroup));
  const forms = useTimeGroupForms();
  const { group, range } = forms;
  // "Gồm cả ngày lễ" with every part of the range left empty: a holidays-only group (an empty range would hold always).
  const holidaysOnly = (p: NonNullable<ReturnType<typeof forms.validate>>) => p.group.holiday_mode === 'include' && isBlankRange(p.range);
  const { submit, formError } = useFormSubmit(forms, (parsed) => save.mutateAsync({ ...parsed.group, ranges: holidaysOnly(parsed) ? [] : [parsed.range] }), () => t('created'));

  return (
    <FormShell title={t('addTitle')} testId="time-group-form" onSubmit={() => void submit().then((ok) => ok && navigate(paths.timeGroup.list))} submitting={save.isPending} error={formError} backTo={paths.timeGroup.list}>
      <EntityFields entity={{ ns: TIME_GROUPS_NS, fields: groupForm.fields }} form={group} />
      <Subtitle2 style={{ gridColumn: '1 / -1' }}>{t('firstRange')}</Subtitle2>
      {group.draft.holiday_mode === 'include' && <Caption1 style={{ gridColumn: '1 / -1' }} data-testid="holidays-only-hint">{t('holidaysOnlyHint')}</Caption1>}
      <RangeFields form={range} />
    </FormShell>
  );
}
