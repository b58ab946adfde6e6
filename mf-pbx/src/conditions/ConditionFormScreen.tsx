import { Field, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { TIME_OVERRIDES, TIME_OVERRIDE_LABELS, type TimeCondition, type TimeOverride } from '@tongdai/contracts';
import { EntityField, ErrorState, FormShell, LoadingState, errorOf, useApiError, useEntityForm, type FieldDef } from '@tongdai/ui';
import { conditionEntity } from './conditions.entity';
import { CONDITIONS_NS } from './i18n';
import { TimeGroupSelect } from './TimeGroupSelect';
import { describeOverride, timezoneOptions } from './timezones';

const field = (name: string) => conditionEntity.fields.find((f) => f.name === name) as FieldDef;
const wide = { gridColumn: '1 / -1' };
// A grid cell grows to its content's width: without minWidth 0 the long time-zone names push the
// time-zone select over the override box beside it, and their hints run into each other.
const cell = { minWidth: 0 };
const fill = { root: { style: { width: '100%', minWidth: 0 } }, style: { minWidth: 0 } };

/** /conditions/add and /conditions/edit/:id. */
export default function ConditionFormScreen() {
  const { t } = useTranslation(CONDITIONS_NS);
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const { existing, form, submit, formError, saving } = useEntityForm(conditionEntity as never, id);
  const loadError = useApiError(existing.error);
  const { draft, errors, set } = form;

  if (id !== null && existing.isPending) return <LoadingState />;
  if (id !== null && existing.isError) return <ErrorState message={loadError?.message ?? ''} onRetry={() => void existing.refetch()} />;

  const shared = (name: string) => (
    <EntityField field={field(name)} ns={CONDITIONS_NS} value={draft[name]} errors={errors} onChange={set(name)} />
  );
  const state = (name: string) => {
    const e = errorOf(errors, name);
    return { validationMessage: e, validationState: e ? ('error' as const) : ('none' as const) };
  };
  // The override in force, and until when, as the API computed it at the last save.
  const saved = existing.data as TimeCondition | undefined;
  const active = saved && saved.override !== 'none' && saved.override === draft.override ? describeOverride(saved) : null;

  return (
    <FormShell title={t(id === null ? 'addTitle' : 'editTitle')} testId="condition-form" submitting={saving} error={formError}
      onSubmit={() => void submit().then((ok) => ok && navigate(conditionEntity.paths.list))} backTo={conditionEntity.paths.list}>
      {shared('name')}
      <TimeGroupSelect value={String(draft.time_group_id)} onChange={set('time_group_id')} error={errorOf(errors, 'time_group_id')} />
      <div style={wide}>{shared('matched_destination')}</div>
      <div style={wide}>{shared('unmatched_destination')}</div>
      <Field style={cell} label={t('fields.override')} hint={active ? t('overrideActive', { state: active }) : t('overrideHint')} {...state('override')}>
        <Select {...fill} value={String(draft.override)} onChange={(_, d) => set('override')(d.value as TimeOverride)} data-testid="field-override">
          {TIME_OVERRIDES.map((o) => <option key={o} value={o}>{TIME_OVERRIDE_LABELS[o]}</option>)}
        </Select>
      </Field>
      <Field style={cell} label={t('fields.timezone')} hint={t('timezoneHint')} {...state('timezone')}>
        <Select {...fill} value={String(draft.timezone)} onChange={(_, d) => set('timezone')(d.value)} data-testid="field-timezone">
          {timezoneOptions(String(draft.timezone)).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </Select>
      </Field>
      {shared('description')}
    </FormShell>
  );
}
