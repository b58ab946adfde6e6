import type { ReactNode } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, makeStyles,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UI_NS } from './i18n';

const useStyles = makeStyles({ fields: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** Create/edit in a dialog: title, the API's message at the top, fields, cancel and save. */
export function FormDialog(p: {
  title: string;
  testId: string;
  error: string | null;
  saving: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && p.onClose()}>
      <DialogSurface data-testid={p.testId}>
        <form onSubmit={(e) => { e.preventDefault(); p.onSubmit(); }} noValidate>
          <DialogBody>
            <DialogTitle>{p.title}</DialogTitle>
            <DialogContent className={s.fields}>
              {p.error && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{p.error}</MessageBarBody></MessageBar>}
              {p.children}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" type="button" onClick={p.onClose}>{t('cancel')}</Button>
              <Button appearance="primary" type="submit" disabled={p.saving} data-testid="save">{t('save')}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
