import { formatViDate, monthWeeks, parseTime, parseViDate, reversedRange, shiftMonth, VI_MONTHS, VI_WEEKDAYS } from './viDate';

describe('Vietnamese dates', () => {
  it('formats an ISO day as dd/MM/yyyy', () => {
    expect(formatViDate('2026-11-25')).toBe('25/11/2026');
    expect(formatViDate('2026-01-05')).toBe('05/01/2026');
    expect(formatViDate('')).toBe('');
    expect(formatViDate('2026-02-30')).toBe('');
  });

  it('parses typed dd/MM/yyyy and d/M/yyyy back to ISO', () => {
    expect(parseViDate('25/11/2026')).toBe('2026-11-25');
    expect(parseViDate('5/1/2026')).toBe('2026-01-05');
    expect(parseViDate(' 05-01-2026 ')).toBe('2026-01-05');
    expect(parseViDate('2026-11-25')).toBe('2026-11-25');
    expect(parseViDate('29/02/2026')).toBeNull();
    expect(parseViDate('11/25/2026')).toBeNull();
    expect(parseViDate('25/11')).toBeNull();
  });

  it('reads 24-hour times', () => {
    expect(parseTime('9:05')).toBe('09:05');
    expect(parseTime('23:59')).toBe('23:59');
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('10:00 PM')).toBeNull();
  });

  it('starts the week on Monday, with Vietnamese names', () => {
    expect(VI_WEEKDAYS[0]).toBe('T2');
    expect(VI_WEEKDAYS[6]).toBe('CN');
    expect(VI_MONTHS[0]).toBe('Tháng 1');
    expect(VI_MONTHS[11]).toBe('Tháng 12');
    // 1 November 2026 is a Sunday: the last cell of the first week.
    const weeks = monthWeeks(2026, 11);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks[1][0]).toBe('2026-11-02');
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });

  it('moves across years', () => {
    expect(shiftMonth(2026, 12, 1)).toEqual({ y: 2027, m: 1 });
    expect(shiftMonth(2026, 1, -1)).toEqual({ y: 2025, m: 12 });
  });

  it('tells a reversed range', () => {
    expect(reversedRange('2026-11-26', '2026-11-25')).toBe(true);
    expect(reversedRange('2026-11-25', '2026-11-25')).toBe(false);
    expect(reversedRange('', '2026-11-25')).toBe(false);
  });
});
