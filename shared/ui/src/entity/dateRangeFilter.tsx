import { useState } from 'react';
import { Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { DATE_PRESETS, REPORT_MSG, presetRange, vnDay, type DatePreset } from '@tongdai/contracts';
import { DateField } from '../date/DateField';
import { reversedRange } from '../date/viDate';
import { UI_NS } from '../i18n';
import type { EntityFilter } from './types';

/** ?range= in the URL: a preset name, or two Vietnam days of one's own as "YYYY-MM-DD~YYYY-MM-DD". */
export const RANGE_SEPARATOR = '~';

/** What an empty ?range= means: today (a report), or no bound at all (a log read newest first). */
export type EmptyRange = 'today' | 'all';

/** The Vietnam days a ?range= value covers, as a list's from/to (a preset is read on today's Vietnam date). */
export function rangeDays(range: string, empty: EmptyRange = 'today'): { from?: string; to?: string } {
  if (range.includes(RANGE_SEPARATOR)) {
    const [from, to] = range.split(RANGE_SEPARATOR);
    return { ...(from && { from }), ...(to && { to }) };
  }
  if (!range && empty === 'all') return {};
  return presetRange((range || 'today') as DatePreset) ?? {};
}

/**
 * The ?range= of a URL; a URL that names its days as ?from=&to= instead (typed, or an older link)
 * means the same two days, so a reversed pair there is caught like one in ?range=.
 */
export function urlRange(params: URLSearchParams): string {
  const range = params.get('range');
  if (range !== null) return range;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return from || to ? `${from}${RANGE_SEPARATOR}${to}` : '';
}

/** Whether a ?range= value runs backwards (a start after its end, typed into the URL): nothing is asked of the API then. */
export function rangeHeld(range: string, empty: EmptyRange = 'today'): boolean {
  const days = rangeDays(range, empty);
  return reversedRange(days.from, days.to);
}

const useStyles = makeStyles({
  range: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/**
 * A list filter over days, kept in ?<key>= (default `range`): the presets of DATE_PRESETS (Hôm nay,
 * Hôm qua, 7 ngày qua, Tháng này, Tháng trước) or two dates of one's own; with `empty: 'all'` the
 * first choice is "Tất cả thời gian" (nothing in the URL). The list's `listParams` turns the value
 * into from/to with rangeDays. A reversed range, typed or in the URL, is said beside the fields and
 * holds the list (`held`): no request, no error card.
 */
export function dateRangeFilter(spec: { key?: string; empty?: EmptyRange } = {}): EntityFilter {
  const key = spec.key ?? 'range';
  const empty = spec.empty ?? 'today';
  function Control({ value, onChange }: { value: string; onChange: (value: string) => void }) {
    const s = useStyles();
    const { t } = useTranslation(UI_NS);
    const custom = value.includes(RANGE_SEPARATOR);
    const days = rangeDays(value, empty);
    // A reversed pair stays here, told beside the fields, and is not sent (the list keeps the last good range).
    const [held, setHeld] = useState<{ from: string; to: string } | null>(null);
    const shown = held ?? { from: days.from ?? '', to: days.to ?? '' };
    const setDays = (from: string, to: string) => {
      if (reversedRange(from, to)) return setHeld({ from, to });
      setHeld(null);
      onChange(`${from}${RANGE_SEPARATOR}${to}`);
    };
    const pick = (preset: string) => {
      setHeld(null);
      if (preset !== 'custom') return onChange(preset === empty ? '' : preset);
      const today = vnDay(new Date());
      setDays(days.from ?? today, days.to ?? today);
    };
    const presets = Object.entries(DATE_PRESETS);
    return (
      <span className={s.range}>
        <Select value={custom ? 'custom' : value || empty} onChange={(_, d) => pick(d.value)} aria-label={t('range.label')} data-testid="range-filter">
          {empty === 'all' && <option value="all">{t('range.all')}</option>}
          {presets.map(([k, label]) => <option key={k} value={k}>{label}</option>)}
        </Select>
        {custom && (
          <>
            <DateField value={shown.from} onChange={(from) => setDays(from, shown.to)} aria-label={t('range.from')} data-testid="range-from" />
            <DateField value={shown.to} onChange={(to) => setDays(shown.from, to)} aria-label={t('range.to')} data-testid="range-to" />
            {reversedRange(shown.from, shown.to) && <Text role="alert" className={s.error} data-testid="range-error">{REPORT_MSG.endBeforeStart}</Text>}
          </>
        )}
      </span>
    );
  }
  return { key, Control, held: (value) => rangeHeld(value, empty) };
}
