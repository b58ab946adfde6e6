import { Field, Input, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { SUPER_ADMIN_ROLE, type RoleDetail } from '@tongdai/contracts';
import { EntityField, ErrorState, FormShell, LoadingState, parseDraft, useApiError, useCrudQueries, useEntityDraft, useFormSubmit } from '@tongdai/ui';
import { ROLES_NS } from './i18n';
import { PermissionMatrix } from './PermissionMatrix';
import { usePermissions } from './roles.api';
import { roleEntity } from './roles.entity';

const LIST = '/roles';
const fieldOf = (name: string) => roleEntity.fields.find((f) => f.name === name)!;

export default function RoleFormScreen() {
  const { t } = useTranslation(ROLES_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { one: existing, save } = useCrudQueries<RoleDetail>(roleEntity.api, { id });
  const catalogue = usePermissions();
  const loadError = useApiError(existing.error ?? catalogue.error);
  const form = useEntityDraft(roleEntity, existing.data);
  // super-admin holds every permission whatever is stored: show it so, and read-only.
  const locked = existing.data?.name === SUPER_ADMIN_ROLE;
  const all = (catalogue.data ?? []).map((p) => p.name);
  const { submit, formError } = useFormSubmit({
    // The locked role is saved as super-admin with the whole catalogue, whatever the draft says.
    validate: () => {
      if (!locked) return form.validate();
      const r = parseDraft(roleEntity.schema, { ...form.draft, name: SUPER_ADMIN_ROLE, permissions: all });
      if (r.ok) return r.input;
      form.setErrors(r.errors);
      return null;
    },
    setErrors: form.setErrors,
  }, (input) => save.mutateAsync(input), () => t(id === null ? 'created' : 'updated'));

  if ((id !== null && existing.isPending) || catalogue.isPending) return <LoadingState />;
  if (existing.isError || catalogue.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void (existing.isError ? existing.refetch() : catalogue.refetch())} />;

  const field = (name: string) => <EntityField field={fieldOf(name)} ns={ROLES_NS} value={form.draft[name]} errors={form.errors} onChange={form.set(name)} />;
  return (
    <FormShell title={t(id === null ? 'addTitle' : 'editTitle')} testId="role-form" onSubmit={() => void submit().then((ok) => ok && navigate(LIST))} submitting={save.isPending} error={formError} backTo={LIST}>
      {locked && <MessageBar intent="info" style={{ gridColumn: '1 / -1' }} data-testid="super-admin-note"><MessageBarBody>{t('superAdminNote')}</MessageBarBody></MessageBar>}
      {locked ? (
        <Field label={t('fields.name')} required><Input name="name" value={String(form.draft.name)} disabled data-testid="field-name" /></Field>
      ) : field('name')}
      {field('display_name')}
      {field('description')}
      {locked ? <PermissionMatrix catalogue={catalogue.data} value={all} onChange={() => undefined} disabled /> : field('permissions')}
    </FormShell>
  );
}
