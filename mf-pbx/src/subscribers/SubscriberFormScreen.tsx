import { useRef, useState } from 'react';
import { Button, Field, Input } from '@fluentui/react-components';
import { KeyResetRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { paths, type SubscriberCreated } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog, EntityFields, ErrorState, FormShell, LoadingState, TextField, useApiError, useEntityForm } from '@tongdai/ui';
import { SUBSCRIBERS_NS } from './i18n';
import { LinkedAccountField } from './LinkedAccountField';
import { PasswordOnceDialog } from './PasswordOnceDialog';
import { useResetSubscriberPassword } from './subscribers.api';
import { MAILBOX_FIELDS, NEW_SUBSCRIBER, subscriberEntity } from './subscribers.entity';

type Shown = { title: string; extension: string; password: string; thenLeave: boolean };

/** Add and edit. The extension is fixed once created: phones are registered under it. */
export default function SubscriberFormScreen() {
  const { t } = useTranslation(SUBSCRIBERS_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  // Create answers with the generated password, the only time it is sent.
  const created = useRef<SubscriberCreated | null>(null);
  const { existing, form, submit, formError, saving } = useEntityForm(subscriberEntity as never, id, {
    prefill: NEW_SUBSCRIBER,
    onSaved: (saved) => { created.current = id === null && saved && typeof saved === 'object' && 'password' in saved ? (saved as SubscriberCreated) : null; },
  });
  const draft = form.draft as Record<'extension' | 'display_name' | 'user_id', string>;
  const loadError = useApiError(existing.error);
  const reset = useResetSubscriberPassword(id);
  const [confirmReset, setConfirmReset] = useState(false);
  // The password lives only in this state: closing the dialog drops it for good.
  const [shown, setShown] = useState<Shown | null>(null);

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const save = async () => {
    if (!(await submit())) return;
    const saved = created.current;
    if (saved) setShown({ title: t('password.createdTitle', { extension: saved.extension }), extension: saved.extension, password: saved.password, thenLeave: true });
    else navigate(paths.subscriber.list);
  };

  const doReset = async () => {
    try {
      const password = await reset.mutateAsync();
      setShown({ title: t('password.resetTitle', { extension: draft.extension }), extension: draft.extension, password, thenLeave: false });
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
        onSubmit={() => void save()}
        submitting={saving}
        error={formError}
        backTo={paths.subscriber.list}
      >
        {id === null ? (
          <TextField name="extension" label={t('fields.extension')} required type="tel" value={draft.extension} onChange={form.set('extension')} error={form.errors.extension} />
        ) : (
          <Field label={t('fields.extension')} hint={t('extensionLocked')} validationMessage={form.errors.extension} validationState={form.errors.extension ? 'error' : 'none'}>
            <Input readOnly value={draft.extension} data-testid="field-extension" />
          </Field>
        )}
        <TextField name="display_name" label={t('fields.display_name')} required value={draft.display_name} onChange={form.set('display_name')} error={form.errors.display_name} />
        <LinkedAccountField value={draft.user_id} onChange={form.set('user_id')} error={form.errors.user_id} currentName={(existing.data?.user_name as string | null | undefined) ?? null} />
        <EntityFields entity={{ ns: SUBSCRIBERS_NS, fields: MAILBOX_FIELDS }} form={form} />
        {id !== null && (
          <div>
            <Button icon={<KeyResetRegular />} onClick={() => setConfirmReset(true)} disabled={reset.isPending} data-testid="reset-password">{t('resetPassword')}</Button>
          </div>
        )}
      </FormShell>
      <ConfirmDialog
        open={confirmReset}
        title={t('confirmResetTitle')}
        message={t('confirmReset', { extension: draft.extension })}
        busy={reset.isPending}
        onConfirm={() => void doReset()}
        onCancel={() => setConfirmReset(false)}
      />
      <PasswordOnceDialog shown={shown} onClose={closePassword} />
    </>
  );
}
