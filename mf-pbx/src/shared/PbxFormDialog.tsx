import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ErrorState, LoadingState, useApiError } from '@tongdai/ui';
import type { PbxEntity } from './entity';
import { PbxFields } from './PbxFields';
import { usePbxForm } from './usePbxForm';

const useStyles = makeStyles({ fields: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** The open dialog kept in the URL (?dialog=new|<key>), so reload keeps it and back closes it. */
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

/** Create or edit a PBX object in a dialog (areas with no SPEC add/edit route: numbers, last calls). */
export function PbxFormDialog<T extends { id: number }>({ entity, id, onClose }: { entity: PbxEntity<T>; id: number | string | null; onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(entity.ns);
  const { existing, form, submit, formError, saving } = usePbxForm(entity, id);
  const loadError = useApiError(existing.error);
  const save = async () => { if (await submit()) onClose(); };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid={`${entity.key}-form`}>
        <form onSubmit={(e) => { e.preventDefault(); void save(); }} noValidate>
          <DialogBody>
            <DialogTitle>{t(id === null ? 'addTitle' : 'editTitle')}</DialogTitle>
            <DialogContent className={s.fields}>
              {formError && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {id !== null && existing.isPending ? <LoadingState />
                : id !== null && existing.isError ? <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />
                : <PbxFields entity={entity} form={form} />}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" type="button" onClick={onClose}>{t('cancel', { ns: 'ui' })}</Button>
              <Button appearance="primary" type="submit" disabled={saving || (id !== null && !existing.isSuccess)} data-testid="save">{t('save', { ns: 'ui' })}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
