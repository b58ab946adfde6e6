import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, MessageBar, MessageBarBody, MessageBarTitle, makeStyles,
} from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { sipDomain } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { useSession } from '@tongdai/platform/react';
import { SUBSCRIBERS_NS } from './i18n';

const useStyles = makeStyles({ body: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/**
 * The SIP password right after create or reset. The API never returns it again, so the
 * dialog only closes through its explicit button (no click-outside) and the caller forgets it.
 */
export function PasswordOnceDialog(p: { shown: { title: string; extension: string; password: string } | null; onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const { maDn } = useSession();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.shown?.password ?? '');
      notify('success', t('password.copied'));
    } catch {
      notify('error', t('password.copyFailed'));
    }
  };
  const readOnly = (label: string, value: string, testId: string) => (
    <Field label={label}>
      <Input readOnly value={value} data-testid={testId} onFocus={(e) => e.target.select()} />
    </Field>
  );
  return (
    <Dialog open={p.shown !== null} modalType="alert">
      <DialogSurface data-testid="sip-password-dialog">
        <DialogBody>
          <DialogTitle>{p.shown?.title}</DialogTitle>
          <DialogContent className={s.body}>
            <MessageBar intent="warning" data-testid="password-once-warning">
              <MessageBarBody><MessageBarTitle>{t('password.warning')}</MessageBarTitle>{t('password.warningDetail')}</MessageBarBody>
            </MessageBar>
            {readOnly(t('password.username'), p.shown?.extension ?? '', 'sip-username')}
            <Field label={t('password.password')}>
              <Input
                readOnly
                value={p.shown?.password ?? ''}
                data-testid="sip-password"
                onFocus={(e) => e.target.select()}
                contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} onClick={() => void copy()} data-testid="copy-password">{t('password.copy')}</Button>}
              />
            </Field>
            {readOnly(t('password.domain'), maDn ? sipDomain(maDn) : '', 'sip-domain')}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={p.onClose} data-testid="close-password">{t('password.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
