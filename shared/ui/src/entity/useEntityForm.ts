import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_NS } from '../i18n';
import { useFormSubmit } from '../useFormSubmit';
import { blankDraft, clearErrors, parseDraft, toDraft } from './draft';
import { entityKey, type AnyEntity, type AnySchema, type Draft, type FieldDef, type FieldErrors } from './types';
import { useCrudQueries } from './useCrudQueries';

/**
 * The one draft hook: form state of one object over the entity's valibot schema, validated by it
 * before anything is sent. Also serves custom screens (pass their own fields and schema).
 */
export function useEntityDraft(entity: { fields: readonly FieldDef[]; schema: AnySchema }, existing: Record<string, unknown> | undefined) {
  const [draft, setDraft] = useState<Draft>(() => blankDraft(entity));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    setDraft(existing ? toDraft(entity, existing) : blankDraft(entity));
    setErrors({});
  }, [existing, entity]);

  const set = (name: string) => (value: unknown) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setErrors((e) => clearErrors(e, name));
  };

  /** The API input, or null after showing the field errors. */
  const validate = (): Record<string, unknown> | null => {
    const r = parseDraft(entity.schema, draft);
    if (r.ok) return r.input;
    setErrors(r.errors);
    return null;
  };

  return { draft, errors, set, validate, setErrors };
}

export type EntityDraft = ReturnType<typeof useEntityDraft>;

/**
 * Load (when editing), validate, save. The API's field details go under their fields; its message
 * (e.g. a loop "Cấu hình tạo vòng lặp: IVR … → …", an in-use refusal) goes at the top of the form.
 * `submit` resolves true once saved.
 */
export function useEntityForm(entity: AnyEntity, id: number | string | null) {
  const { t } = useTranslation([entity.ns, UI_NS]);
  const { one: existing, save } = useCrudQueries<Record<string, unknown>>(entity.api, { id });
  const form = useEntityDraft(entity, existing.data);
  const { submit, formError, reset } = useFormSubmit(form, (input) => save.mutateAsync(input),
    () => (id === null ? t(entityKey(entity, 'created')) : t([entityKey(entity, 'updated'), `${UI_NS}:updated`])));
  return { existing, form, submit, formError, reset, saving: save.isPending };
}
