import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { SubscriberInputSchema, type Subscriber, type SubscriberInput } from '@tongdai/contracts';

/** Select values are strings: "" = no linked account. */
export interface SubscriberDraft {
  extension: string;
  display_name: string;
  user_id: string;
}
export type FieldErrors = Partial<Record<keyof SubscriberDraft, string>>;
export const BLANK_DRAFT: SubscriberDraft = { extension: '', display_name: '', user_id: '' };

/** Form state validated by the same valibot schema the API uses. */
export function useSubscriberForm(existing: Subscriber | undefined) {
  const [draft, setDraft] = useState<SubscriberDraft>(BLANK_DRAFT);
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (existing) {
      setDraft({ extension: existing.extension, display_name: existing.display_name, user_id: existing.user_id === null ? '' : String(existing.user_id) });
    }
  }, [existing]);

  const set = (field: keyof SubscriberDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** Returns the parsed input, or null after showing the field errors. */
  const validate = (): SubscriberInput | null => {
    const r = v.safeParse(SubscriberInputSchema, draft);
    if (r.success) return r.output;
    const next: FieldErrors = {};
    for (const issue of r.issues) {
      const path = v.getDotPath(issue) as keyof SubscriberDraft | null;
      if (path && !next[path]) next[path] = issue.message;
    }
    setErrors(next);
    return null;
  };

  return { draft, errors, set, validate, setErrors };
}
