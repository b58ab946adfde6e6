import { Field, Input, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { TIME_GROUPS_NS } from './i18n';
import { errorOf, type Draft, type FieldErrors } from '@tongdai/ui';
import { DOM_OPTIONS, DOW_OPTIONS, MONTH_OPTIONS, type RangeField } from './timeRange';

const useStyles = makeStyles({
  box: { gridColumn: '1 / -1', display: 'flex', flexDirection: 'column', gap: '12px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: '12px 16px' },
  hint: { color: tokens.colorNeutralForeground3 },
});

type Options = readonly { value: string; label: string }[];
const SELECTS: [RangeField, Options][] = [
  ['dow_start', DOW_OPTIONS], ['dow_end', DOW_OPTIONS],
  ['dom_start', DOM_OPTIONS], ['dom_end', DOM_OPTIONS],
  ['month_start', MONTH_OPTIONS], ['month_end', MONTH_OPTIONS],
];

/** The parts of one range: time of day, day of week, day of month, month; empty = any. */
export function RangeFields(p: { form: { draft: Draft; errors: FieldErrors; set: (name: string) => (v: unknown) => void } }) {
  const s = useStyles();
  const { t } = useTranslation(TIME_GROUPS_NS);
  const state = (k: RangeField) => {
    const e = errorOf(p.form.errors, k);
    return { validationMessage: e, validationState: e ? ('error' as const) : ('none' as const) };
  };
  const value = (k: RangeField) => String(p.form.draft[k] ?? '');
  return (
    <div className={s.box} data-testid="range-fields">
      <Text size={200} className={s.hint}>{t('rangeHint')}</Text>
      <div className={s.grid}>
        {(['time_start', 'time_end'] as const).map((k) => (
          <Field key={k} label={t(`fields.${k}`)} {...state(k)}>
            {/* Typed 24-hour HH:MM: a native time input shows "08:00 AM" in an English browser. */}
            <Input value={value(k)} onChange={(_, d) => p.form.set(k)(d.value)} placeholder="HH:MM" inputMode="numeric" maxLength={5} data-testid={`field-${k}`} />
          </Field>
        ))}
        {SELECTS.map(([k, options]) => (
          <Field key={k} label={t(`fields.${k}`)} {...state(k)}>
            <Select value={value(k)} onChange={(_, d) => p.form.set(k)(d.value)} data-testid={`field-${k}`}>
              <option value="">{t('any')}</option>
              {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </Select>
          </Field>
        ))}
      </div>
    </div>
  );
}
