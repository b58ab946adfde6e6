import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UI_NS } from './i18n';

/** Confirmation before a destructive action. */
export function ConfirmDialog(props: { open: boolean; title: string; message: string; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation(UI_NS);
  return (
    <Dialog open={props.open} onOpenChange={(_, d) => !d.open && props.onCancel()}>
      <DialogSurface data-testid="confirm-dialog">
        <DialogBody>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogContent>{props.message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={props.onCancel}>{t('cancel')}</Button>
            <Button appearance="primary" onClick={props.onConfirm} disabled={props.busy} data-testid="confirm">{t('confirm')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
