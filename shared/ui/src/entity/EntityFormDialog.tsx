import { useTranslation } from 'react-i18next';
import { FormDialog } from '../FormDialog';
import { ErrorState, LoadingState } from '../States';
import { useApiError } from '../useApiError';
import { useUrlParams } from '../useUrlParams';
import { EntityFields } from './EntityFields';
import { entityKey, type Draft, type EntityDef } from './types';
import { useEntityForm } from './useEntityForm';

/** The open dialog kept in the URL (?dialog=new|<id or detailKey>), so reload keeps it and back closes it. */
export function useDialogParam() {
  // Through the kit's one way to change the URL: a close and the next open (or a filter changed
  // meanwhile) made before the screen renders again each start from the other's change.
  const [params, setParams] = useUrlParams();
  const set = (value: string | null) => setParams((p) => (value ? p.set('dialog', value) : p.delete('dialog')));
  return { value: params.get('dialog'), open: (value: string) => set(value), close: () => set(null) };
}

/**
 * Create or edit an object in a dialog (entities whose add/edit has no SPEC route: numbers, groups…).
 * `prefill`: the values a new object starts with (a day picked on a list).
 */
export function EntityFormDialog<T extends { id: number }>({ entity, id, onClose, prefill }: { entity: EntityDef<T>; id: number | string | null; onClose: () => void; prefill?: Draft }) {
  const { t } = useTranslation(entity.ns);
  const { existing, form, submit, formError, saving } = useEntityForm(entity as never, id, { prefill });
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
