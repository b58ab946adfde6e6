import { useTranslation } from 'react-i18next';
import { ChangePasswordSchema, type ChangePasswordInput } from '@tongdai/contracts';
import type { DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { useChangePassword } from './settings.api';
import { SettingsForm, SettingsText } from './SettingsForm';

const AUTOCOMPLETE = { current_password: 'current-password', password: 'new-password', password_confirmation: 'new-password' } as const;
const PASSWORD: DraftForm = {
  fields: Object.keys(AUTOCOMPLETE).map((name) => ({ name, kind: 'password' as const, required: true })),
  schema: ChangePasswordSchema,
};

/** /user-setting/password: PUT /change-password; the current password is checked by the API. */
export function PasswordScreen() {
  const { t } = useTranslation(NS);
  const change = useChangePassword();
  return (
    <SettingsForm card="password" testId="password-form" form={PASSWORD} done="settings.password.changed" saving={change.isPending}
      save={async (input, form) => { await change.mutateAsync(input as ChangePasswordInput); form.clear(); }}>
      {(form) => (Object.keys(AUTOCOMPLETE) as (keyof typeof AUTOCOMPLETE)[]).map((name) => (
        <SettingsText key={name} form={form} name={name} type="password" autoComplete={AUTOCOMPLETE[name]} label={t(`settings.password.${name}`)} />
      ))}
    </SettingsForm>
  );
}
