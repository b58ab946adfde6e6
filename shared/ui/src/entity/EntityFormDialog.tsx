import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FormDialog } from '../FormDialog';
import { ErrorState, LoadingState } from '../States';
import { useApiError } from '../useApiError';
import { EntityFields } from './EntityFields';
import { entityKey, type EntityDef } from './types';
import { useEntityForm } from './useEntityForm';

/**
 * The open dialog kept in the URL (?dialog=new|<id or detailKey>), so reload keeps it and back closes
 * it. `close` closes the dialog of the render that made it, and only while that one is still open: a
 * save answered after another dialog was opened (add clicked while an edit's PUT was on its way)
 * does not close the new one. Both read the latest URL, not the render's.
 */
export function useDialogParam() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  latest.current = params;
  const value = params.get('dialog');
  const set = (next: string | null) => {
    const p = new URLSearchParams(latest.current);
    if (next) p.set('dialog', next);
    else p.delete('dialog');
    setParams(p);
  };
  return { value, open: (next: string) => set(next), close: () => { if (latest.current.get('dialog') === value) set(null); } };
}

/** Create or edit an object in a dialog (entities whose add/edit has no SPEC route: numbers, groups…). */
export function EntityFormDialog<T extends { id: number }>({ entity, id, onClose }: { entity: EntityDef<T>; id: number | string | null; onClose: () => void }) {
  const { t } = useTranslation(entity.ns);
  const { existing, form, submit, formError, saving } = useEntityForm(entity as never, id);
  const loadError = useApiError(existing.error);
  const save = async () => { if (await submit()) onClose(); };
  return (
    <FormDialog title={t(entityKey(entity, id === null ? 'addTitle' : 'editTitle'))} testId={`${entity.key}-form`} error={formError}
      saving={saving || (id !== null && !existing.isSuccess)} onSubmit={() => void save()} onClose={onClose}>
      {id !== null && existing.isPending ? <LoadingState />
        : id !== null && existing.isError ? <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />
        : <EntityFields entity={entity} form={form} />}
    </FormDialog>
  );
}
