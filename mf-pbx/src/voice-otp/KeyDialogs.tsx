import { useRef, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { DeleteDismissRegular, KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { OTP_LIMITS, OTP_SCOPES, type OtpKey, type OtpKeyCreated } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog, EntityFields, FormDialog, SecretsOnceDialog as SecretsDialog, useEntityForm, type SecretsOnceLabels } from '@tongdai/ui';
import { OTP_NS } from './i18n';
import { otpKeyEntity } from './voice-otp.entity';
import { useRevokeKey, useRotateWebhookSecret } from './voice-otp.api';

/** The once-only dialog's words, in this area's namespace. */
function useOnceLabels(): SecretsOnceLabels {
  const { t } = useTranslation(OTP_NS);
  return {
    warning: t('key.onceWarning'), detail: t('key.onceDetail'), secret: t('key.secret'), webhookSecret: t('key.webhookSecret'),
    close: t('key.close'), copy: t('key.copy'), copied: t('key.copied'), copyFailed: t('key.copyFailed'),
  };
}

function SecretsOnceDialog(props: { title: string; secret?: string; webhookSecret: string; onClose: () => void }) {
  return <SecretsDialog {...props} labels={useOnceLabels()} />;
}

/** "Thêm khoá API": the kit's form, then the key shown once. */
export function CreateKeyDialog({ close }: { close: () => void }) {
  const { t } = useTranslation(OTP_NS);
  const created = useRef<OtpKeyCreated | null>(null);
  const [shown, setShown] = useState<OtpKeyCreated | null>(null);
  const { form, submit, formError, saving } = useEntityForm(otpKeyEntity as never, null, {
    prefill: { scopes: [...OTP_SCOPES], retry_after_s: OTP_LIMITS.retryAfterS },
    onSaved: (saved) => { created.current = saved as OtpKeyCreated; },
  });
  if (shown) return <SecretsOnceDialog title={t('key.onceTitle', { name: shown.name })} secret={shown.secret} webhookSecret={shown.webhook_secret} onClose={close} />;
  const save = async () => {
    if ((await submit()) && created.current?.secret) setShown(created.current);
  };
  return (
    <FormDialog title={t('key.addTitle')} testId="otp-key-form" error={formError} saving={saving} onSubmit={() => void save()} onClose={close}>
      <EntityFields entity={otpKeyEntity} form={form} />
    </FormDialog>
  );
}

/** "Thu hồi" on a live key's row: confirm, then the key opens nothing any more. */
export function RevokeKey({ row }: { row: OtpKey }) {
  const { t } = useTranslation(OTP_NS);
  const revoke = useRevokeKey();
  const [asking, setAsking] = useState(false);
  if (row.revoked_at) return null;
  const run = async () => {
    try {
      await revoke.mutateAsync(row.id);
      notify('success', t('key.revoked'));
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setAsking(false);
    }
  };
  return (
    <>
      <Button size="small" icon={<DeleteDismissRegular />} onClick={() => setAsking(true)} data-testid="revoke-key">{t('key.revoke')}</Button>
      <ConfirmDialog
        open={asking} title={t('key.confirmRevokeTitle')} message={t('key.confirmRevoke', { name: row.name })} busy={revoke.isPending}
        onConfirm={() => void run()} onCancel={() => setAsking(false)}
      />
    </>
  );
}

/** "Khoá ký mới" on a live key's row: confirm, then the new signing secret shown once. */
export function RotateWebhookSecret({ row }: { row: OtpKey }) {
  const { t } = useTranslation(OTP_NS);
  const rotate = useRotateWebhookSecret();
  const [asking, setAsking] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  if (row.revoked_at) return null;
  const run = async () => {
    try {
      const made = (await rotate.mutateAsync(row.id)).data.webhook_secret;
      setAsking(false);
      setFresh(made);
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setAsking(false);
    }
  };
  return (
    <>
      <Button size="small" icon={<KeyResetRegular />} onClick={() => setAsking(true)} data-testid="rotate-webhook-secret">{t('key.rotate')}</Button>
      <ConfirmDialog
        open={asking} title={t('key.confirmRotateTitle')} message={t('key.confirmRotate', { name: row.name })} busy={rotate.isPending}
        onConfirm={() => void run()} onCancel={() => setAsking(false)}
      />
      {fresh && <SecretsOnceDialog title={t('key.rotatedTitle', { name: row.name })} webhookSecret={fresh} onClose={() => setFresh(null)} />}
    </>
  );
}
