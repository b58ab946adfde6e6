import { formatViDate, formatViDateTime, formatViDay, formatViTime, monthWeeks, parseTime, parseViDate, reversedRange, shiftMonth, VI_MONTHS, VI_WEEKDAYS } from './viDate';

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

  it('writes instants in Vietnam time, 24 hours, whatever the locale: an afternoon reads 14:05, never 2:05 PM', () => {
    const afternoon = '2026-11-29T07:05:09Z'; // 14:05:09 in Vietnam
    // What a browser in English made of it (the locale the en-US e2e browser has).
    expect(new Date(afternoon).toLocaleTimeString('en-US', { timeZone: 'Asia/Ho_Chi_Minh' })).toBe('2:05:09 PM');
    expect(formatViTime(afternoon)).toBe('14:05');
    expect(formatViTime(afternoon, { seconds: true })).toBe('14:05:09');
    expect(formatViDateTime(afternoon)).toBe('29/11/2026 14:05:09');
    expect(formatViDateTime(new Date(afternoon), { seconds: false })).toBe('29/11/2026 14:05');
    expect(formatViDateTime(Date.parse(afternoon))).not.toMatch(/AM|PM|SA|CH/);
    // Midnight is 00, not 24; the day is Vietnam's (17:30 UTC is the next morning there).
    expect(formatViDateTime('2026-11-29T17:00:00Z')).toBe('30/11/2026 00:00:00');
    expect(formatViDay('2026-11-29T17:30:00Z')).toBe('30/11/2026');
    expect(formatViTime('2026-11-29T10:00:00+07:00')).toBe('10:00');
    expect([formatViDateTime(null), formatViTime(''), formatViDay('not a time')]).toEqual(['', '', '']);
  });
});
