import * as v from 'valibot';
import { MSG } from './messages';
import { isIncomplete } from './util';

/**
 * SPEC §5's rule as a schema action: an object is incomplete if any of its values is empty or
 * undefined. Each empty field gets "Thông tin không được để trống", so a form shows it in place.
 */
export function completeObject<T extends Record<string, unknown>>() {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed || !isIncomplete(dataset.value)) return;
    for (const [key, value] of Object.entries(dataset.value)) {
      if (isIncomplete({ [key]: value })) addIssue({ message: MSG.required, path: [{ type: 'object', origin: 'value', input: dataset.value, key, value }] });
    }
  });
}

const cell = v.optional(v.pipe(v.string(MSG.required), v.trim(), v.maxLength(255, 'Tối đa 255 ký tự')), '');

/** SPEC §3 sheet import (survey, campaign): name, sheet_id, sheet_name, user_id, all required (§5). */
export const SheetImportSchema = v.pipe(
  v.object({
    name: cell,
    sheet_id: cell,
    sheet_name: cell,
    user_id: v.optional(v.union([v.pipe(v.number(MSG.required), v.integer(MSG.required)), v.pipe(v.string(MSG.required), v.trim())], MSG.required)),
  }),
  completeObject(),
);
export type SheetImportInput = v.InferOutput<typeof SheetImportSchema>;
