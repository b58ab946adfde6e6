import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_NS } from '../i18n';
import { useFormSubmit } from '../useFormSubmit';
import { blankDraft, clearErrors, parseDraft, toDraft } from './draft';
import { entityKey, type AnyEntity, type AnySchema, type Draft, type FieldDef, type FieldErrors } from './types';
import { useCrudQueries } from './useCrudQueries';

/** The fields a draft holds and the schema that turns it into the API input. */
export interface DraftForm {
  fields: readonly FieldDef[];
  schema: AnySchema;
}

/**
 * The one draft hook: form state of one object over the entity's valibot schema, validated by it
 * before anything is sent. Also serves custom screens (pass their own fields and schema, kept
 * stable: a module constant or a memo). `prefill` starts a new object with known values (the
 * softphone's caller number); it is read when the form (re)starts.
 */
export function useEntityDraft(entity: DraftForm, existing: object | null | undefined, prefill?: Draft) {
  const start = useRef(prefill);
  start.current = prefill;
  const [draft, setDraft] = useState<Draft>(() => ({ ...blankDraft(entity), ...prefill }));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    setDraft(existing ? toDraft(entity, existing as Record<string, unknown>) : { ...blankDraft(entity), ...start.current });
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

  /** Back to the blank form (after a one-off submit such as a password change). */
  const clear = () => {
    setDraft({ ...blankDraft(entity), ...start.current });
    setErrors({});
  };

  return { draft, errors, set, validate, setErrors, clear, editing: !!existing };
}

export type EntityDraft = ReturnType<typeof useEntityDraft>;

export interface EntityFormOptions {
  /** Values of a new object (see useEntityDraft). */
  prefill?: Draft;
  /** The draft's fields and schema when they are not the entity's (create also asks for a password). */
  form?: DraftForm;
  /** Runs with the input before it is sent; throw a FormRefusal to stop with a message. */
  check?: (input: Record<string, unknown>) => Promise<void>;
  /** Receives what the API answered for the saved object (a generated password…). */
  onSaved?: (saved: unknown) => void;
}

/**
 * Load (when editing), validate, save. The API's field details go under their fields; its message
 * (e.g. a loop "Cấu hình tạo vòng lặp: IVR … → …", an in-use refusal) goes at the top of the form.
 * `submit` resolves true once saved.
 */
export function useEntityForm(entity: AnyEntity, id: number | string | null, opts: EntityFormOptions = {}) {
  const { t } = useTranslation([entity.ns, UI_NS]);
  const { one: existing, save } = useCrudQueries<Record<string, unknown>>(entity.api, { id });
  const form = useEntityDraft(opts.form ?? entity, existing.data, opts.prefill);
  const { submit, formError, reset } = useFormSubmit(form, async (input) => {
    await opts.check?.(input);
    const saved = await save.mutateAsync(input);
    opts.onSaved?.(saved);
  }, () => (id === null ? t(entityKey(entity, 'created')) : t([entityKey(entity, 'updated'), `${UI_NS}:updated`])));
  return { existing, form, submit, formError, reset, saving: save.isPending };
}
