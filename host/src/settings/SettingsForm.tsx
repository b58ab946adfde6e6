import type { ReactNode } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { FormShell, LoadingState, TextField, useEntityDraft, useFormSubmit, type DraftForm, type EntityDraft } from '@tongdai/ui';
import { NS } from '../i18n';

/**
 * One settings card's form (/setting/…, /user-setting/…): the kit's draft over the contract schema,
 * filled from what the API answered, sent through useFormSubmit (the API's field messages under
 * their fields, its message above the form, a toast), back to the settings index.
 */
export function SettingsForm(p: {
  card: 'site' | 'system' | 'profile' | 'password' | 'status' | 'google-sheet';
  testId: string;
  /** Module constants: the fields the draft holds and the schema that parses it. */
  form: DraftForm;
  /** The API's answer the form starts from (refilled when it changes, e.g. after saving). */
  loaded?: object | null;
  loading?: boolean;
  save: (input: Record<string, unknown>, form: EntityDraft) => Promise<unknown>;
  saving: boolean;
  readOnly?: boolean;
  /** i18n key of the success toast (default "settings.saved"). */
  done?: string;
  /** False keeps the form from sending (a problem already shown under its field, e.g. the logo). */
  ready?: () => boolean;
  children: (form: EntityDraft) => ReactNode;
}) {
  const { t } = useTranslation(NS);
  const form = useEntityDraft(p.form, p.loaded);
  const { submit, formError } = useFormSubmit(
    { validate: () => { const input = form.validate(); return input && (p.ready?.() ?? true) ? input : null; }, setErrors: form.setErrors },
    (input) => p.save(input, form),
    () => t(p.done ?? 'settings.saved'),
  );
  if (p.loading) return <LoadingState />;
  return (
    <FormShell title={t(`settings.cards.${p.card}.title`)} testId={p.testId} backTo="/setting" onSubmit={() => void submit()} submitting={p.saving || p.readOnly} error={formError}>
      {p.children(form)}
    </FormShell>
  );
}

/** A required input of a settings form, labelled by `label`; a password says how the browser may fill it. */
export function SettingsText({ form, name, label, type, autoComplete }: {
  form: EntityDraft; name: string; label: string; type?: 'email' | 'tel' | 'password'; autoComplete?: 'current-password' | 'new-password';
}) {
  const value = String(form.draft[name] ?? '');
  const error = form.errors[name];
  if (type !== 'password') return <TextField name={name} type={type} label={label} value={value} onChange={form.set(name)} error={error} required />;
  return (
    <Field label={label} required validationMessage={error} validationState={error ? 'error' : 'none'}>
      <Input type="password" name={name} autoComplete={autoComplete} value={value} onChange={(_, d) => form.set(name)(d.value)} data-testid={`field-${name}`} />
    </Field>
  );
}
