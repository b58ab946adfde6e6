import { useRef, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { DeleteDismissRegular, KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { OtpKey, OtpKeyCreated } from '@tongdai/contracts';
import { i18n, notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog } from './ConfirmDialog';
import { EntityFields, useEntityForm } from './entity';
import { FormDialog } from './FormDialog';
import { SecretsOnceDialog, type SecretsOnceLabels } from './SecretsOnceDialog';

/**
 * A tenant's API keys, wherever an area lists them (voice-OTP's on /voice-otp/number, the CRM's on
 * /integrations; one table of keys, ADR 0052/0065): made with the area's form, then the key and its signing
 * secret shown once; revoked; a new signing secret. The words come from the area's namespace (`ns`), under
 * the same `key.*` names.
 */

/** The once-only dialog's words, in the area's namespace. */
export function useSecretsOnceLabels(ns: string): SecretsOnceLabels {
  const { t } = useTranslation(ns, { i18n });
  return {
    warning: t('key.onceWarning'), detail: t('key.onceDetail'), secret: t('key.secret'), webhookSecret: t('key.webhookSecret'),
    close: t('key.close'), copy: t('key.copy'), copied: t('key.copied'), copyFailed: t('key.copyFailed'),
  };
}

/** "Thêm khoá": the area's kit form, then the whole key and its signing secret shown once. */
export function CreateApiKeyDialog({ ns, entity, prefill, testId, close }: {
  ns: string;
  /** The area's key entity (its fields: name, scopes, webhook URL, …). */
  entity: Parameters<typeof EntityFields>[0]['entity'];
  prefill: Record<string, unknown>;
  testId: string;
  close: () => void;
}) {
  const { t } = useTranslation(ns, { i18n });
  const labels = useSecretsOnceLabels(ns);
  const created = useRef<OtpKeyCreated | null>(null);
  const [shown, setShown] = useState<OtpKeyCreated | null>(null);
  const { form, submit, formError, saving } = useEntityForm(entity as never, null, {
    prefill,
    onSaved: (saved) => { created.current = saved as OtpKeyCreated; },
  });
  if (shown) return <SecretsOnceDialog title={t('key.onceTitle', { name: shown.name })} secret={shown.secret} webhookSecret={shown.webhook_secret} onClose={close} labels={labels} />;
  const save = async () => {
    if ((await submit()) && created.current?.secret) setShown(created.current);
  };
  return (
    <FormDialog title={t('key.addTitle')} testId={testId} error={formError} saving={saving} onSubmit={() => void save()} onClose={close}>
      <EntityFields entity={entity} form={form} />
    </FormDialog>
  );
}

/** "Thu hồi" on a live key's row: confirm, then the key opens nothing and its webhook hears nothing any more. */
export function RevokeApiKey({ ns, row, revoke }: { ns: string; row: OtpKey; revoke: { mutateAsync: (id: number) => Promise<unknown>; isPending: boolean } }) {
  const { t } = useTranslation(ns, { i18n });
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
export function RotateApiKeySecret({ ns, row, rotate }: {
  ns: string;
  row: OtpKey;
  rotate: { mutateAsync: (id: number) => Promise<{ data: { webhook_secret: string } }>; isPending: boolean };
}) {
  const { t } = useTranslation(ns, { i18n });
  const labels = useSecretsOnceLabels(ns);
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
