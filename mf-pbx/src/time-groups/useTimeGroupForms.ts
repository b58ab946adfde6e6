import { HOLIDAY_MODE_LABELS, TIME_RANGE_FIELDS, TimeGroupInputSchema, TimeRangeInputSchema, type HolidayMode, type TimeRangeInput } from '@tongdai/contracts';
import { useEntityDraft, type FieldDef } from '@tongdai/ui';
import type { RangeDraft } from './timeRange';

/** Form descriptions for the shared draft hook: the group's own fields, and one range's parts ("" = any). */
export const groupForm = {
  schema: TimeGroupInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'description', kind: 'text' },
    { name: 'holiday_mode', kind: 'choice', options: HOLIDAY_MODE_LABELS, hint: true },
  ] as FieldDef[],
};
export const rangeForm = {
  schema: TimeRangeInputSchema,
  fields: TIME_RANGE_FIELDS.map((name): FieldDef => ({ name, kind: 'text' })),
};
const isRangeField = (f: string) => (TIME_RANGE_FIELDS as readonly string[]).includes(f);

export interface GroupDraft {
  name: string;
  description: string;
  holiday_mode: HolidayMode;
}

/**
 * The group's name/description and one range, checked by the contracts schemas. The API names a
 * range's fields "ranges.0.time_start" (create) or "time_start" (range update): both land under
 * the range's own fields. `existing` must be memoised.
 */
export function useTimeGroupForms(existing?: { group: GroupDraft; range: RangeDraft }) {
  const group = useEntityDraft(groupForm, existing?.group as Record<string, unknown> | undefined);
  const range = useEntityDraft(rangeForm, existing?.range as Record<string, unknown> | undefined);
  /** Both parsed (every field error shown at once), or null. */
  const validate = (): { group: GroupDraft; range: TimeRangeInput } | null => {
    const g = group.validate();
    const r = range.validate();
    return g && r ? { group: { name: String(g.name), description: String(g.description), holiday_mode: g.holiday_mode as HolidayMode }, range: r as TimeRangeInput } : null;
  };

  /** The API's field errors (useFormSubmit), each under the group's or the range's field. */
  const setErrors = (errors: Record<string, string>) => {
    const groupErrors: Record<string, string> = {};
    const rangeErrors: Record<string, string> = {};
    for (const [field, message] of Object.entries(errors)) {
      const last = field.split('.').pop() ?? field;
      if (isRangeField(last)) rangeErrors[last] = message;
      else groupErrors[field] = message;
    }
    group.setErrors(groupErrors);
    range.setErrors(rangeErrors);
  };

  return { group, range, validate, setErrors };
}
