import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { UI_NS } from '../i18n';
import { ErrorState, LoadingState } from '../States';
import { useApiError } from '../useApiError';
import { EntityFields } from './EntityFields';
import { entityKey, type EntityDef } from './types';
import { useEntityForm } from './useEntityForm';

const useStyles = makeStyles({ fields: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** The open dialog kept in the URL (?dialog=new|<id>), so reload keeps it and back closes it. */
export function useDialogParam() {
  const [params, setParams] = useSearchParams();
  const set = (value: string | null) => {
    const p = new URLSearchParams(params);
    if (value) p.set('dialog', value);
    else p.delete('dialog');
    setParams(p);
  };
  return { value: params.get('dialog'), open: (value: string) => set(value), close: () => set(null) };
}

/** Create or edit an object in a dialog (entities whose add/edit has no SPEC route: numbers, groups…). */
export function EntityFormDialog<T extends { id: number }>({ entity, id, onClose }: { entity: EntityDef<T>; id: number | null; onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation([entity.ns, UI_NS]);
  const { existing, form, submit, formError, saving } = useEntityForm(entity as never, id);
  const loadError = useApiError(existing.error);
  const save = async () => { if (await submit()) onClose(); };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid={`${entity.key}-form`}>
        <form onSubmit={(e) => { e.preventDefault(); void save(); }} noValidate>
          <DialogBody>
            <DialogTitle>{t(entityKey(entity, id === null ? 'addTitle' : 'editTitle'))}</DialogTitle>
            <DialogContent className={s.fields}>
              {formError && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {id !== null && existing.isPending ? <LoadingState />
                : id !== null && existing.isError ? <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />
                : <EntityFields entity={entity} form={form} />}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" type="button" onClick={onClose}>{t('cancel', { ns: UI_NS })}</Button>
              <Button appearance="primary" type="submit" disabled={saving || (id !== null && !existing.isSuccess)} data-testid="save">{t('save', { ns: UI_NS })}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
