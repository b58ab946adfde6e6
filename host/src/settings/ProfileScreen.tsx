import { useMemo } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UserInfoSchema } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { FormShell, LoadingState, TextField } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSaveUserInfo, useUserInfo } from './settings.api';
import { useSchemaForm } from './useSchemaForm';

/** /user-setting/profile: the logged-in user's name, email and phone (PUT /update-user-info-login). */
export function ProfileScreen() {
  const { t } = useTranslation(NS);
  const info = useUserInfo();
  const save = useSaveUserInfo();
  const loaded = useMemo(() => (info.data ? { full_name: info.data.full_name, email: info.data.email, phone: info.data.phone } : null), [info.data]);
  const form = useSchemaForm(UserInfoSchema, { full_name: '', email: '', phone: '' }, loaded);
  if (info.isLoading) return <LoadingState />;

  const submit = async () => {
    const input = form.validate();
    if (!input) return;
    try {
      await save.mutateAsync(input);
      notify('success', t('settings.saved'));
    } catch (e) {
      await form.showApiError(e);
    }
  };
  const text = (name: 'full_name' | 'email' | 'phone', type?: 'email' | 'tel') => (
    <TextField name={name} type={type} label={t(`settings.profile.${name}`)} value={form.draft[name]} onChange={form.set(name)} error={form.errors[name]} required />
  );
  return (
    <FormShell
      title={t('settings.cards.profile.title')} testId="profile-form" backTo="/setting"
      onSubmit={() => void submit()} submitting={save.isPending} error={form.formError}
    >
      <Field label={t('settings.profile.username')}><Input value={info.data?.username ?? ''} readOnly /></Field>
      <Field label={t('settings.profile.extension')}><Input value={info.data?.extension_code ?? '—'} readOnly data-testid="extension-code" /></Field>
      <Field label={t('settings.profile.role')}><Input value={info.data?.role_label ?? '—'} readOnly data-testid="profile-role" /></Field>
      {text('full_name')}
      {text('email', 'email')}
      {text('phone', 'tel')}
    </FormShell>
  );
}
