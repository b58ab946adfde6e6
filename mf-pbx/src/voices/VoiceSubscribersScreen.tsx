import { useState } from 'react';
import { Button } from '@fluentui/react-components';
import { KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, type VoiceSubscriber } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { ConfirmDialog, EntityListScreen } from '@tongdai/ui';
import { SUBSCRIBERS_NS } from '../subscribers/i18n';
import { PasswordOnceDialog } from '../subscribers/PasswordOnceDialog';
import { useResetSubscriberPassword } from '../subscribers/subscribers.api';
import { voiceSubscriberEntity } from './voices.entity';

/** "Đặt lại mật khẩu" of one row: confirm, then the new password once (copyable), never again. */
function ResetPassword({ row }: { row: VoiceSubscriber }) {
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const reset = useResetSubscriberPassword(row.id);
  const [asking, setAsking] = useState(false);
  // The password lives only in this state: closing the dialog drops it for good.
  const [shown, setShown] = useState<{ title: string; extension: string; password: string } | null>(null);
  const run = async () => {
    try {
      const password = await reset.mutateAsync();
      setShown({ title: t('password.resetTitle', { extension: row.extension }), extension: row.extension, password });
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setAsking(false);
    }
  };
  return (
    <>
      <Button size="small" icon={<KeyResetRegular />} onClick={() => setAsking(true)} disabled={reset.isPending} data-testid="reset-password">{t('resetPassword')}</Button>
      <ConfirmDialog
        open={asking} title={t('confirmResetTitle')} message={t('confirmReset', { extension: row.extension })} busy={reset.isPending}
        onConfirm={() => void run()} onCancel={() => setAsking(false)}
      />
      <PasswordOnceDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
}

/** /voices/subscribers: the kit's list of the voice subscribers; subscriber.edit may reset a password. */
export default function VoiceSubscribersScreen() {
  const { can } = useCan();
  return <EntityListScreen entity={voiceSubscriberEntity} rowActions={can(PERM.subscriber.edit) ? (r) => <ResetPassword row={r} /> : undefined} />;
}
