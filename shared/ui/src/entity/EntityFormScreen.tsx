import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { FormShell } from '../Form';
import { ErrorState, LoadingState } from '../States';
import { useApiError } from '../useApiError';
import { EntityFields } from './EntityFields';
import { entityKey, type Draft, type EntityDef } from './types';
import { useEntityForm } from './useEntityForm';

/**
 * Create (/x/add) or edit (/x/edit/:id) any entity; back to the list once saved. `prefill`: values of
 * a new object; `actions`: buttons beside the title for the object being edited (each gates itself).
 */
export function EntityFormScreen<T extends { id: number }>({ entity, prefill, actions }: { entity: EntityDef<T>; prefill?: Draft; actions?: (row: T) => ReactNode }) {
  const { t } = useTranslation(entity.ns);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const { existing, form, submit, formError, saving } = useEntityForm(entity as never, id, { prefill });
  const loadError = useApiError(existing.error);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  return (
    <FormShell
      title={t(entityKey(entity, id === null ? 'addTitle' : 'editTitle'))}
      testId={`${entity.key}-form`}
      onSubmit={() => void submit().then((ok) => ok && navigate(entity.paths.list))}
      submitting={saving}
      error={formError}
      backTo={entity.paths.list}
      headerActions={actions && existing.data ? actions(existing.data as T) : undefined}
    >
      <EntityFields entity={entity} form={form} />
    </FormShell>
  );
}
