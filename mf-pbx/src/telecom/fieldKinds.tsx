import { useMemo, useState } from 'react';
import * as v from 'valibot';
import { Checkbox, Field, Input, Radio, RadioGroup, Select, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { HotlineInputSchema, SWITCHBOARD_STATUS_LABELS, type Switchboard } from '@tongdai/contracts';
import { registerFieldKind, useApiError, type FieldControlProps, type FieldDef } from '@tongdai/ui';
import { OrderedPicker } from '../shared/OrderedPicker';
import { detectHotline, formatHotline } from './hotlineNumber';
import { TELECOM_NS } from './i18n';
import { useHotlinesAll, useSwitchboardsAll } from './telecom.api';

/** The telecom field kinds, registered with the entity kit (its own: text, int, switch, choice…). */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** Several of a fixed list (codecs): value → label; the value is the chosen keys in the list's order. */
    checks: { options: Readonly<Record<string, string>> };
    /** One of a few choices shown at once: value → label. */
    radio: { options: Readonly<Record<string, string>> };
    /** One of the tenant's switchboards (by id). */
    switchboard: object;
    /** The tenant's switchboards in failover order. */
    switchboards: object;
    /** One of the tenant's hotlines (by number): a caller id. */
    hotline: object;
    /** A hotline number typed, with its kind and carrier said as it is typed. */
    hotlineNumber: object;
  }
}

type Props<K extends FieldDef['kind'], V> = FieldControlProps<Extract<FieldDef, { kind: K }>, V>;

const useStyles = makeStyles({ checks: { display: 'flex', flexWrap: 'wrap', columnGap: '8px' } });

const stateOf = (error?: string) => ({ validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) });
const optionLabel = (r: Switchboard) => `${r.name} — ${SWITCHBOARD_STATUS_LABELS[r.status]}`;
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : []);

function ChecksControl({ field: f, label, value, onChange, error }: Props<'checks', string[]>) {
  const s = useStyles();
  const keys = Object.keys(f.options);
  // The value keeps the list's order whatever order the boxes were ticked in.
  const toggle = (key: string, on: boolean) => onChange(keys.filter((k) => (k === key ? on : value.includes(k))));
  return (
    <Field label={label} required={f.required} {...stateOf(error)}>
      <div role="group" aria-label={label} className={s.checks} data-testid={`field-${f.name}`}>
        {keys.map((k) => (
          <Checkbox key={k} label={f.options[k]} checked={value.includes(k)} onChange={(_, d) => toggle(k, d.checked === true)} data-testid={`field-${f.name}-${k}`} />
        ))}
      </div>
    </Field>
  );
}

function RadioControl({ field: f, label, value, onChange, error }: Props<'radio', string>) {
  return (
    <Field label={label} required={f.required} {...stateOf(error)}>
      <RadioGroup name={f.name} value={value} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`}>
        {Object.entries(f.options).map(([k, l]) => <Radio key={k} value={k} label={l} data-testid={`field-${f.name}-${k}`} />)}
      </RadioGroup>
    </Field>
  );
}

function SwitchboardControl({ field: f, label, value, onChange, error }: Props<'switchboard', string>) {
  const { t } = useTranslation(TELECOM_NS);
  const q = useSwitchboardsAll();
  const loadError = useApiError(q.error);
  const rows = q.data ?? [];
  const hint = q.isSuccess && rows.length === 0 ? t('pick.noSwitchboard') : undefined;
  return (
    <Field label={label} required={f.required} hint={hint} {...stateOf(error ?? loadError?.message)}>
      <Select name={f.name} value={value} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`}>
        <option value="">{t('pick.switchboard')}</option>
        {rows.map((r) => <option key={r.id} value={String(r.id)}>{optionLabel(r)}</option>)}
      </Select>
    </Field>
  );
}

