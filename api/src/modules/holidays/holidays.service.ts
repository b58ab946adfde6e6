import { HOLIDAY_MSG, vnDay, type HolidayOverride, type HolidayOverrideInput, type HolidayYear } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { AppError, ConflictError, isUniqueViolation, violationText } from '../../http/errors';
import * as repo from './holidays.repository';
import { applyOverrides, computedHolidays, daysInForce, isComputedHoliday } from './vn-holidays';

/**
 * A tenant's Vietnamese public holidays (issue 39, ADR 0063): the computed days of a year with the
 * tenant's overrides of that year applied, and the overrides themselves. Every function runs inside
 * the caller's withTenant transaction.
 */

const yearOf = (day: string) => Number(day.slice(0, 4));

/** One year's list, removed days included (the screen shows them struck out). */
async function yearList(tx: Queryable, year: number) {
  return applyOverrides(computedHolidays(year), await repo.overridesOfYears(tx, year, year));
}

/**
 * The holidays of `year`; without one, of the coming year: this year while one of its holidays is
 * still ahead (Vietnam's day), else next year's (in December the admin looks at next Tết).
 */
export async function holidayYear(tx: Queryable, year: number | undefined, now: Date): Promise<HolidayYear> {
  if (year !== undefined) return { year, data: await yearList(tx, year) };
  const today = vnDay(now);
  const thisYear = yearOf(today);
  const list = await yearList(tx, thisYear);
  if (daysInForce(list).some((d) => d >= today)) return { year: thisYear, data: list };
  return { year: thisYear + 1, data: await yearList(tx, thisYear + 1) };
}

/**
 * The days in force around `now` (last year to the year after next), for the routing snapshot and
 * the campaigns' calling windows: nextStateChange looks 400 days ahead.
 */
export async function holidaysInForce(tx: Queryable, now: Date): Promise<string[]> {
  const year = yearOf(vnDay(now));
  const overrides = await repo.overridesOfYears(tx, year - 1, year + 2);
  const out: string[] = [];
  for (let y = year - 1; y <= year + 2; y++) out.push(...daysInForce(applyOverrides(computedHolidays(y), overrides.filter((o) => yearOf(o.date) === y))));
  return out;
}

export const listOverrides = (tx: Queryable): Promise<HolidayOverride[]> => repo.allOverrides(tx);
export const getOverride = (tx: Queryable, id: number): Promise<HolidayOverride | null> => repo.overrideById(tx, id);

/** Add only a day the law does not make a holiday; remove or rename only one it does (400 naming `date`). */
function checkAgainstLaw(x: HolidayOverrideInput): void {
  const computed = isComputedHoliday(x.date);
  if (x.action === 'add' && computed) throw new AppError('VALIDATION_FAILED', [{ field: 'date', message: HOLIDAY_MSG.alreadyAHoliday }]);
  if (x.action !== 'add' && !computed) throw new AppError('VALIDATION_FAILED', [{ field: 'date', message: HOLIDAY_MSG.notAHoliday }]);
}

/** A second override of one day: 409 naming `date`. */
async function oneADay<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e) && violationText(e).includes('pbx_holiday_overrides_day_key')) throw new ConflictError(HOLIDAY_MSG.dateTaken, [{ field: 'date', message: HOLIDAY_MSG.dateTaken }]);
    throw e;
  }
}

export async function createOverride(tx: Queryable, tenantId: number, x: HolidayOverrideInput): Promise<HolidayOverride> {
  checkAgainstLaw(x);
  return oneADay(() => repo.insertOverride(tx, tenantId, x));
}

/** null: no such override (of this tenant). */
export async function updateOverride(tx: Queryable, id: number, x: HolidayOverrideInput): Promise<HolidayOverride | null> {
  checkAgainstLaw(x);
  return oneADay(() => repo.updateOverride(tx, id, x));
}

export const deleteOverride = (tx: Queryable, id: number): Promise<boolean> => repo.deleteOverride(tx, id);
