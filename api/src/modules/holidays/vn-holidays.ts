import { HOLIDAY_NAMES, type Holiday, type HolidayKey, type HolidayOverride, type LunarDay } from '@tongdai/contracts';
import { convertSolar2Lunar } from 'vietnamese-lunar-calendar/build/solar-lunar/convert-lunar';
import { convertLunar2Solar } from 'vietnamese-lunar-calendar/build/solar-lunar/convert-solar';

/**
 * Vietnam's public holidays of a year (Labour Code 2019 art. 112), computed: no I/O, the same for
 * every tenant (ADR 0063). Lunar dates come from `vietnamese-lunar-calendar` (Hồ Ngọc Đức's
 * algorithm) at UTC+7, Vietnam's zone: Chinese calendars (UTC+8) put some new moons a day later
 * (Tết 2007: 17/02 here, 18/02 in China; Tết 1985: 21/01 here, 20/02 there).
 *
 * Defaults the government may move each year (a tenant's overrides correct a given year):
 * - Tết Nguyên Đán: five days, the last day of the old lunar year (29 or 30 tháng Chạp) to mùng 4;
 * - Quốc khánh: 2/9 and the day before it, 1/9 (the day beside it the government picked in most
 *   recent years; 3/9 instead is an override: remove 1/9, add 3/9).
 * Compensating days for holidays on a weekend are announced, not computed: overrides add them.
 */

/** Vietnam's zone for the lunar computation (UTC+7). */
const VN_TZ = 7;
const DAY_MS = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The solar day (yyyy-MM-dd) of a day of a (non-leap) lunar month of `year`. */
export function lunarToSolar(day: number, month: number, year: number): string {
  const d = convertLunar2Solar(day, month, year, 0, VN_TZ);
  // The package answers [0, 0, 0] for a leap month the year lacks (never asked here) and a local Date otherwise.
  if (!(d instanceof Date)) throw new Error(`no solar day for ${day}/${month}/${year} âm lịch`);
  return isoDay(d.getFullYear(), d.getMonth() + 1, d.getDate());
}

/** The lunar date of a solar day (yyyy-MM-dd). */
export function solarToLunar(day: string): LunarDay {
  const [y, m, d] = parts(day);
  const l = convertSolar2Lunar(d, m, y, VN_TZ);
  return { day: l.date, month: l.month, leap: l.isLeap };
}

const computedYears = new Map<number, Holiday[]>();

/** The holidays of a solar year as the law computes them, in date order (every day of them falls in that year). */
export function computedHolidays(year: number): Holiday[] {
  const known = computedYears.get(year);
  if (known) return known;
  const days: { date: string; key: HolidayKey; lunar: LunarDay | null }[] = [];
  const add = (date: string, key: HolidayKey, lunar: LunarDay | null = null) => days.push({ date, key, lunar });
  add(isoDay(year, 1, 1), 'new_year');
  const tet = lunarToSolar(1, 1, year);
  const eve = addDays(tet, -1);
  add(eve, 'tet', solarToLunar(eve));
  for (let i = 0; i < 4; i++) add(addDays(tet, i), 'tet', { day: i + 1, month: 1, leap: false });
  add(lunarToSolar(10, 3, year), 'hung_kings', { day: 10, month: 3, leap: false });
  add(isoDay(year, 4, 30), 'reunification');
  add(isoDay(year, 5, 1), 'labour');
  add(isoDay(year, 9, 1), 'national_day');
  add(isoDay(year, 9, 2), 'national_day');
  // Giỗ Tổ can fall on 30/4 or 1/5: one day, both names.
  const byDate = new Map<string, Holiday>();
  for (const d of days) {
    const same = byDate.get(d.date);
    if (same) same.name = `${same.name} và ${HOLIDAY_NAMES[d.key]}`;
    else byDate.set(d.date, { date: d.date, name: HOLIDAY_NAMES[d.key], key: d.key, lunar: d.lunar, source: 'computed', override_id: null });
  }
  const list = [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
  computedYears.set(year, list);
  return list;
}

/** Whether `date` is one of the computed holidays of its year. */
export const isComputedHoliday = (date: string): boolean => computedHolidays(parts(date)[0]).some((h) => h.date === date);

/**
 * A year's list with the tenant's overrides of that year applied: a removed day stays in the list
 * (source `removed`, so the screen can show and undo it) but is not in force; a renamed one takes
 * the override's name; an added one joins. Date order.
 */
export function applyOverrides(computed: readonly Holiday[], overrides: readonly Pick<HolidayOverride, 'id' | 'date' | 'action' | 'name'>[]): Holiday[] {
  const byDate = new Map(computed.map((h) => [h.date, { ...h }]));
  for (const o of overrides) {
    const day = byDate.get(o.date);
    if (o.action === 'remove') {
      if (day) Object.assign(day, { source: 'removed', override_id: o.id });
    } else if (day) {
      Object.assign(day, { name: o.name, source: 'renamed', override_id: o.id });
    } else if (o.action === 'add') {
      byDate.set(o.date, { date: o.date, name: o.name, key: null, lunar: null, source: 'added', override_id: o.id });
    }
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The days of a list that are holidays (all but the removed ones). */
export const daysInForce = (list: readonly Holiday[]): string[] => list.filter((h) => h.source !== 'removed').map((h) => h.date);
