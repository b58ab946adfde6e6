import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '@tongdai/ui';
import { blankDraft, clearErrors, parseDraft, toDraft } from './draft';
import type { AnyPbxEntity, Draft, DraftValue, FieldErrors, PbxEntity } from './entity';
import { usePbxOne, useSavePbx } from './pbx.api';
import { PBX_NS } from './pbx.i18n';

/** Form state of one PBX object, validated by the area's contract schema before anything is sent. */
export function usePbxDraft(entity: Pick<PbxEntity, 'fields' | 'schema'>, existing: Record<string, unknown> | undefined) {
  const [draft, setDraft] = useState<Draft>(() => blankDraft(entity));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    setDraft(existing ? toDraft(entity, existing) : blankDraft(entity));
    setErrors({});
  }, [existing, entity]);

  const set = (name: string) => (value: DraftValue) => {
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

/**
 * Load (when editing), validate, save. The API's field details go under their fields; its message
 * (e.g. the loop "Cấu hình tạo vòng lặp: IVR … → …", an in-use refusal) goes at the top of the form.
 * `submit` resolves true once saved. `key` is null (create), the id, or the entity's `detailKey`.
 */
export function usePbxForm(entity: AnyPbxEntity, key: number | string | null) {
  const { t } = useTranslation(entity.ns);
  const existing = usePbxOne<Record<string, unknown>>(entity.resource, key);
  // Writes go by id; a row read by another key (a number's digits) names its id once loaded.
  const id = key === null ? null : Number(existing.data?.id ?? key);
  const save = useSavePbx<Record<string, unknown>, unknown>(entity.resource, id);
  const form = usePbxDraft(entity, existing.data);
  const { submit, formError } = useFormSubmit(form, (input) => save.mutateAsync(input), () => (id === null ? t('created') : t('updated', { ns: PBX_NS })));
  return { existing, form, submit, formError, saving: save.isPending };
}
