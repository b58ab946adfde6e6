import { DEFAULT_TIMEZONE, type TimeCondition, type TimeGroup, type TimeRangeInput } from '@tongdai/contracts';

/**
 * Time groups evaluated on the wall clock of a time zone (Intl only, DST-aware). Each part of a
 * range (time of day, day of week, day of month, month) is checked on its own, as Asterisk's
 * GotoIfTime does: "22:00–06:00, Friday" holds on Friday 00:00–06:00 and Friday 22:00–24:00.
 * Times of day are half-open [start, end); start = end means the whole day.
 *
 * Public holidays (issue 39): a group's holiday_mode decides the whole local day of each holiday
 * (the snapshot's `holidays`, yyyy-MM-dd): "include" holds all of it, "exclude" none of it, whatever
 * the ranges say; "none" (or no holidays given) leaves the ranges alone.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far nextStateChange looks ahead. */
export const STATE_CHANGE_HORIZON_DAYS = 400;

interface LocalTime {
  /** Local calendar date as a UTC midnight timestamp (pure calendar arithmetic). */
  day: number;
  month: number;
  dom: number;
  /** 1 Monday … 7 Sunday. */
  dow: number;
  minute: number;
}

interface CompiledRange {
  start: number;
  end: number;
  anyTime: boolean;
  dow: [number, number] | null;
  dom: [number, number] | null;
  month: [number, number] | null;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();
function formatter(tz: string): Intl.DateTimeFormat | null {
  let f = formatters.get(tz);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      f = null;
    }
    formatters.set(tz, f);
  }
  return f;
}

/** The zone to use: tz when Intl knows it, else the default zone. */
export function safeZone(tz: string | null | undefined): string {
  return tz && formatter(tz) ? tz : DEFAULT_TIMEZONE;
}

// Offsets only change on whole minutes (quarter hours in practice): cache one per zone and 15-minute slot.
const QUARTER = 15 * MINUTE;
const offsetCache = new Map<string, { slot: number; offset: number }>();

/** Milliseconds to add to a UTC instant to read the wall clock of tz. */
export function zoneOffset(t: number, tz: string): number {
  const slot = Math.floor(t / QUARTER);
  const cached = offsetCache.get(tz);
  if (cached && cached.slot === slot) return cached.offset;
  const f = formatter(tz) ?? formatter(DEFAULT_TIMEZONE)!;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(slot * QUARTER))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offset = wall - slot * QUARTER;
  offsetCache.set(tz, { slot, offset });
  return offset;
}

function localTime(at: Date, tz: string): LocalTime {
  const wall = at.getTime() + zoneOffset(at.getTime(), tz);
  const l = dayOf(Math.floor(wall / DAY) * DAY);
  l.minute = Math.floor((wall - l.day) / MINUTE);
  return l;
}

/** The instant the wall clock of tz shows `wall` (UTC-encoded); in a DST gap, the first instant after it. */
function wallToInstant(wall: number, tz: string): number {
  let t = wall - zoneOffset(wall, tz);
  t = wall - zoneOffset(t, tz);
  const shown = t + zoneOffset(t, tz);
  return shown < wall ? t + (wall - shown) : t;
}

function dayOf(day: number): LocalTime {
  const d = new Date(day);
  return { day, month: d.getUTCMonth() + 1, dom: d.getUTCDate(), dow: d.getUTCDay() || 7, minute: 0 };
}

