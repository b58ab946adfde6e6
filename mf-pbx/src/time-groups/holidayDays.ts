import { DAYS_OF_WEEK } from '@tongdai/contracts';

const WEEKDAY = new Map<number, string>(DAYS_OF_WEEK.map((d) => [d.value, d.label]));

/** "2027-02-06" → "06/02/2027" (Vietnamese order, whatever the browser's language). */
export const viDate = (day: string): string => day.split('-').reverse().join('/');

/** The weekday of a day "yyyy-MM-dd" in Vietnamese ("Thứ Bảy", "Chủ Nhật"), whatever the browser's zone. */
export const viWeekday = (day: string): string => WEEKDAY.get(new Date(`${day}T00:00:00Z`).getUTCDay() || 7) ?? '';
