import { useEffect, useState } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ACCOUNT_STATUSES, canAssignRole, roleLabel, userLimitMessage } from '@tongdai/contracts';
import { notify, session, toApiError } from '@tongdai/platform';
import { ErrorState, FormShell, LoadingState, SelectField, TextField, useApiError } from '@tongdai/ui';
import { useAllRoles } from '../roles/roles.api';
import { fetchSeats, useAccount, useBranches, useDepartments, useSaveAccount, useTeams } from './accounts.api';
import { ACCOUNTS_NS } from './i18n';
import { useAccountForm, type AccountDraft, type FieldErrors } from './useAccountForm';

const LIST = '/accounts';
const opts = (rows: { id: number; name: string }[]) => rows.map((r) => ({ value: String(r.id), label: r.name }));

export default function AccountFormScreen() {
  const { t } = useTranslation(ACCOUNTS_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const existing = useAccount(id);
  const loadError = useApiError(existing.error);
  const roles = useAllRoles();
  const departments = useDepartments();
  const teams = useTeams();
  const branches = useBranches();
  const save = useSaveAccount(id);
  const form = useAccountForm(existing.data);
  const [formError, setFormError] = useState<string | null>(null);

  // SPEC §7: the control panel says whether a seat is left before the user types anything.
  useEffect(() => {
    if (id !== null) return;
    fetchSeats()
      .then((s) => s.current_user >= s.max_user && setFormError(userLimitMessage(s.current_user, s.max_user)))
      .catch(() => undefined);
  }, [id]);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const submit = async () => {
    setFormError(null);
    const input = form.validate(id === null);
    if (!input) return;
    try {
      if (id === null) {
        const seats = await fetchSeats().catch(() => null);
        if (seats && seats.current_user >= seats.max_user) return setFormError(userLimitMessage(seats.current_user, seats.max_user));
      }
      await save.mutateAsync(input);
      notify('success', t(id === null ? 'created' : 'updated'));
      navigate(LIST);
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])) as FieldErrors);
      setFormError(body.message);
    }
  };

  const text = (name: keyof AccountDraft, extra: { required?: boolean; type?: 'email' | 'tel' } = {}) => (
    <TextField name={name} label={t(`fields.${name}`)} value={form.draft[name]} onChange={form.set(name)} error={form.errors[name]} {...extra} />
  );
  const password = (name: 'password' | 'password_confirmation') => (
    <Field label={t(`fields.${name}`)} required validationMessage={form.errors[name]} validationState={form.errors[name] ? 'error' : 'none'}>
      <Input type="password" autoComplete="new-password" name={name} value={form.draft[name]} onChange={(_, d) => form.set(name)(d.value)} data-testid={`field-${name}`} />
    </Field>
  );
  // Only roles the API lets this user assign (ADR 0018); the account's own role stays shown.
  const roleOptions = (roles.data ?? []).filter((r) => canAssignRole(session.get().user, r) || r.id === existing.data?.role_id);
  const deptTeams = teams.filter((tm) => form.draft.department_id !== '' && String(tm.department_id) === form.draft.department_id);
  const select = (name: keyof AccountDraft, options: { value: string; label: string }[], placeholder: string, required = false) => (
    <SelectField name={name} label={t(`fields.${name}`)} required={required} value={form.draft[name]} onChange={form.set(name)} error={form.errors[name]} options={options} placeholder={placeholder} />
  );

  return (
    <FormShell title={t(id === null ? 'addTitle' : 'editTitle')} testId="account-form" onSubmit={() => void submit()} submitting={save.isPending} error={formError} backTo={LIST}>
      {text('full_name', { required: true })}
      {text('username', { required: true })}
      {id === null && password('password')}
      {id === null && password('password_confirmation')}
      {select('role_id', roleOptions.map((r) => ({ value: String(r.id), label: roleLabel(r) })), t('chooseRole'), true)}
      {select('status', ACCOUNT_STATUSES.map((s) => ({ ...s })), t('chooseStatus'), true)}
      {text('email', { type: 'email' })}
      {text('phone', { type: 'tel' })}
      {id !== null && (
        // The extension is the subscriber linked to the account, set on the subscriber's form.
        <Field label={t('fields.extension_code')} hint={t('extensionHint')}>
          <Input value={existing.data?.extension_code || '—'} readOnly data-testid="field-extension_code" />
        </Field>
      )}
      {select('department_id', opts(departments), t('chooseDepartment'))}
      {select('team_id', opts(deptTeams), t('chooseTeam'))}
      {select('branch_id', opts(branches), t('chooseBranch'))}
    </FormShell>
  );
}
