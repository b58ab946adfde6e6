import * as v from 'valibot';
import { INVALID, max } from './messages';

/**
 * Vietnamese public holidays (Labour Code 2019 art. 112) in time groups (issue 39, ADR 0063): the
 * API computes each year's days, lunar ones with the Vietnamese calendar (UTC+7), and applies the
 * tenant's overrides of that year (the government's swapped and compensating days).
 */

/**
 * How a time group treats the holidays, on the whole local day of each:
 * - none: its ranges alone;
 * - include: it ALSO holds on every holiday (a "Ngày lễ" group: time condition → closed message);
 * - exclude: it holds in its ranges except on holidays ("Giờ làm việc, trừ ngày lễ": office hours
 *   that route to the closed destination on Tết).
 */
export const HOLIDAY_MODES = ['none', 'include', 'exclude'] as const;
export type HolidayMode = (typeof HOLIDAY_MODES)[number];
export const HOLIDAY_MODE_LABELS: Record<HolidayMode, string> = {
  none: 'Không tính ngày lễ',
  include: 'Gồm cả ngày lễ',
  exclude: 'Trừ ngày lễ',
};

/** The computed holidays, each with its Vietnamese name. */
export const HOLIDAY_NAMES = {
  new_year: 'Tết Dương lịch',
  tet: 'Tết Nguyên Đán',
  hung_kings: 'Giỗ Tổ Hùng Vương',
  reunification: 'Ngày Giải phóng miền Nam, thống nhất đất nước',
  labour: 'Ngày Quốc tế Lao động',
  national_day: 'Quốc khánh',
} as const;
export type HolidayKey = keyof typeof HOLIDAY_NAMES;

/** Where a day of the list comes from: the computation, or one of the tenant's overrides of that day. */
export const HOLIDAY_SOURCES = { computed: 'Theo luật', added: 'Thêm', renamed: 'Đổi tên', removed: 'Đã bỏ' } as const;
export type HolidaySource = keyof typeof HOLIDAY_SOURCES;

/** What an override does to its day: add one (with a name), remove a computed one, rename one. */
export const HOLIDAY_ACTIONS = { add: 'Thêm ngày nghỉ', remove: 'Bỏ ngày lễ', rename: 'Đổi tên' } as const;
export type HolidayAction = keyof typeof HOLIDAY_ACTIONS;
const ACTIONS = Object.keys(HOLIDAY_ACTIONS) as HolidayAction[];

/** Years the list and the overrides take (the lunar computation is UTC+7, Vietnam's zone since 1968). */
export const HOLIDAY_YEARS = { min: 2000, max: 2100 } as const;

export const HOLIDAY_MSG = {
  date: 'Ngày có dạng yyyy-MM-dd, năm từ 2000 đến 2100',
  year: 'Năm từ 2000 đến 2100',
  nameRequired: 'Nhập tên ngày nghỉ',
  notAHoliday: 'Ngày này không phải ngày lễ theo luật: chỉ bỏ hoặc đổi tên được ngày lễ',
  alreadyAHoliday: 'Ngày này đã là ngày lễ theo luật: hãy đổi tên thay vì thêm',
  dateTaken: 'Ngày này đã có điều chỉnh: sửa điều chỉnh đó',
} as const;

/** A day "yyyy-MM-dd" that exists, within HOLIDAY_YEARS. */
export function isHolidayDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < HOLIDAY_YEARS.min || y > HOLIDAY_YEARS.max) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

const holidayName = v.optional(v.pipe(v.string(INVALID), v.trim(), v.maxLength(100, max(100))), '');

/** POST/PUT /pbx/partner/holiday-overrides: one day of one year; add and rename need a name. */
export const HolidayOverrideInputSchema = v.pipe(
  v.object({
    date: v.pipe(v.string(HOLIDAY_MSG.date), v.trim(), v.check(isHolidayDate, HOLIDAY_MSG.date)),
    action: v.picklist(ACTIONS, INVALID),
    name: holidayName,
  }),
  v.forward(
    v.check((x) => x.action === 'remove' || x.name.length > 0, HOLIDAY_MSG.nameRequired),
    ['name'],
  ),
);
export type HolidayOverrideInput = v.InferOutput<typeof HolidayOverrideInputSchema>;

/** GET /pbx/partner/holidays?year= (absent: the coming year, that of the next holiday). */
export const HolidayYearQuerySchema = v.object({
  year: v.optional(
    v.pipe(
      v.union([v.number(HOLIDAY_MSG.year), v.pipe(v.string(HOLIDAY_MSG.year), v.regex(/^\d{4}$/, HOLIDAY_MSG.year), v.transform(Number))], HOLIDAY_MSG.year),
      v.integer(HOLIDAY_MSG.year),
      v.minValue(HOLIDAY_YEARS.min, HOLIDAY_MSG.year),
      v.maxValue(HOLIDAY_YEARS.max, HOLIDAY_MSG.year),
    ),
  ),
  CodeCompany: v.optional(v.string()),
  ma_dn: v.optional(v.string()),
});
export type HolidayYearQuery = v.InferOutput<typeof HolidayYearQuerySchema>;

/** A tenant's override as stored. */
export interface HolidayOverride {
  id: number;
  date: string;
  action: HolidayAction;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A lunar date (day, month, leap month). */
export interface LunarDay {
  day: number;
  month: number;
  leap: boolean;
}

/** One day of a year's list: computed and overridden, removed days included (source `removed`). */
export interface Holiday {
  /** The solar day, yyyy-MM-dd. */
  date: string;
  name: string;
  /** The computed holiday this day is (null for an added day). */
  key: HolidayKey | null;
  /** Its lunar date, for the lunar holidays (Tết, Giỗ Tổ). */
  lunar: LunarDay | null;
  source: HolidaySource;
  /** The override that changed this day, if any. */
  override_id: number | null;
}

/** GET /pbx/partner/holidays: the year shown and its days in date order. */
export interface HolidayYear {
  year: number;
  data: Holiday[];
}

/** Path segments under /pbx/partner/. */
export const HOLIDAY_API = { holidays: 'holidays', overrides: 'holiday-overrides' } as const;
