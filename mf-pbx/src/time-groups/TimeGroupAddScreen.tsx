import { Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PBX_RESOURCES, paths, type TimeGroup } from '@tongdai/contracts';
import { errorOf, FormShell, TextField, useCrudQueries, useFormSubmit } from '@tongdai/ui';
import { pbxResource } from '../shared/entity';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { useTimeGroupForms } from './useTimeGroupForms';

/** /time-groups/add: a group and its first range in one request. */
export default function TimeGroupAddScreen() {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const navigate = useNavigate();
  const { save } = useCrudQueries<TimeGroup>(pbxResource(PBX_RESOURCES.timeGroup));
  const forms = useTimeGroupForms();
  const { group, range } = forms;
  const { submit, formError } = useFormSubmit(forms, (parsed) => save.mutateAsync({ ...parsed.group, ranges: [parsed.range] }), () => t('created'));

  return (
    <FormShell title={t('addTitle')} testId="time-group-form" onSubmit={() => void submit().then((ok) => ok && navigate(paths.timeGroup.list))} submitting={save.isPending} error={formError} backTo={paths.timeGroup.list}>
      <TextField name="name" label={t('fields.name')} required value={String(group.draft.name)} onChange={group.set('name')} error={errorOf(group.errors, 'name')} />
      <TextField name="description" label={t('fields.description')} value={String(group.draft.description)} onChange={group.set('description')} error={errorOf(group.errors, 'description')} />
      <Subtitle2 style={{ gridColumn: '1 / -1' }}>{t('firstRange')}</Subtitle2>
      <RangeFields form={range} />
    </FormShell>
  );
}
