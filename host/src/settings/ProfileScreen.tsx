import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UserInfoSchema, type UserInfoInput } from '@tongdai/contracts';
import type { DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSaveUserInfo, useUserInfo } from './settings.api';
import { SettingsForm, SettingsText } from './SettingsForm';

const PROFILE: DraftForm = {
  fields: [{ name: 'full_name', kind: 'text', required: true }, { name: 'email', kind: 'email', required: true }, { name: 'phone', kind: 'tel', required: true }],
  schema: UserInfoSchema,
};

/** /user-setting/profile: the logged-in user's name, email and phone (PUT /update-user-info-login). */
export function ProfileScreen() {
  const { t } = useTranslation(NS);
  const info = useUserInfo();
  const save = useSaveUserInfo();
  return (
    <SettingsForm card="profile" testId="profile-form" form={PROFILE} loaded={info.data} loading={info.isLoading}
      save={(input) => save.mutateAsync(input as UserInfoInput)} saving={save.isPending}>
      {(form) => (
        <>
          <Field label={t('settings.profile.username')}><Input value={info.data?.username ?? ''} readOnly /></Field>
          <Field label={t('settings.profile.extension')}><Input value={info.data?.extension_code ?? '—'} readOnly data-testid="extension-code" /></Field>
          <Field label={t('settings.profile.role')}><Input value={info.data?.role_label ?? '—'} readOnly data-testid="profile-role" /></Field>
          <SettingsText form={form} name="full_name" label={t('settings.profile.full_name')} />
          <SettingsText form={form} name="email" type="email" label={t('settings.profile.email')} />
          <SettingsText form={form} name="phone" type="tel" label={t('settings.profile.phone')} />
        </>
      )}
    </SettingsForm>
  );
}
