import { Checkbox, Field, Input, Label, Switch, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '@tongdai/ui';
import { useDataFilter } from './org.api';
import type { FieldDef } from './org.entities';
import { ORG_NS } from './org.i18n';
import type { DraftValue } from './useEntityForm';

const useStyles = makeStyles({
  color: { display: 'flex', gap: '8px', alignItems: 'center' },
  swatch: { width: '32px', height: '32px', padding: 0, border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, cursor: 'pointer' },
  members: { display: 'flex', flexDirection: 'column', maxHeight: '220px', overflowY: 'auto', gap: '2px' },
  wide: { gridColumn: '1 / -1', display: 'flex', flexDirection: 'column', gap: '4px' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

interface Props {
  field: FieldDef;
  value: DraftValue;
  error?: string;
  onChange: (value: DraftValue) => void;
}

/** One form field of an organisation entity, by kind; reference options come from GET /get-data-filter. */
export function OrgField({ field, value, error, onChange }: Props) {
  const s = useStyles();
  const { t } = useTranslation(ORG_NS);
  const options = useDataFilter();
  const label = t(`fields.${field.name}`);
  const state = { validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) };

  switch (field.kind) {
    case 'text':
    case 'tel':
    case 'textarea':
      return (
        <div className={field.kind === 'textarea' ? s.wide : undefined}>
          <TextField name={field.name} label={label} value={String(value)} onChange={onChange} error={error} required={field.required}
            type={field.kind === 'tel' ? 'tel' : 'text'} multiline={field.kind === 'textarea'} />
        </div>
      );
    case 'switch':
      return (
        <Field label={label} {...state}>
          <Switch checked={value === true} onChange={(_, d) => onChange(d.checked)} label={t(value ? 'active' : 'inactive')} data-testid={`field-${field.name}`} />
        </Field>
      );
    case 'color':
      return (
        <Field label={label} {...state}>
          <div className={s.color}>
            <input type="color" className={s.swatch} value={/^#[0-9a-fA-F]{6}$/.test(String(value)) ? String(value) : '#000000'} onChange={(e) => onChange(e.target.value.toUpperCase())} aria-label={label} />
            <Input value={String(value)} onChange={(_, d) => onChange(d.value)} placeholder="#RRGGBB" data-testid={`field-${field.name}`} />
          </div>
        </Field>
      );
    case 'ref': {
      const rows = options.data?.[field.source] ?? [];
      return (
        <SelectField name={field.name} label={label} value={String(value)} onChange={onChange} error={error} required={field.required}
          options={rows.map((o) => ({ value: String(o.id), label: o.name }))} placeholder={t('none')} />
      );
    }
    case 'members': {
      const ids = value as number[];
      const users = options.data?.users ?? [];
      const toggle = (id: number, on: boolean) => onChange(on ? [...ids, id] : ids.filter((x) => x !== id));
      return (
        // Not a Fluent Field: a Field hands its one control id to every checkbox inside, and all
        // the labels then pointed at the first member.
        <div role="group" aria-labelledby="org-members-label" className={s.wide}>
          <Label id="org-members-label">{label}</Label>
          <div className={s.members} data-testid="field-member_ids">
            {users.length === 0 && <Text>{t('group.noUsers')}</Text>}
            {users.map((u) => (
              <Checkbox key={u.id} label={u.name} checked={ids.includes(u.id)} onChange={(_, d) => toggle(u.id, d.checked === true)} data-testid={`member-${u.id}`} />
            ))}
          </div>
          {error && <Text className={s.error}>{error}</Text>}
        </div>
      );
    }
  }
}
