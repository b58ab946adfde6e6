import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { AccountCreateSchema, AccountUpdateSchema, BLANK_ACCOUNT, type Account } from '@tongdai/contracts';

export type AccountDraft = typeof BLANK_ACCOUNT;
export type FieldErrors = Partial<Record<keyof AccountDraft, string>>;
const str = (x: number | null) => (x === null ? '' : String(x));

/** Form state validated by the schema the API uses (create asks for the password too). */
export function useAccountForm(existing: Account | undefined) {
  const [draft, setDraft] = useState<AccountDraft>(BLANK_ACCOUNT);
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (!existing) return;
    const { full_name, username, email, phone, status } = existing;
    setDraft({
      ...BLANK_ACCOUNT, full_name, username, email, phone, status,
      role_id: str(existing.role_id), department_id: str(existing.department_id), team_id: str(existing.team_id), branch_id: str(existing.branch_id),
    });
  }, [existing]);

  const set = (field: keyof AccountDraft) => (value: string) => {
    setDraft((d) => ({
      ...d,
      [field]: value,
      // A team belongs to one department: changing the department drops the team.
      ...(field === 'department_id' && value !== d.department_id ? { team_id: '' } : {}),
    }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** Returns the parsed input, or null after showing the field errors. */
  const validate = (creating: boolean) => {
    const r = creating ? v.safeParse(AccountCreateSchema, draft) : v.safeParse(AccountUpdateSchema, draft);
    if (r.success) return r.output;
    const next: FieldErrors = {};
    for (const issue of r.issues) {
      const path = v.getDotPath(issue) as keyof AccountDraft | null;
      if (path && !next[path]) next[path] = issue.message;
    }
    setErrors(next);
    return null;
  };

  return { draft, errors, set, validate, setErrors };
}
