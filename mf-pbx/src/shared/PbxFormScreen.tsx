import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ErrorState, FormShell, LoadingState, useApiError } from '@tongdai/ui';
import type { PbxEntity } from './entity';
import { PbxFields } from './PbxFields';
import { usePbxForm } from './usePbxForm';

/** Create (/x/add) or edit (/x/edit/:id) any PBX object; back to the list once saved. */
export function PbxFormScreen<T extends { id: number }>({ entity }: { entity: PbxEntity<T> }) {
  const { t } = useTranslation(entity.ns);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const { existing, form, submit, formError, saving } = usePbxForm(entity, id);
  const loadError = useApiError(existing.error);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  return (
    <FormShell
      title={t(id === null ? 'addTitle' : 'editTitle')}
      testId={`${entity.key}-form`}
      onSubmit={() => void submit().then((ok) => ok && navigate(entity.paths.list))}
      submitting={saving}
      error={formError}
      backTo={entity.paths.list}
    >
      <PbxFields entity={entity} form={form} />
    </FormShell>
  );
}