const parseTime = (s: string | null | undefined): number | null => {
  if (!s) return null;
  const m = /^(\d{1,2}):(\d{2})$/.exec(s.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};
const span = (a: number | null | undefined, b: number | null | undefined): [number, number] | null => {
  const s = a ?? b;
  const e = b ?? a;
  return s === null || s === undefined || e === null || e === undefined ? null : [s, e];
};
const inSpan = (x: number, s: [number, number] | null) => !s || (s[0] <= s[1] ? x >= s[0] && x <= s[1] : x >= s[0] || x <= s[1]);

export function compileRange(r: TimeRangeInput): CompiledRange {
  const ts = parseTime(r.time_start);
  const te = parseTime(r.time_end);
  const start = ts ?? 0;
  const end = te ?? 1440;
  return {
    start,
    end,
    anyTime: (ts === null && te === null) || start === end,
    dow: span(r.dow_start, r.dow_end),
    dom: span(r.dom_start, r.dom_end),
    month: span(r.month_start, r.month_end),
  };
}

const dayHolds = (r: CompiledRange, l: LocalTime) => inSpan(l.month, r.month) && inSpan(l.dom, r.dom) && inSpan(l.dow, r.dow);
const timeHolds = (r: CompiledRange, minute: number) =>
  r.anyTime || (r.start < r.end ? minute >= r.start && minute < r.end : minute >= r.start || minute < r.end);

const compiledGroups = new WeakMap<TimeGroup, CompiledRange[]>();
function compiled(group: TimeGroup): CompiledRange[] {
  let c = compiledGroups.get(group);
  if (!c) {
    c = (group.ranges ?? []).map(compileRange);
    compiledGroups.set(group, c);
  }
  return c;
}

/** Holiday days (yyyy-MM-dd) as local-day stamps, once per list: treat a snapshot's list as immutable. */
const holidaySets = new WeakMap<readonly string[], ReadonlySet<number>>();
const NO_HOLIDAYS: ReadonlySet<number> = new Set();
function holidayDays(dates: readonly string[] | undefined): ReadonlySet<number> {
  if (!dates?.length) return NO_HOLIDAYS;
  let set = holidaySets.get(dates);
  if (!set) {
    set = new Set(dates.map((d) => Date.parse(`${d}T00:00:00Z`)).filter((t) => !Number.isNaN(t)));
    holidaySets.set(dates, set);
  }
  return set;
}

/** What decides a local day: the whole day (a holiday of a group that minds them), or the ranges that apply on it. */
type DayRule = boolean | CompiledRange[];
function dayRule(group: TimeGroup, ranges: CompiledRange[], l: LocalTime, holidays: ReadonlySet<number>): DayRule {
  const mode = group.holiday_mode ?? 'none';
  if (mode !== 'none' && holidays.has(l.day)) return mode === 'include';
  return ranges.filter((r) => dayHolds(r, l));
}
const holdsAt = (rule: DayRule, minute: number) => (typeof rule === 'boolean' ? rule : rule.some((r) => timeHolds(r, minute)));

/**
 * True when `at` falls in one of the group's ranges on the wall clock of tz, holidays applied as its
 * holiday_mode says. A group without ranges never matches (but on a holiday of an "include" group).
 */
export function matchesTimeGroup(group: TimeGroup, at: Date, tz: string = DEFAULT_TIMEZONE, holidays?: readonly string[]): boolean {
  const l = localTime(at, safeZone(tz));
  return holdsAt(dayRule(group, compiled(group), l, holidayDays(holidays)), l.minute);
}

/**
 * The first instant after `from` at which matchesTimeGroup changes value, or null when it does not
 * change within 400 days. The state only changes at local midnight or at a range's start/end
 * minute, so only those candidates are evaluated (a few thousand cheap checks, no Intl per step).
 */
export function nextStateChange(group: TimeGroup, from: Date, tz: string = DEFAULT_TIMEZONE, holidays?: readonly string[]): Date | null {
  const zone = safeZone(tz);
  const ranges = compiled(group);
  const days = holidayDays(holidays);
  const now = localTime(from, zone);
  const current = holdsAt(dayRule(group, ranges, now, days), now.minute);
  const candidates = [...new Set([0, ...ranges.flatMap((r) => (r.anyTime ? [] : [r.start, r.end]))])].filter((m) => m < 1440).sort((a, b) => a - b);
  for (let i = 0; i <= STATE_CHANGE_HORIZON_DAYS; i++) {
    const l = dayOf(now.day + i * DAY);
    // Day parts are fixed for the whole local day: only the time of day varies between candidates.
    const today = dayRule(group, ranges, l, days);
    if (today === current || (Array.isArray(today) && !today.length && !current)) continue;
    for (const minute of candidates) {
      if (i === 0 && minute <= now.minute) continue;
      if (holdsAt(today, minute) === current) continue;
      const t = wallToInstant(l.day + minute * MINUTE, zone);
      if (t > from.getTime()) return new Date(t);
    }
  }
  return null;
}

export interface TimeConditionResult {
  matched: boolean;
  /** The override that decided, if any (an expired temporary override counts as none). */
  override: 'temp' | 'perm' | null;
}

/**
 * Evaluates a time condition at `at`. Temporary overrides hold while at < override_until (null =
 * the group never changes state, so the override holds); permanent ones until changed. A
 * condition whose time group is gone evaluates as unmatched.
 */
export function evaluateTimeCondition(
  tc: TimeCondition, group: TimeGroup | undefined, at: Date, fallbackTz: string = DEFAULT_TIMEZONE, holidays?: readonly string[],
): TimeConditionResult {
  switch (tc.override) {
    case 'perm_matched':
      return { matched: true, override: 'perm' };
    case 'perm_unmatched':
      return { matched: false, override: 'perm' };
    case 'temp_matched':
    case 'temp_unmatched':
      // override_until is an ISO string in the contract; a Date straight from pg works too.
      if (!tc.override_until || at.getTime() < new Date(tc.override_until as string | Date).getTime()) return { matched: tc.override === 'temp_matched', override: 'temp' };
      break;
    default:
      break;
  }
  return { matched: group ? matchesTimeGroup(group, at, tc.timezone || fallbackTz, holidays) : false, override: null };
}
