import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ChangePasswordSchema } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { FormShell } from '@tongdai/ui';
import { NS } from '../i18n';
import { useChangePassword } from './settings.api';
import { useSchemaForm } from './useSchemaForm';

const BLANK = { current_password: '', password: '', password_confirmation: '' };
type Name = keyof typeof BLANK;
const AUTOCOMPLETE: Record<Name, string> = { current_password: 'current-password', password: 'new-password', password_confirmation: 'new-password' };

/** /user-setting/password: PUT /change-password; the current password is checked by the API. */
export function PasswordScreen() {
  const { t } = useTranslation(NS);
  const change = useChangePassword();
  const form = useSchemaForm(ChangePasswordSchema, BLANK);

  const submit = async () => {
    const input = form.validate();
    if (!input) return;
    try {
      await change.mutateAsync(input);
      form.setDraft(BLANK);
      notify('success', t('settings.password.changed'));
    } catch (e) {
      await form.showApiError(e);
    }
  };
  const secret = (name: Name) => (
    <Field label={t(`settings.password.${name}`)} required validationMessage={form.errors[name]} validationState={form.errors[name] ? 'error' : 'none'}>
      <Input type="password" name={name} autoComplete={AUTOCOMPLETE[name]} value={form.draft[name]} onChange={(_, d) => form.set(name)(d.value)} data-testid={`field-${name}`} />
    </Field>
  );
  return (
    <FormShell
      title={t('settings.cards.password.title')} testId="password-form" backTo="/setting"
      onSubmit={() => void submit()} submitting={change.isPending} error={form.formError}
    >
      {secret('current_password')}
      {secret('password')}
      {secret('password_confirmation')}
    </FormShell>
  );
}
