import { Field, Select, makeStyles } from '@fluentui/react-components';
import { KPI_ASSIGNEE_TYPES, type KpiAssigneeType } from '@tongdai/contracts';
import { registerFieldKind, type FieldControlProps, type FieldDef } from '@tongdai/ui';
import { useAssignees } from './kpis.api';

/** The KPI form's own field kind, registered with the entity kit: an assignee picked by type (a day is the kit's `date`). */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** { type: user | team | department, id }: the type first, then one of its rows. */
    assignee: object;
  }
}

type Props<K extends FieldDef['kind'], V> = FieldControlProps<Extract<FieldDef, { kind: K }>, V>;
type Assignee = { type: KpiAssigneeType; id: string };
const stateOf = (error?: string) => ({ validationMessage: error, validationState: error ? ('error' as const) : ('none' as const) });
const useStyles = makeStyles({ pair: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2fr)', gap: '8px' } });

function AssigneeControl({ field, label, value, onChange, errors, t }: Props<'assignee', Assignee>) {
  const s = useStyles();
  const rows = useAssignees().data?.[value.type] ?? [];
  const error = errors[`${field.name}.type`] ?? errors[`${field.name}.id`] ?? errors[field.name];
  return (
    <Field label={label} required={field.required} {...stateOf(error)}>
      <div className={s.pair}>
        <Select aria-label={t('fields.assignee_type')} value={value.type} onChange={(_, d) => onChange({ type: d.value as KpiAssigneeType, id: '' })} data-testid="field-assignee-type">
          {Object.entries(KPI_ASSIGNEE_TYPES).map(([k, l]) => <option key={k} value={k}>{l}</option>)}
        </Select>
        <Select aria-label={label} value={value.id} onChange={(_, d) => onChange({ ...value, id: d.value })} data-testid="field-assignee-id">
          <option value="">{t('choose')}</option>
          {rows.map((r) => <option key={r.id} value={String(r.id)}>{r.name}</option>)}
        </Select>
      </div>
    </Field>
  );
}

registerFieldKind('assignee', {
  Control: AssigneeControl,
  wide: true,
  toDraft: (x): Assignee => {
    const a = x as { type?: KpiAssigneeType; id?: number } | undefined;
    return { type: a?.type ?? 'user', id: a?.id ? String(a.id) : '' };
  },
});
