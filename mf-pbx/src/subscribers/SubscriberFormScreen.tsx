import { useState } from 'react';
import { Button, Field, Input } from '@fluentui/react-components';
import { KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { paths } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog, ErrorState, FormShell, LoadingState, TextField, useApiError } from '@tongdai/ui';
import { SUBSCRIBERS_NS } from './i18n';
import { LinkedAccountField } from './LinkedAccountField';
import { PasswordOnceDialog } from './PasswordOnceDialog';
import { useResetSubscriberPassword, useSaveSubscriber, useSubscriber } from './subscribers.api';
import { useSubscriberForm, type FieldErrors } from './useSubscriberForm';

type Shown = { title: string; extension: string; password: string; thenLeave: boolean };

/** Add and edit. The extension is fixed once created: phones are registered under it. */
export default function SubscriberFormScreen() {
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const existing = useSubscriber(id);
  const loadError = useApiError(existing.error);
  const save = useSaveSubscriber(id);
  const reset = useResetSubscriberPassword(id);
  const form = useSubscriberForm(existing.data);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  // The password lives only in this state: closing the dialog drops it for good.
  const [shown, setShown] = useState<Shown | null>(null);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const submit = async () => {
    setFormError(null);
    const input = form.validate();
    if (!input) return;
    try {
      const saved = await save.mutateAsync(input);
      if (id === null && 'password' in saved) {
        notify('success', t('created'));
        setShown({ title: t('password.createdTitle', { extension: saved.extension }), extension: saved.extension, password: saved.password, thenLeave: true });
        return;
      }
      notify('success', t('updated'));
      navigate(paths.subscriber.list);
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])) as FieldErrors);
      setFormError(body.message);
    }
  };

  const doReset = async () => {
    try {
      const password = await reset.mutateAsync();
      setShown({ title: t('password.resetTitle', { extension: form.draft.extension }), extension: form.draft.extension, password, thenLeave: false });
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setConfirmReset(false);
    }
  };

  const closePassword = () => {
    const leave = shown?.thenLeave;
    setShown(null);
    if (leave) navigate(paths.subscriber.list);
  };

  return (
    <>
      <FormShell
        title={t(id === null ? 'addTitle' : 'editTitle')}
        testId="subscriber-form"
        onSubmit={() => void submit()}
        submitting={save.isPending}
        error={formError}
        backTo={paths.subscriber.list}
      >
        {id === null ? (
          <TextField name="extension" label={t('fields.extension')} required type="tel" value={form.draft.extension} onChange={form.set('extension')} error={form.errors.extension} />
        ) : (
          <Field label={t('fields.extension')} hint={t('extensionLocked')} validationMessage={form.errors.extension} validationState={form.errors.extension ? 'error' : 'none'}>
            <Input readOnly value={form.draft.extension} data-testid="field-extension" />
          </Field>
        )}
        <TextField name="display_name" label={t('fields.display_name')} required value={form.draft.display_name} onChange={form.set('display_name')} error={form.errors.display_name} />
        <LinkedAccountField value={form.draft.user_id} onChange={form.set('user_id')} error={form.errors.user_id} currentName={existing.data?.user_name ?? null} />
        {id !== null && (
          <div>
            <Button icon={<KeyResetRegular />} onClick={() => setConfirmReset(true)} disabled={reset.isPending} data-testid="reset-password">{t('resetPassword')}</Button>
          </div>
        )}
      </FormShell>
      <ConfirmDialog
        open={confirmReset}
        title={t('confirmResetTitle')}
        message={t('confirmReset', { extension: form.draft.extension })}
        busy={reset.isPending}
        onConfirm={() => void doReset()}
        onCancel={() => setConfirmReset(false)}
      />
      <PasswordOnceDialog shown={shown} onClose={closePassword} />
    </>
  );
}
