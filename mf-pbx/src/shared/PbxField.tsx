import { Field, Input, Select, Switch, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Destination } from '@tongdai/contracts';
import { TextField } from '@tongdai/ui';
import { DestinationField } from './DestinationField';
import { errorOf } from './draft';
import { WIDE_KINDS, type DraftValue, type FieldErrors, type IvrEntryDraft, type PbxFieldDef } from './entity';
import { ExtensionsPicker } from './ExtensionsPicker';
import { IvrEntriesField } from './IvrEntriesField';
import { PBX_NS } from './pbx.i18n';
import { SourceSelect } from './SourceSelect';

// minWidth 0: a grid item otherwise grows to its content and spills into the next column.
const useStyles = makeStyles({ cell: { minWidth: 0 }, wide: { gridColumn: '1 / -1', minWidth: 0 } });

interface Props {
  field: PbxFieldDef;
  /** The area's namespace: labels are `fields.<name>`, hints `hints.<name>`. */
  ns: string;
  value: DraftValue;
  errors: FieldErrors;
  onChange: (value: DraftValue) => void;
}

/** One form field of a PBX object, by kind. Test ids: `field-<name>` (destinations: `-type`, `-target`). */
export function PbxField(p: Props) {
  const s = useStyles();
  const { t } = useTranslation([p.ns, PBX_NS]);
  return <div className={WIDE_KINDS.includes(p.field.kind) ? s.wide : s.cell}><Control {...p} t={t} /></div>;
}

function Control({ field: f, ns, value, errors, onChange, t }: Props & { t: (k: string, o?: Record<string, unknown>) => string }) {
  const label = t(`${ns}:fields.${f.name}`);
  const error = errorOf(errors, f.name);
  const state = { validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) };
  const common = (k: string) => t(`${PBX_NS}:${k}`);
  switch (f.kind) {
    case 'text':
    case 'tel':
    case 'textarea':
      if (f.hint) {
        return (
          <Field label={label} required={f.required} hint={t(`${ns}:hints.${f.name}`)} {...state}>
            <Input name={f.name} type={f.kind === 'tel' ? 'tel' : 'text'} value={String(value)} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`} />
          </Field>
        );
      }
      return <TextField name={f.name} label={label} required={f.required} value={String(value)} onChange={onChange} error={error}
        type={f.kind === 'tel' ? 'tel' : 'text'} multiline={f.kind === 'textarea'} />;
    case 'int':
      return (
        <Field label={label} required={f.required} {...state}>
          <Input name={f.name} type="number" inputMode="numeric" value={String(value)} onChange={(_, d) => onChange(d.value)}
            contentAfter={f.unit ? common(f.unit) : undefined} data-testid={`field-${f.name}`} />
        </Field>
      );
    case 'switch': {
      const on = value === true;
      const text = f.states === 'onOff' ? common(on ? 'on' : 'off') : common(on ? 'active' : 'inactive');
      return (
        <Field label={label} {...state}>
          <Switch checked={on} onChange={(_, d) => onChange(d.checked)} label={text} data-testid={`field-${f.name}`} />
        </Field>
      );
    }
    case 'choice':
      return (
        <Field label={label} required={f.required} {...state}>
          <Select name={f.name} value={String(value)} onChange={(_, d) => onChange(d.value)} data-testid={`field-${f.name}`}>
            {Object.entries(f.options).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </Select>
        </Field>
      );
    case 'did':
    case 'greeting':
    case 'moh':
      return <SourceSelect source={f.kind} name={f.name} label={label} required={f.required} value={String(value)} onChange={onChange} error={error} />;
    case 'destination':
      return <DestinationField name={f.name} label={label} required={f.required} noneLabel={f.required ? undefined : common('hangUp')}
        value={value as Destination | null} onChange={onChange} error={error} />;
    case 'extensions':
      return <ExtensionsPicker name={f.name} label={label} required value={value as string[]} onChange={onChange} error={error} />;
    case 'ivrEntries':
      return <IvrEntriesField name={f.name} label={label} value={value as IvrEntryDraft[]} onChange={onChange} errors={errors} />;
  }
}
