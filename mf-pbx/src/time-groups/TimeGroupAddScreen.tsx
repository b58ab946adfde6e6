import { Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PBX_RESOURCES, type TimeGroup, type TimeGroupInput } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { FormShell, TextField } from '@tongdai/ui';
import { useSavePbx } from '../shared/pbx.api';
import { errorOf } from '../shared/draft';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { timeGroupPaths } from './time-groups.routes';
import { useTimeGroupForms } from './useTimeGroupForms';

/** /time-groups/add: a group and its first range in one request. */
export default function TimeGroupAddScreen() {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const navigate = useNavigate();
  const save = useSavePbx<TimeGroupInput, TimeGroup>(PBX_RESOURCES.timeGroup, null);
  const { group, range, validate, apiError, formError } = useTimeGroupForms();

  const submit = async () => {
    const parsed = validate();
    if (!parsed) return;
    try {
      await save.mutateAsync({ ...parsed.group, ranges: [parsed.range] });
      notify('success', t('created'));
      navigate(timeGroupPaths.list());
    } catch (e) {
      await apiError(e);
    }
  };

  return (
    <FormShell title={t('addTitle')} testId="time-group-form" onSubmit={() => void submit()} submitting={save.isPending} error={formError} backTo={timeGroupPaths.list()}>
      <TextField name="name" label={t('fields.name')} required value={String(group.draft.name)} onChange={group.set('name')} error={errorOf(group.errors, 'name')} />
      <TextField name="description" label={t('fields.description')} value={String(group.draft.description)} onChange={group.set('description')} error={errorOf(group.errors, 'description')} />
      <Subtitle2 style={{ gridColumn: '1 / -1' }}>{t('firstRange')}</Subtitle2>
      <RangeFields form={range} />
    </FormShell>
  );
}
