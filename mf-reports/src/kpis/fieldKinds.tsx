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

/**
 * Two fields side by side, each with its own label and message: "Loại đối tượng" and "Giao cho" (the
 * row of that type). A missing row is said under the row's select, never under the type's.
 */
function AssigneeControl({ field, label, value, onChange, errors, t }: Props<'assignee', Assignee>) {
  const s = useStyles();
  const rows = useAssignees().data?.[value.type] ?? [];
  const typeError = errors[`${field.name}.type`];
  const idError = errors[`${field.name}.id`] ?? errors[field.name];
  return (
    <div className={s.pair}>
      <Field label={t('fields.assignee_type')} required={field.required} {...stateOf(typeError)}>
        <Select value={value.type} onChange={(_, d) => onChange({ type: d.value as KpiAssigneeType, id: '' })} data-testid="field-assignee-type">
          {Object.entries(KPI_ASSIGNEE_TYPES).map(([k, l]) => <option key={k} value={k}>{l}</option>)}
        </Select>
      </Field>
      <Field label={label} required={field.required} {...stateOf(idError)}>
        <Select value={value.id} onChange={(_, d) => onChange({ ...value, id: d.value })} data-testid="field-assignee-id">
          <option value="">{t('choose')}</option>
          {rows.map((r) => <option key={r.id} value={String(r.id)}>{r.name}</option>)}
        </Select>
      </Field>
    </div>
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
