import type { FormEvent, ReactNode } from 'react';
import { Button, Field, Input, MessageBar, MessageBarBody, Select, Textarea, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UI_NS } from './i18n';
import { LinkButton } from './LinkButton';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '880px' },
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '24px', display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: '16px', alignItems: 'start' },
  actions: { display: 'flex', gap: '8px' },
});

/** Title, a card of fields, a form-level error, save and back. */
/** `headerActions`: buttons beside the title (e.g. call the customer being edited). */
export function FormShell(p: { title: string; testId: string; onSubmit: () => void; submitting?: boolean; error?: string | null; backTo: string; children: ReactNode; headerActions?: ReactNode }) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const submit = (e: FormEvent) => { e.preventDefault(); p.onSubmit(); };
  return (
    <form className={s.form} onSubmit={submit} noValidate data-testid={p.testId}>
      {p.headerActions ? <div className={s.actions} style={{ alignItems: 'center' }}><Title2 as="h1">{p.title}</Title2>{p.headerActions}</div> : <Title2 as="h1">{p.title}</Title2>}
      {p.error && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{p.error}</MessageBarBody></MessageBar>}
      <div className={s.card}>{p.children}</div>
      <div className={s.actions}>
        <Button appearance="primary" type="submit" disabled={p.submitting} data-testid="save">{t('save')}</Button>
        <LinkButton to={p.backTo}>{t('back')}</LinkButton>
      </div>
    </form>
  );
}

export interface FieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  /** Shown, not changed. */
  disabled?: boolean;
}

export function TextField(p: FieldProps & { type?: 'text' | 'email' | 'tel'; multiline?: boolean }) {
  return (
    <Field label={p.label} required={p.required} validationMessage={p.error} validationState={p.error ? 'error' : 'none'}>
      {p.multiline ? (
        <Textarea name={p.name} value={p.value} disabled={p.disabled} onChange={(_, d) => p.onChange(d.value)} data-testid={`field-${p.name}`} />
      ) : (
        <Input name={p.name} type={p.type ?? 'text'} value={p.value} disabled={p.disabled} onChange={(_, d) => p.onChange(d.value)} data-testid={`field-${p.name}`} />
      )}
    </Field>
  );
}

export function SelectField(p: FieldProps & { options: readonly { value: string; label: string }[]; placeholder: string }) {
  return (
    <Field label={p.label} required={p.required} validationMessage={p.error} validationState={p.error ? 'error' : 'none'}>
      <Select name={p.name} value={p.value} onChange={(_, d) => p.onChange(d.value)} data-testid={`field-${p.name}`}>
        <option value="">{p.placeholder}</option>
        {p.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </Select>
    </Field>
  );
}
