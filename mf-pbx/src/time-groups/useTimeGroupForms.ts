import { useState } from 'react';
import { TimeGroupInputSchema, TimeRangeInputSchema, type TimeRangeInput } from '@tongdai/contracts';
import { toApiError } from '@tongdai/platform';
import type { PbxFieldDef } from '../shared/entity';
import { usePbxDraft } from '../shared/usePbxForm';
import type { RangeDraft } from './timeRange';

/** Form descriptions for the shared draft hook: the group's own fields, and one range's parts ("" = any). */
export const groupForm = {
  schema: TimeGroupInputSchema,
  fields: [{ name: 'name', kind: 'text', required: true }, { name: 'description', kind: 'text' }] as PbxFieldDef[],
};
const RANGE_FIELDS = ['time_start', 'time_end', 'dow_start', 'dow_end', 'dom_start', 'dom_end', 'month_start', 'month_end'] as const;
export const rangeForm = {
  schema: TimeRangeInputSchema,
  fields: RANGE_FIELDS.map((name): PbxFieldDef => ({ name, kind: 'text' })),
};
const isRangeField = (f: string) => (RANGE_FIELDS as readonly string[]).includes(f);

export interface GroupDraft {
  name: string;
  description: string;
}

/**
 * The group's name/description and one range, checked by the contracts schemas. The API names a
 * range's fields "ranges.0.time_start" (create) or "time_start" (range update): both land under
 * the range's own fields. `existing` must be memoised.
 */
export function useTimeGroupForms(existing?: { group: GroupDraft; range: RangeDraft }) {
  const group = usePbxDraft(groupForm, existing?.group as Record<string, unknown> | undefined);
  const range = usePbxDraft(rangeForm, existing?.range as Record<string, unknown> | undefined);
  const [formError, setFormError] = useState<string | null>(null);

  /** Both parsed (every field error shown at once), or null. */
  const validate = (): { group: GroupDraft; range: TimeRangeInput } | null => {
    setFormError(null);
    const g = group.validate();
    const r = range.validate();
    return g && r ? { group: { name: String(g.name), description: String(g.description) }, range: r as TimeRangeInput } : null;
  };

  const apiError = async (e: unknown) => {
    const body = await toApiError(e);
    const groupErrors: Record<string, string> = {};
    const rangeErrors: Record<string, string> = {};
    for (const d of body.details ?? []) {
      const last = d.field.split('.').pop() ?? d.field;
      if (isRangeField(last)) rangeErrors[last] = d.message;
      else groupErrors[d.field] = d.message;
    }
    group.setErrors(groupErrors);
    range.setErrors(rangeErrors);
    setFormError(body.message);
  };

  return { group, range, validate, apiError, formError };
}
