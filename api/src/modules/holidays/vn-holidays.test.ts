import { applyOverrides, computedHolidays, daysInForce, isComputedHoliday, lunarToSolar, solarToLunar } from './vn-holidays';

const days = (year: number, key: string) => computedHolidays(year).filter((h) => h.key === key).map((h) => h.date);

describe('the Vietnamese lunar calendar (UTC+7) of vietnamese-lunar-calendar, pinned to known dates', () => {
  it.each([
    ['Tết 2026', '2026-02-17', 2026],
    ['Tết 2027', '2027-02-06', 2027],
    ['Tết 2025', '2025-01-29', 2025],
    // Where Chinese calendars (UTC+8) differ: China's Tết 2007 was 18/02, 1985's 20/02.
    ['Tết 2007', '2007-02-17', 2007],
    ['Tết 1985', '1985-01-21', 1985],
  ])('%s: mùng 1 tháng Giêng is %s', (_, day, year) => {
    expect(lunarToSolar(1, 1, year)).toBe(day);
    expect(solarToLunar(day)).toEqual({ day: 1, month: 1, leap: false });
  });

  it('Giỗ Tổ 2026 (10/3 âm lịch) is 26/04/2026', () => {
    expect(lunarToSolar(10, 3, 2026)).toBe('2026-04-26');
    expect(days(2026, 'hung_kings')).toEqual(['2026-04-26']);
  });
});

describe('computedHolidays', () => {
  it('2026: 1/1, Tết from 29 tháng Chạp to mùng 4, Giỗ Tổ, 30/4, 1/5, 1/9 and 2/9', () => {
    expect(computedHolidays(2026).map((h) => [h.date, h.name, h.lunar && `${h.lunar.day}/${h.lunar.month}`])).toEqual([
      ['2026-01-01', 'Tết Dương lịch', null],
      ['2026-02-16', 'Tết Nguyên Đán', '29/12'],
      ['2026-02-17', 'Tết Nguyên Đán', '1/1'],
      ['2026-02-18', 'Tết Nguyên Đán', '2/1'],
      ['2026-02-19', 'Tết Nguyên Đán', '3/1'],
      ['2026-02-20', 'Tết Nguyên Đán', '4/1'],
      ['2026-04-26', 'Giỗ Tổ Hùng Vương', '10/3'],
      ['2026-04-30', 'Ngày Giải phóng miền Nam, thống nhất đất nước', null],
      ['2026-05-01', 'Ngày Quốc tế Lao động', null],
      ['2026-09-01', 'Quốc khánh', null],
      ['2026-09-02', 'Quốc khánh', null],
    ]);
  });

  it('Tết is five days from the last day of the old year, 30 tháng Chạp when the month is long', () => {
    expect(days(2027, 'tet')).toEqual(['2027-02-05', '2027-02-06', '2027-02-07', '2027-02-08', '2027-02-09']);
    expect(days(2025, 'tet')).toEqual(['2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-01']);
    // 2024: Tết on 10/02, the eve 09/02 was 30 tháng Chạp.
    expect(computedHolidays(2024).find((h) => h.key === 'tet')).toMatchObject({ date: '2024-02-09', lunar: { day: 30, month: 12 } });
  });

  it('every year from 2000 to 2100 has its eleven days in that year, Tết between 21/01 and 20/02', () => {
    for (let y = 2000; y <= 2100; y++) {
      const list = computedHolidays(y);
      expect([y, list.length, list.every((h) => h.date.startsWith(`${y}-`))]).toEqual([y, 11, true]);
      const tet = lunarToSolar(1, 1, y);
      expect([y, tet >= `${y}-01-21` && tet <= `${y}-02-20`]).toEqual([y, true]);
    }
  });

  it('knows which days are computed holidays', () => {
    expect(isComputedHoliday('2027-02-06')).toBe(true);
    expect(isComputedHoliday('2027-02-10')).toBe(false);
  });
});

describe('applyOverrides', () => {
  const overrides = [
    { id: 1, date: '2026-02-23', action: 'add' as const, name: 'Nghỉ bù Tết' },
    { id: 2, date: '2026-09-01', action: 'remove' as const, name: '' },
    { id: 3, date: '2026-04-30', action: 'rename' as const, name: 'Ngày Thống nhất' },
  ];
  const list = applyOverrides(computedHolidays(2026), overrides);

  it('adds a day, keeps a removed one marked, renames one; in date order', () => {
    expect(list.find((h) => h.date === '2026-02-23')).toEqual({ date: '2026-02-23', name: 'Nghỉ bù Tết', key: null, lunar: null, source: 'added', override_id: 1 });
    expect(list.find((h) => h.date === '2026-09-01')).toMatchObject({ source: 'removed', override_id: 2, name: 'Quốc khánh' });
    expect(list.find((h) => h.date === '2026-04-30')).toMatchObject({ source: 'renamed', name: 'Ngày Thống nhất', key: 'reunification' });
    expect(list.map((h) => h.date)).toEqual([...list.map((h) => h.date)].sort());
  });

  it('the days in force leave the removed day out and take the added one', () => {
    const inForce = daysInForce(list);
    expect(inForce).toContain('2026-02-23');
    expect(inForce).not.toContain('2026-09-01');
    expect(inForce).toHaveLength(11);
  });

  it('does not change the computed list it was given', () => {
    expect(computedHolidays(2026).every((h) => h.source === 'computed')).toBe(true);
  });
});
