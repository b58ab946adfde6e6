import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ErrorState, FormShell, LoadingState, useApiError } from '@tongdai/ui';
import { testIdOf, type OrgEntity } from './org.entities';
import { ORG_NS } from './org.i18n';
import { OrgField } from './OrgField';
import { useOrgForm } from './useOrgForm';

/** Create (/x/add) or edit (/x/edit/:id) any organisation entity; back to the list once saved. */
export function OrgFormScreen({ entity }: { entity: OrgEntity<any> }) {
  const { t } = useTranslation(ORG_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { existing, form, submit, formError, saving } = useOrgForm(entity, id);
  const loadError = useApiError(existing.error);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  return (
    <FormShell
      title={t(`${entity.key}.${id === null ? 'addTitle' : 'editTitle'}`)}
      testId={`${testIdOf(entity)}-form`}
      onSubmit={() => void submit().then((ok) => ok && navigate(entity.list))}
      submitting={saving}
      error={formError}
      backTo={entity.list}
    >
      {entity.fields.map((f) => (
        <OrgField key={f.name} field={f} value={form.draft[f.name]} error={form.errors[f.name]} onChange={form.set(f.name)} />
      ))}
    </FormShell>
  );
}
