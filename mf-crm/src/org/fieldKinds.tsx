import { Checkbox, Field, Input, Label, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { DataFilter } from '@tongdai/contracts';
import { SelectField, registerFieldKind, type FieldControlProps, type FieldDef } from '@tongdai/ui';
import { useDataFilter } from './org.api';
import { ORG_NS } from './org.i18n';

/** The organisation's own field kinds, registered with the entity kit; options come from GET /get-data-filter. */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** One of the tenant's rows (a department, a user…), "" = none. */
    ref: { source: Exclude<keyof DataFilter, 'teams'> };
    /** The users of a group, ticked. */
    members: object;
    /** A #RRGGBB colour. */
    color: object;
  }
}

const useStyles = makeStyles({
  color: { display: 'flex', gap: '8px', alignItems: 'center' },
  swatch: { width: '32px', height: '32px', padding: 0, border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, cursor: 'pointer' },
  members: { display: 'flex', flexDirection: 'column', maxHeight: '220px', overflowY: 'auto', gap: '2px' },
  wide: { display: 'flex', flexDirection: 'column', gap: '4px' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

type Props<K extends FieldDef['kind'], V> = FieldControlProps<Extract<FieldDef, { kind: K }>, V>;
const stateOf = (error?: string) => ({ validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) });

function RefControl({ field, label, value, onChange, error }: Props<'ref', string>) {
  const { t } = useTranslation(ORG_NS);
  const options = useDataFilter();
  const rows = options.data?.[field.source] ?? [];
  return (
    <SelectField name={field.name} label={label} value={String(value)} onChange={onChange} error={error} required={field.required}
      options={rows.map((o) => ({ value: String(o.id), label: o.name }))} placeholder={t('none')} />
  );
}

function ColorControl({ field, label, value, onChange, error }: Props<'color', string>) {
  const s = useStyles();
  return (
    <Field label={label} {...stateOf(error)}>
      <div className={s.color}>
        <input type="color" className={s.swatch} value={/^#[0-9a-fA-F]{6}$/.test(String(value)) ? String(value) : '#000000'} onChange={(e) => onChange(e.target.value.toUpperCase())} aria-label={label} />
        <Input value={String(value)} onChange={(_, d) => onChange(d.value)} placeholder="#RRGGBB" data-testid={`field-${field.name}`} />
      </div>
    </Field>
  );
}

function MembersControl({ label, value, onChange, error }: Props<'members', number[]>) {
  const s = useStyles();
  const { t } = useTranslation(ORG_NS);
  const options = useDataFilter();
  const ids = value;
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

registerFieldKind('ref', { Control: RefControl });
registerFieldKind('color', { Control: ColorControl });
registerFieldKind('members', { Control: MembersControl, wide: true, toDraft: (x) => (Array.isArray(x) ? (x as number[]) : []) });
