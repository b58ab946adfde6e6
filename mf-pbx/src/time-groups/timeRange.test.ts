import { PBX_MSG, type TimeRangeInput } from '@tongdai/contracts';
import { parseDraft } from '@tongdai/ui';
import { describeRange, rangeToDraft } from './timeRange';
import { rangeForm } from './useTimeGroupForms';

const any: TimeRangeInput = { time_start: '', time_end: '', dow_start: null, dow_end: null, dom_start: null, dom_end: null, month_start: null, month_end: null };
const office: TimeRangeInput = { ...any, time_start: '08:00', time_end: '17:30', dow_start: 1, dow_end: 5 };
const parse = (d: Record<string, string>) => parseDraft(rangeForm.schema, d);

describe('describeRange', () => {
  it('office hours, Monday to Friday, any day and month', () => {
    expect(describeRange(office)).toBe('08:00–17:30, Thứ Hai – Thứ Sáu, mọi ngày, mọi tháng');
  });

  it('every part empty reads "any"', () => {
    expect(describeRange(any)).toBe('cả ngày, mọi ngày trong tuần, mọi ngày, mọi tháng');
  });

  it('Sunday is 7; wrapping spans keep their order; one-sided parts are single values', () => {
    expect(describeRange({ ...any, time_start: '22:00', time_end: '06:00', dow_start: 6, dow_end: 1, month_start: 11, month_end: 2 }))
      .toBe('22:00–06:00, Thứ Bảy – Thứ Hai, mọi ngày, tháng 11 – tháng 2');
    expect(describeRange({ ...any, dow_start: 7, dow_end: 7, dom_start: 1, dom_end: 15 })).toBe('cả ngày, Chủ Nhật, ngày 1 – ngày 15, mọi tháng');
    expect(describeRange({ ...any, time_start: '13:00', dom_start: 31, month_end: 12 })).toBe('từ 13:00, mọi ngày trong tuần, ngày 31, tháng 12');
    expect(describeRange({ ...any, time_end: '12:00' })).toBe('đến 12:00, mọi ngày trong tuần, mọi ngày, mọi tháng');
  });
});

describe('range form ↔ input', () => {
  it('a saved range becomes select/time strings and parses back to the same input', () => {
    const saved = { ...office, id: 4, dom_start: 1, dom_end: 31, month_start: 1, month_end: 12 };
    const draft = rangeToDraft(saved);
    expect(draft).toEqual({ time_start: '08:00', time_end: '17:30', dow_start: '1', dow_end: '5', dom_start: '1', dom_end: '31', month_start: '1', month_end: '12' });
    const { id: _id, ...input } = saved;
    expect(parse({ ...draft })).toEqual({ ok: true, input });
  });

  it('"" means any (null), and a database time HH:MM:SS shows as HH:MM', () => {
    const draft = rangeToDraft({ ...any, time_start: '08:00:00' as string, time_end: '17:30:00' as string, dow_start: 1 });
    expect(draft.time_start).toBe('08:00');
    expect(draft.dow_end).toBe('');
    expect(parse({ ...draft })).toEqual({ ok: true, input: { ...any, time_start: '08:00', time_end: '17:30', dow_start: 1 } });
  });

  it('refuses what the API refuses, with its messages, under each field', () => {
    const r = parse({ ...rangeToDraft(any), time_start: '24:00', dow_end: '8' });
    expect(r).toEqual({ ok: false, errors: { time_start: PBX_MSG.timeFormat, dow_end: 'Giá trị không hợp lệ' } });
  });
});
