import { useEffect, useState } from 'react';
import { Field, Input, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import * as v from 'valibot';
import { RoleInputSchema, SUPER_ADMIN_ROLE } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ErrorState, FormShell, LoadingState, TextField, useApiError } from '@tongdai/ui';
import { ROLES_NS } from './i18n';
import { PermissionMatrix } from './PermissionMatrix';
import { usePermissions, useRole, useSaveRole } from './roles.api';

type Errors = Partial<Record<'name' | 'display_name' | 'description' | 'permissions', string>>;
const LIST = '/roles';

export default function RoleFormScreen() {
  const { t } = useTranslation(ROLES_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const existing = useRole(id);
  const catalogue = usePermissions();
  const loadError = useApiError(existing.error ?? catalogue.error);
  const save = useSaveRole(id);
  const [draft, setDraft] = useState({ name: '', display_name: '', description: '', permissions: [] as string[] });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (existing.data) setDraft({ name: existing.data.name, display_name: existing.data.display_name ?? '', description: existing.data.description, permissions: existing.data.permissions.map((p) => p.name) });
  }, [existing.data]);

  if ((id !== null && existing.isPending) || catalogue.isPending) return <LoadingState />;
  if (existing.isError || catalogue.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void (existing.isError ? existing.refetch() : catalogue.refetch())} />;

  // super-admin holds every permission whatever is stored: show it so, and read-only.
  const locked = existing.data?.name === SUPER_ADMIN_ROLE;
  const set = (field: 'name' | 'display_name' | 'description') => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async () => {
    setFormError(null);
    const input = locked ? { ...draft, name: SUPER_ADMIN_ROLE, permissions: catalogue.data.map((p) => p.name) } : draft;
    const parsed = v.safeParse(RoleInputSchema, input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.issues) {
        const field = (v.getDotPath(issue) ?? '').split('.')[0] as keyof Errors;
        next[field] ??= issue.message;
      }
      return setErrors(next);
    }
    try {
      await save.mutateAsync(parsed.output);
      notify('success', t(id === null ? 'created' : 'updated'));
      navigate(LIST);
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) setErrors(Object.fromEntries(body.details.map((d) => [d.field.split('.')[0], d.message])));
      setFormError(body.message);
    }
  };

  return (
    <FormShell title={t(id === null ? 'addTitle' : 'editTitle')} testId="role-form" onSubmit={() => void submit()} submitting={save.isPending} error={formError} backTo={LIST}>
      {locked && <MessageBar intent="info" style={{ gridColumn: '1 / -1' }} data-testid="super-admin-note"><MessageBarBody>{t('superAdminNote')}</MessageBarBody></MessageBar>}
      {locked ? (
        <Field label={t('fields.name')} required><Input name="name" value={draft.name} disabled data-testid="field-name" /></Field>
      ) : (
        <TextField name="name" label={t('fields.name')} value={draft.name} onChange={set('name')} error={errors.name} required />
      )}
      <TextField name="display_name" label={t('fields.display_name')} value={draft.display_name} onChange={set('display_name')} error={errors.display_name} />
      <TextField name="description" label={t('fields.description')} value={draft.description} onChange={set('description')} error={errors.description} />
      <PermissionMatrix
        catalogue={catalogue.data}
        value={locked ? catalogue.data.map((p) => p.name) : draft.permissions}
        onChange={(permissions) => setDraft((d) => ({ ...d, permissions }))}
        disabled={locked}
      />
      {errors.permissions && <MessageBar intent="error"><MessageBarBody>{errors.permissions}</MessageBarBody></MessageBar>}
    </FormShell>
  );
}
