import { DAYS_OF_WEEK, type TimeRange, type TimeRangeInput } from '@tongdai/contracts';

/**
 * One range of a time group, in Vietnamese and as form state. Every part is optional (empty =
 * any); a start after its end wraps (Sat–Mon, Nov–Feb, 22:00–06:00), as the engine reads it.
 */

const DAY_NAME = new Map<number, string>(DAYS_OF_WEEK.map((d) => [d.value, d.label]));

/** start–end, a single value when only one side is given or both are equal, `any` when neither. */
function span(start: number | null, end: number | null, label: (n: number) => string, any: string): string {
  if (start === null && end === null) return any;
  if (start === null || end === null || start === end) return label((start ?? end) as number);
  return `${label(start)} – ${label(end)}`;
}

/** "08:00–17:30, Thứ Hai – Thứ Sáu, mọi ngày, mọi tháng". */
export function describeRange(r: TimeRangeInput): string {
  const time = r.time_start && r.time_end
    ? `${r.time_start}–${r.time_end}`
    : r.time_start ? `từ ${r.time_start}` : r.time_end ? `đến ${r.time_end}` : 'cả ngày';
  return [
    time,
    span(r.dow_start, r.dow_end, (n) => DAY_NAME.get(n) ?? String(n), 'mọi ngày trong tuần'),
    span(r.dom_start, r.dom_end, (n) => `ngày ${n}`, 'mọi ngày'),
    span(r.month_start, r.month_end, (n) => `tháng ${n}`, 'mọi tháng'),
  ].join(', ');
}

/** The form state of a range: strings, "" = any (selects and time inputs hand over strings). */
export interface RangeDraft {
  time_start: string;
  time_end: string;
  dow_start: string;
  dow_end: string;
  dom_start: string;
  dom_end: string;
  month_start: string;
  month_end: string;
}
export type RangeField = keyof RangeDraft;

/** Every part empty: the range matches at any time. */
export const isBlankRange = (r: TimeRangeInput): boolean => (Object.values(r) as unknown[]).every((x) => x === '' || x === null || x === undefined);
export const BLANK_RANGE: RangeDraft = { time_start: '', time_end: '', dow_start: '', dow_end: '', dom_start: '', dom_end: '', month_start: '', month_end: '' };

/** A saved range as form state (a time the database answers as HH:MM:SS is shown as HH:MM). */
export function rangeToDraft(r: TimeRange | TimeRangeInput): RangeDraft {
  const s = (x: number | null | undefined) => (x === null || x === undefined ? '' : String(x));
  const hm = (x: string | null | undefined) => (x ?? '').slice(0, 5);
  return {
    time_start: hm(r.time_start), time_end: hm(r.time_end),
    dow_start: s(r.dow_start), dow_end: s(r.dow_end),
    dom_start: s(r.dom_start), dom_end: s(r.dom_end),
    month_start: s(r.month_start), month_end: s(r.month_end),
  };
}

/** Select options: days of week (1 Monday … 7 Sunday), days of month, months. */
export const DOW_OPTIONS = DAYS_OF_WEEK.map((d) => ({ value: String(d.value), label: d.label }));
export const DOM_OPTIONS = Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
export const MONTH_OPTIONS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: `Tháng ${i + 1}` }));
