import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { toApiError } from '@tongdai/platform';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = v.GenericSchema<any, any>;
type Errors<D> = Partial<Record<keyof D, string>>;

/**
 * Form state validated by the contracts schema the API uses; the API's per-field messages land
 * under the same fields, anything else becomes the form-level error.
 */
export function useSchemaForm<S extends AnySchema, D extends Record<string, string>>(schema: S, blank: D, loaded?: Partial<D> | null) {
  const [draft, setDraft] = useState<D>(blank);
  const [errors, setErrors] = useState<Errors<D>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (loaded) setDraft((d) => ({ ...d, ...loaded }));
  }, [loaded]);

  const set = (field: keyof D) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const collect = (list: { field: string | null; message: string }[]) => {
    const next: Errors<D> = {};
    for (const { field, message } of list) if (field && !next[field as keyof D]) next[field as keyof D] = message;
    setErrors(next);
  };

  /** The parsed input, or null after showing the field errors. */
  const validate = (): v.InferOutput<S> | null => {
    setFormError(null);
    const r = v.safeParse(schema, draft);
    if (r.success) return r.output;
    collect(r.issues.map((i) => ({ field: v.getDotPath(i), message: i.message })));
    return null;
  };

  const showApiError = async (err: unknown) => {
    const body = await toApiError(err);
    if (body.details?.length) collect(body.details);
    else setFormError(body.message);
  };

  return { draft, setDraft, errors, formError, set, validate, showApiError };
}
