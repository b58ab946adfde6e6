import { useRef, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { DeleteDismissRegular, KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { OtpKey, OtpKeyCreated } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog, EntityFields, FormDialog, SecretsOnceDialog, useEntityForm, type SecretsOnceLabels } from '@tongdai/ui';
import { INTEGRATIONS_NS } from './i18n';
import { crmKeyEntity } from './integrations.entity';
import { useRevokeCrmKey, useRotateCrmSecret } from './integrations.api';

function useOnceLabels(): SecretsOnceLabels {
  const { t } = useTranslation(INTEGRATIONS_NS);
  return {
    warning: t('key.onceWarning'), detail: t('key.onceDetail'), secret: t('key.secret'), webhookSecret: t('key.webhookSecret'),
    close: t('key.close'), copy: t('key.copy'), copied: t('key.copied'), copyFailed: t('key.copyFailed'),
  };
}

/** "Thêm khoá cho CRM": the kit's form, then the whole key and its signing secret shown once. */
export function CreateCrmKeyDialog({ close }: { close: () => void }) {
  const { t } = useTranslation(INTEGRATIONS_NS);
  const labels = useOnceLabels();
  const created = useRef<OtpKeyCreated | null>(null);
  const [shown, setShown] = useState<OtpKeyCreated | null>(null);
  const { form, submit, formError, saving } = useEntityForm(crmKeyEntity as never, null, {
    prefill: { scopes: ['calls.events'] },
    onSaved: (saved) => { created.current = saved as OtpKeyCreated; },
  });
  if (shown) return <SecretsOnceDialog title={t('key.onceTitle', { name: shown.name })} secret={shown.secret} webhookSecret={shown.webhook_secret} onClose={close} labels={labels} />;
  const save = async () => {
    if ((await submit()) && created.current?.secret) setShown(created.current);
  };
  return (
    <FormDialog title={t('key.addTitle')} testId="crm-key-form" error={formError} saving={saving} onSubmit={() => void save()} onClose={close}>
      <EntityFields entity={crmKeyEntity} form={form} />
    </FormDialog>
  );
}

/** "Thu hồi": confirm, then the key opens nothing and its webhook hears nothing any more. */
export function RevokeCrmKey({ row }: { row: OtpKey }) {
  const { t } = useTranslation(INTEGRATIONS_NS);
  const revoke = useRevokeCrmKey();
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

/** "Khoá ký mới": confirm, then the new signing secret shown once. */
export function RotateCrmSecret({ row }: { row: OtpKey }) {
  const { t } = useTranslation(INTEGRATIONS_NS);
  const labels = useOnceLabels();
  const rotate = useRotateCrmSecret();
  const [asking, setAsking] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  if (row.revoked_at) return null;
  const run = async () => {
    try {
      setFresh((await rotate.mutateAsync(row.id)).data.webhook_secret);
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
      {fresh && <SecretsOnceDialog title={t('key.rotatedTitle', { name: row.name })} webhookSecret={fresh} onClose={() => setFresh(null)} labels={labels} />}
    </>
  );
}
