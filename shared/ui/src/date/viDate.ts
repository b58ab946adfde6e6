/**
 * Vietnamese dates for the date field: shown and typed as dd/MM/yyyy, exchanged as ISO 'yyyy-MM-dd'
 * (what the forms, the URL and the API already use), weeks starting on Monday.
 */
import { DAYS_OF_WEEK } from '@tongdai/contracts';

export const VI_MONTHS = Array.from({ length: 12 }, (_, i) => `Tháng ${i + 1}`);
/** Monday first: T2 … T7, CN. */
export const VI_WEEKDAYS = ['T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'CN'] as const;
/** Monday first, the names contracts gives the days of the week (DAYS_OF_WEEK, time groups' too). */
export const VI_WEEKDAY_NAMES: readonly string[] = DAYS_OF_WEEK.map((d) => d.label);

const pad = (n: number) => String(n).padStart(2, '0');
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The ISO day as (year, month 1-12, day), or null when it is no real day. */
export function isoParts(iso: string): { y: number; m: number; d: number } | null {
  const hit = ISO.exec(iso);
  if (!hit) return null;
  const [y, m, d] = [Number(hit[1]), Number(hit[2]), Number(hit[3])];
  return isRealDay(y, m, d) ? { y, m, d } : null;
}

function isRealDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1000) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export const toIso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** '2026-11-25' → '25/11/2026' ('' for anything else). */
export function formatViDate(iso: string): string {
  const p = isoParts(iso);
  return p ? `${pad(p.d)}/${pad(p.m)}/${p.y}` : '';
}

/** '2027-02-06' → 'Thứ Bảy' (pure calendar arithmetic: the browser's zone plays no part; '' for anything else). */
export function viWeekday(iso: string): string {
  const p = isoParts(iso);
  return p ? VI_WEEKDAY_NAMES[(new Date(Date.UTC(p.y, p.m - 1, p.d)).getUTCDay() + 6) % 7] : '';
}

/** Typed dd/MM/yyyy or d/M/yyyy (also with '-' or '.', or a pasted yyyy-MM-dd) → ISO; null when no real day. */
export function parseViDate(text: string): string | null {
  const s = text.trim();
  if (isoParts(s)) return s;
  const hit = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (!hit) return null;
  const [d, m, y] = [Number(hit[1]), Number(hit[2]), Number(hit[3])];
  return isRealDay(y, m, d) ? toIso(y, m, d) : null;
}

/** Typed HH:mm (or H:mm), 24-hour → 'HH:mm'; null otherwise. */
export function parseTime(text: string): string | null {
  const hit = /^(\d{1,2})[:h.](\d{2})$/.exec(text.trim());
  if (!hit) return null;
  const [h, m] = [Number(hit[1]), Number(hit[2])];
  return h < 24 && m < 60 ? `${pad(h)}:${pad(m)}` : null;
}

/** The month's weeks, Monday first: each cell an ISO day, or null outside the month. */
export function monthWeeks(year: number, month: number): (string | null)[][] {
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [...Array<null>(lead).fill(null), ...Array.from({ length: days }, (_, i) => toIso(year, month, i + 1))];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** The month before or after (year, month 1-12). */
export function shiftMonth(year: number, month: number, by: -1 | 1): { y: number; m: number } {
  const i = year * 12 + month - 1 + by;
  return { y: Math.floor(i / 12), m: (i % 12) + 1 };
}

/** Whether a range runs backwards (`from` after `to`); an open end is no problem. */
export function reversedRange(from: string | undefined, to: string | undefined): boolean {
  return !!from && !!to && from > to;
}

/** Vietnam's offset from UTC: +07:00 all year (no summer time). */
const VN_OFFSET_MS = 7 * 3_600_000;

/** An instant's Vietnam wall clock as 'yyyy-MM-ddTHH:mm:ss', by arithmetic (no Intl: the browser's language and zone play no part); null for no instant. */
function vnWall(at: Date | string | number | null | undefined): string | null {
  if (at === null || at === undefined || at === '') return null;
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  return Number.isNaN(ms) ? null : new Date(ms + VN_OFFSET_MS).toISOString().slice(0, 19);
}

/**
 * The one way a screen writes an instant: 'dd/MM/yyyy HH:mm:ss' in Vietnam time, 24 hours, whatever
 * the browser's language (an en-US browser never sees "2:05 PM"); `seconds: false` gives
 * 'dd/MM/yyyy HH:mm'. '' for no instant.
 */
export function formatViDateTime(at: Date | string | number | null | undefined, o: { seconds?: boolean } = {}): string {
  const w = vnWall(at);
  return w ? `${formatViDate(w.slice(0, 10))} ${w.slice(11, o.seconds === false ? 16 : 19)}` : '';
}

/** An instant's time of day in Vietnam, 24 hours: 'HH:mm' ('HH:mm:ss' with `seconds`); '' for no instant. */
export function formatViTime(at: Date | string | number | null | undefined, o: { seconds?: boolean } = {}): string {
  const w = vnWall(at);
  return w ? w.slice(11, o.seconds ? 19 : 16) : '';
}

/** An instant's day in Vietnam as 'dd/MM/yyyy' (the day it is there, not in the browser's zone); '' for no instant. */
export function formatViDay(at: Date | string | number | null | undefined): string {
  const w = vnWall(at);
  return w ? formatViDate(w.slice(0, 10)) : '';
}