/** Switchboards in failover order: pick one to append it, move it up or down, remove it. */
function SwitchboardsControl({ field: f, label, value: ids, onChange, error }: Props<'switchboards', number[]>) {
  const value = ids.map(String);
  const { t } = useTranslation(TELECOM_NS);
  const q = useSwitchboardsAll();
  const loadError = useApiError(q.error);
  const options = useMemo(() => (q.data ?? []).map((r) => ({ value: String(r.id), label: optionLabel(r) })), [q.data]);
  const nameOf = (id: string) => q.data?.find((r) => String(r.id) === id)?.name ?? (q.isSuccess ? t('pick.gone', { id }) : `#${id}`);
  return (
    <OrderedPicker name={f.name} label={label} required={f.required} value={value} onChange={(xs) => onChange(xs.map(Number))} options={options} labelOf={nameOf} itemAttr="data-id"
      message={error ?? loadError?.message}
      text={{
        empty: t('pick.noneChosen'), add: q.isSuccess && options.length === 0 ? t('pick.noSwitchboard') : t('pick.addSwitchboard'),
        up: (id) => t('pick.up', { name: nameOf(id) }), down: (id) => t('pick.down', { name: nameOf(id) }), remove: (id) => t('pick.remove', { name: nameOf(id) }),
        hint: t('pick.failoverHint'),
      }} />
  );
}

function HotlineControl({ field: f, label, value, onChange, error }: Props<'hotline', string>) {
  const { t } = useTranslation(TELECOM_NS);
  const q = useHotlinesAll();
  const loadError = useApiError(q.error);
  const rows = q.data ?? [];
  // A saved caller id that is no longer a hotline still shows, so the user sees what to change.
  const kept = value && q.isSuccess && !rows.some((r) => r.number === value);
  const hint = q.isSuccess && rows.length === 0 ? t('pick.noHotline') : undefined;
  return (
    <Field label={label} required={f.required} hint={hint} {...stateOf(error ?? loadError?.message)}>
      <Select name={f.name} value={value} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`}>
        <option value="">{t('pick.hotline')}</option>
        {rows.map((r) => <option key={r.id} value={r.number}>{`${formatHotline(r.number)} — ${r.switchboard_name}`}</option>)}
        {kept && <option value={value}>{formatHotline(value)}</option>}
      </Select>
    </Field>
  );
}

const numberSchema = HotlineInputSchema.entries.number;

/** The typed number's kind and carrier as it is typed; the schema's message once the user leaves the field. */
function HotlineNumberControl({ field: f, label, value, onChange, error }: Props<'hotlineNumber', string>) {
  const { t } = useTranslation(TELECOM_NS);
  const [left, setLeft] = useState(false);
  const found = detectHotline(value);
  const parsed = v.safeParse(numberSchema, value);
  const message = error ?? (left && value.trim() !== '' && !parsed.success ? parsed.issues[0].message : undefined);
  const hint = !message && found ? <span data-testid="hotline-detected" data-kind={found.kind} data-carrier={found.carrier ?? ''}>{t('hotline.detected', { kind: found.label })}</span> : undefined;
  return (
    <Field label={label} required={f.required} hint={hint} {...stateOf(message)}>
      <Input name={f.name} type="tel" inputMode="tel" value={value} onChange={(_, d) => { setLeft(false); onChange(d.value); }} onBlur={() => setLeft(true)}
        data-testid={`field-${f.name}`} />
    </Field>
  );
}

registerFieldKind('checks', { Control: ChecksControl, toDraft: strings });
registerFieldKind('radio', { Control: RadioControl });
registerFieldKind('switchboard', { Control: SwitchboardControl });
// The ids as numbers, like the contract's switchboard_ids (the picker's select works in strings).
registerFieldKind('switchboards', { Control: SwitchboardsControl, wide: true, toDraft: (x) => strings(x).map(Number) });
registerFieldKind('hotline', { Control: HotlineControl });
registerFieldKind('hotlineNumber', { Control: HotlineNumberControl });
