import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { BLANK_CUSTOMER, CustomerInputSchema, type Customer, type CustomerInput } from '@tongdai/contracts';

/** Labels (project, data source, profile status) are select values: "" = none. */
const BLANK_LABELS = { is_project: '', is_datasource: '', is_status: '' };
export type CustomerDraft = Omit<typeof BLANK_CUSTOMER, 'user_id'> & { user_id: number | null } & typeof BLANK_LABELS;
export type FieldErrors = Partial<Record<keyof CustomerDraft, string>>;

/**
 * Form state validated by the same valibot schema the API uses. `prefill` starts a new customer
 * with known values (the softphone's "Khách hàng mới" passes the caller's number).
 */
export function useCustomerForm(existing: Customer | undefined, prefill: Partial<Pick<CustomerDraft, 'phone'>> = {}) {
  const [draft, setDraft] = useState<CustomerDraft>(() => ({ ...BLANK_CUSTOMER, ...BLANK_LABELS, ...prefill }));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (existing) {
      const { name, code, email, phone, address, zalo, facebook, status, note, user_id } = existing;
      const label = (x: number | null) => (x === null ? '' : String(x));
      setDraft({ name, code, email, phone, address, zalo, facebook, status, note, user_id,
        is_project: label(existing.is_project), is_datasource: label(existing.is_datasource), is_status: label(existing.is_status) });
    }
  }, [existing]);

  const set = (field: keyof CustomerDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** Returns the parsed input, or null after showing the field errors. */
  const validate = (): CustomerInput | null => {
    const r = v.safeParse(CustomerInputSchema, draft);
    if (r.success) return r.output;
    const next: FieldErrors = {};
    for (const issue of r.issues) {
      const path = v.getDotPath(issue) as keyof CustomerDraft | null;
      if (path && !next[path]) next[path] = issue.message;
    }
    setErrors(next);
    return null;
  };

  return { draft, errors, set, validate, setErrors };
}
