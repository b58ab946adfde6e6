import { useTranslation } from 'react-i18next';
import type { TimeGroup, TimeRangeInput } from '@tongdai/contracts';
import { FormDialog, useEntityDraft, useFormSubmit } from '@tongdai/ui';
import { TIME_GROUPS_NS } from './i18n';
import { RangeFields } from './RangeFields';
import { useAddRange } from './time-groups.api';
import { rangeForm } from './useTimeGroupForms';

/** Adds one range to a group, from the list. */
export function AddRangeDialog({ group, onClose }: { group: TimeGroup; onClose: () => void }) {
  const { t } = useTranslation(TIME_GROUPS_NS);
  const form = useEntityDraft(rangeForm, undefined);
  const add = useAddRange(group.id);
  // The API names a range's fields "ranges.0.time_start": they land under the range's own fields.
  const { submit, formError: error } = useFormSubmit(
    { validate: form.validate, setErrors: (e) => form.setErrors(Object.fromEntries(Object.entries(e).map(([k, m]) => [k.split('.').pop() ?? k, m]))) },
    (input) => add.mutateAsync(input as TimeRangeInput), () => t('rangeAdded'));
  return (
    <FormDialog title={t('addRangeTitle', { name: group.name })} testId="add-range-form" error={error} saving={add.isPending} onSubmit={() => void submit().then((ok) => ok && onClose())} onClose={onClose}>
      <RangeFields form={form} />
    </FormDialog>
  );
}
