import { useEffect, useState } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ACCOUNT_STATUSES, canAssignRole, roleLabel, userLimitMessage, type Account } from '@tongdai/contracts';
import { session } from '@tongdai/platform';
import { EntityField, ErrorState, FormRefusal, FormShell, LoadingState, SelectField, useApiError, useEntityForm } from '@tongdai/ui';
import { useAllRoles } from '../roles/roles.api';
import { accountCreateForm, accountEntity } from './accounts.entity';
import { fetchSeats, useBranches, useDepartments, useTeams } from './accounts.api';
import { ACCOUNTS_NS } from './i18n';

const LIST = '/accounts';
const opts = (rows: { id: number; name: string }[]) => rows.map((r) => ({ value: String(r.id), label: r.name }));
const seatsFull = (s: { current_user: number; max_user: number } | null) => (s && s.current_user >= s.max_user ? userLimitMessage(s.current_user, s.max_user) : null);

/** Asked again right before a create is sent: another admin may have taken the last seat. */
async function checkSeats() {
  const full = seatsFull(await fetchSeats().catch(() => null));
  if (full) throw new FormRefusal(full);
}

export default function AccountFormScreen() {
  const { t } = useTranslation(ACCOUNTS_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { existing, form, submit, formError, saving } = useEntityForm(accountEntity as never, id, {
    form: id === null ? accountCreateForm : accountEntity, prefill: { status: 'active' }, check: id === null ? checkSeats : undefined,
  });
  const loadError = useApiError(existing.error);
  const roles = useAllRoles();
  const departments = useDepartments();
  const teams = useTeams();
  const branches = useBranches();
  const [seatNote, setSeatNote] = useState<string | null>(null);

  // SPEC §7: the control panel says whether a seat is left before the user types anything.
  useEffect(() => {
    if (id !== null) return;
    fetchSeats().then((s) => setSeatNote(seatsFull(s))).catch(() => undefined);
  }, [id]);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const draft = form.draft as Record<string, string>;
  const set = (name: string) => (value: string) => {
    form.set(name)(value);
    // A team belongs to one department: changing the department drops the team.
    if (name === 'department_id' && value !== draft.department_id) form.set('team_id')('');
  };
  const fieldOf = (name: string) => [...accountCreateForm.fields].find((f) => f.name === name)!;
  const field = (name: string) => <EntityField field={fieldOf(name)} ns={ACCOUNTS_NS} value={draft[name]} errors={form.errors} onChange={(x) => set(name)(String(x))} />;
  // Only roles the API lets this user assign (ADR 0018); the account's own role stays shown.
  const roleOptions = (roles.data ?? []).filter((r) => canAssignRole(session.get().user, r) || r.id === existing.data?.role_id);
  const deptTeams = teams.filter((tm) => draft.department_id !== '' && String(tm.department_id) === draft.department_id);
  const select = (name: string, options: { value: string; label: string }[], placeholder: string, required = false) => (
    <SelectField name={name} label={t(`fields.${name}`)} required={required} value={draft[name]} onChange={set(name)} error={form.errors[name]} options={options} placeholder={placeholder} />
  );
  const save = async () => {
    setSeatNote(null);
    if (await submit()) navigate(LIST);
  };

  return (
    <FormShell title={t(id === null ? 'addTitle' : 'editTitle')} testId="account-form" onSubmit={() => void save()} submitting={saving} error={formError ?? seatNote} backTo={LIST}>
      {field('full_name')}
      {field('username')}
      {id === null && field('password')}
      {id === null && field('password_confirmation')}
      {select('role_id', roleOptions.map((r) => ({ value: String(r.id), label: roleLabel(r) })), t('chooseRole'), true)}
      {select('status', ACCOUNT_STATUSES.map((s) => ({ ...s })), t('chooseStatus'), true)}
      {field('email')}
      {field('phone')}
      {id !== null && (
        // The extension is the subscriber linked to the account, set on the subscriber's form.
        <Field label={t('fields.extension_code')} hint={t('extensionHint')}>
          <Input value={(existing.data as Account | undefined)?.extension_code || '—'} readOnly data-testid="field-extension_code" />
        </Field>
      )}
      {select('department_id', opts(departments), t('chooseDepartment'))}
      {select('team_id', opts(deptTeams), t('chooseTeam'))}
      {select('branch_id', opts(branches), t('chooseBranch'))}
    </FormShell>
  );
}
