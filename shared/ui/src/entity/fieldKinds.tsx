import type { ComponentType } from 'react';
import { Field, Input, Select, Switch, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { TextField } from '../Form';
import { DateField } from '../date/DateField';
import { UI_NS } from '../i18n';
import { errorOf } from './draft';
import { fieldKind, registerFieldKind, type FieldControlProps } from './registry';
import { fieldKey, type Draft, type FieldDef, type FieldErrors, type FieldKindName, type Translate } from './types';

// minWidth 0: a grid item otherwise grows to its content and spills into the next column.
const useStyles = makeStyles({ cell: { minWidth: 0 }, wide: { gridColumn: '1 / -1', minWidth: 0 } });

/** One form field, by kind. Test ids: `field-<name>` (kinds with parts add suffixes). */
export function EntityField(p: { field: FieldDef; ns: string; prefix?: string; value: unknown; errors: FieldErrors; onChange: (value: unknown) => void; editing?: boolean; disabled?: boolean; draft?: Draft }) {
  const s = useStyles();
  const { t } = useTranslation([p.ns, UI_NS]);
  const kind = fieldKind(p.field.kind);
  if (kind.hidden) return null;
  const Control = kind.Control as ComponentType<FieldControlProps>;
  const hint = 'hint' in p.field && p.field.hint ? t(fieldKey(p, p.field.name, 'hints').map((k) => `${p.ns}:${k}`)) : undefined;
  return (
    <div className={kind.wide ? s.wide : s.cell}>
      <Control field={p.field} ns={p.ns} label={t(fieldKey(p, p.field.name).map((k) => `${p.ns}:${k}`))} value={p.value} onChange={p.onChange}
        error={errorOf(p.errors, p.field.name)} errors={p.errors} t={t as Translate} editing={p.editing ?? false} hint={hint} disabled={p.disabled} draft={p.draft} />
    </div>
  );
}

const stateOf = (error?: string) => ({ validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) });

type Of<K extends FieldKindName> = FieldControlProps<Extract<FieldDef, { kind: K }>, string>;

const inputType = (kind: string) => (kind === 'tel' || kind === 'email' ? kind : 'text');

function TextControl({ field: f, label, value, onChange, error, hint, disabled }: Of<'text' | 'tel' | 'email' | 'textarea'>) {
  if (hint !== undefined) {
    return (
      <Field label={label} required={f.required} hint={hint} {...stateOf(error)}>
        <Input name={f.name} type={inputType(f.kind)} value={String(value)} disabled={disabled} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`} />
      </Field>
    );
  }
  return <TextField name={f.name} label={label} required={f.required} value={String(value)} onChange={onChange} error={error}
    type={inputType(f.kind)} multiline={f.kind === 'textarea'} disabled={disabled} />;
}

function PasswordControl({ field: f, label, value, onChange, error, editing, t, disabled }: Of<'password'>) {
  return (
    <Field label={label} required={f.required && !editing} {...stateOf(error)}>
      <Input type="password" name={f.name} disabled={disabled} autoComplete={f.autoComplete ?? 'new-password'} value={String(value)} onChange={(_, d) => onChange(d.value)}
        placeholder={editing && f.keepPlaceholder ? t(f.keepPlaceholder) : undefined} data-testid={`field-${f.name}`} />
    </Field>
  );
}

function IntControl({ field: f, label, value, onChange, error, t, disabled, hint }: Of<'int'>) {
  return (
    <Field label={label} required={f.required} hint={hint} {...stateOf(error)}>
      <Input name={f.name} type="number" inputMode="numeric" value={String(value)} disabled={disabled} onChange={(_, d) => onChange(d.value)}
        contentAfter={f.unit ? t(f.unit) : undefined} data-testid={`field-${f.name}`} />
    </Field>
  );
}

function SwitchControl({ field: f, label, value, onChange, error, t, hint, disabled }: FieldControlProps<Extract<FieldDef, { kind: 'switch' }>, boolean>) {
  const on = value === true;
  const text = f.states === 'onOff' ? t(`${UI_NS}:${on ? 'on' : 'off'}`) : t(`${UI_NS}:${on ? 'active' : 'inactive'}`);
  return (
    <Field label={label} hint={hint} {...stateOf(error)}>
      <Switch checked={on} disabled={disabled} onChange={(_, d) => onChange(d.checked)} label={text} data-testid={`field-${f.name}`} />
    </Field>
  );
}

function DateControl({ field: f, label, value, onChange, error, disabled }: Of<'date'>) {
  return (
    <Field label={label} required={f.required} {...stateOf(error)}>
      <DateField name={f.name} value={String(value)} disabled={disabled} onChange={onChange} data-testid={`field-${f.name}`} />
    </Field>
  );
}

function ChoiceControl({ field: f, label, value, onChange, error, t, disabled, hint }: Of<'choice'>) {
  return (
    <Field label={label} required={f.required} hint={hint} {...stateOf(error)}>
      <Select name={f.name} value={String(value)} disabled={disabled} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`}>
        {f.placeholder !== undefined && <option value="">{t(f.placeholder)}</option>}
        {Object.entries(f.options).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </Select>
    </Field>
  );
}

registerFieldKind('text', { Control: TextControl });
registerFieldKind('tel', { Control: TextControl });
registerFieldKind('email', { Control: TextControl });
registerFieldKind('password', { Control: PasswordControl });
registerFieldKind('kept', { Control: () => null, hidden: true, toDraft: (x) => x ?? null });
registerFieldKind('textarea', { Control: TextControl, wide: true });
registerFieldKind('int', { Control: IntControl });
registerFieldKind('switch', { Control: SwitchControl, toDraft: (x) => (typeof x === 'boolean' ? x : true) });
registerFieldKind('choice', { Control: ChoiceControl });
registerFieldKind('date', { Control: DateControl });
