import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimeGroup, TimeRangeInput } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { usePbxDraft } from '../shared/usePbxForm';
import { FormDialog } from '../area-kit/FormDialog';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { useAddRange } from './time-groups.api';
import { rangeForm } from './useTimeGroupForms';

/** Adds one range to a group, from the list. */
export function AddRangeDialog({ group, onClose }: { group: TimeGroup; onClose: () => void }) {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const form = usePbxDraft(rangeForm, undefined);
  const add = useAddRange(group.id);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    const input = form.validate();
    if (!input) return;
    try {
      await add.mutateAsync(input as TimeRangeInput);
      notify('success', t('rangeAdded'));
      onClose();
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field.split('.').pop() ?? d.field, d.message])));
      setError(body.message);
    }
  };
  return (
    <FormDialog title={t('addRangeTitle', { name: group.name })} testId="add-range-form" error={error} saving={add.isPending} onSubmit={() => void submit()} onClose={onClose}>
      <RangeFields form={form} />
    </FormDialog>
  );
}
