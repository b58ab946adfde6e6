import type { ActivityStatus } from '@tongdai/contracts';
import type { ActivityEventRow } from './activity.repository';

/**
 * From one user's events (oldest first) to periods, and from periods to a day's figures: a pure
 * function of the events, the sessions' known ends and `now`, so durations across midnight
 * (Asia/Ho_Chi_Minh) are tested without a clock.
 */

export interface Span {
  from: number;
  /** Exclusive; `now` for a period still going (then `open`). */
  to: number;
  open: boolean;
}
export interface Periods {
  sessions: (Span & { end: 'logout' | 'expired' | null })[];
  statuses: (Span & { status: ActivityStatus })[];
  registered: (Span & { extension: string })[];
}

const ms = (d: Date | string) => new Date(d).getTime();

/** Sessions: a login until its logout, else until the server saw it end (sessionEnds), else now. */
function sessionsOf(events: readonly ActivityEventRow[], ends: ReadonlyMap<string, Date>, now: number): Periods['sessions'] {
  const logouts = new Map<string, number>();
  for (const e of events) if (e.kind === 'logout' && e.session_id && !logouts.has(e.session_id)) logouts.set(e.session_id, ms(e.at));
  return events
    .filter((e) => e.kind === 'login')
    .map((e) => {
      const from = ms(e.at);
      const out = e.session_id ? logouts.get(e.session_id) : undefined;
      if (out !== undefined && out >= from) return { from, to: out, open: false, end: 'logout' as const };
      const expired = e.session_id ? ends.get(e.session_id) : undefined;
      if (expired) return { from, to: Math.max(from, Math.min(ms(expired), now)), open: false, end: 'expired' as const };
      return { from, to: Math.max(from, now), open: true, end: null };
    });
}

/** Sorted, overlapping spans joined (several browsers logged in at once are one presence). */
export function union<T extends { from: number; to: number }>(spans: readonly T[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (const s of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else if (s.to > s.from) out.push({ from: s.from, to: s.to });
  }
  return out;
}

/** Each status from the event that set it (a change, or a login carrying it) to the next, only while logged in. */
function statusesOf(events: readonly ActivityEventRow[], presence: readonly { from: number; to: number }[], now: number): Periods['statuses'] {
  const marks = events.filter((e) => (e.kind === 'status' || e.kind === 'login') && e.status !== null);
  const out: Periods['statuses'] = [];
  marks.forEach((m, i) => {
    const from = ms(m.at);
    const to = i + 1 < marks.length ? ms(marks[i + 1].at) : now;
    for (const p of presence) {
      const [a, b] = [Math.max(from, p.from), Math.min(to, p.to)];
      if (b > a) out.push({ from: a, to: b, open: b >= now, status: m.status as ActivityStatus });
    }
  });
  return out;
}

/** Each extension registered from a 'registered' to the next 'unregistered' (refreshes after an API restart repeat 'registered'). */
function registeredOf(events: readonly ActivityEventRow[], now: number): Periods['registered'] {
  const open = new Map<string, number>();
  const out: Periods['registered'] = [];
  for (const e of events) {
    if (!e.extension) continue;
    if (e.kind === 'registered' && !open.has(e.extension)) open.set(e.extension, ms(e.at));
    if (e.kind === 'unregistered' && open.has(e.extension)) {
      out.push({ from: open.get(e.extension)!, to: ms(e.at), open: false, extension: e.extension });
      open.delete(e.extension);
    }
  }
  for (const [extension, from] of open) out.push({ from, to: Math.max(from, now), open: true, extension });
  return out.sort((a, b) => a.from - b.from);
}

export function periodsOf(events: readonly ActivityEventRow[], ends: ReadonlyMap<string, Date>, now: number): Periods {
  const sessions = sessionsOf(events, ends, now);
  return { sessions, statuses: statusesOf(events, union(sessions), now), registered: registeredOf(events, now) };
}

/** Seconds of `spans` inside [from, to). */
export function secondsIn(spans: readonly { from: number; to: number }[], from: number, to: number): number {
  let total = 0;
  for (const s of spans) total += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
  return Math.round(total / 1000);
}

export interface DayFigures {
  first_login: string | null;
  last_logout: string | null;
  registered_sec: number;
  status_sec: Record<ActivityStatus, number>;
  status_changes: number;
  /** Anything happened or lasted that day. */
  active: boolean;
}

/** One Vietnam day [from, to) of a user's periods and events. */
export function dayFigures(p: Periods, events: readonly ActivityEventRow[], from: number, to: number): DayFigures {
  const inDay = (t: number) => t >= from && t < to;
  const logins = p.sessions.filter((s) => inDay(s.from));
  const ended = p.sessions.filter((s) => !s.open && inDay(s.to));
  const status_sec = { 1: 0, 2: 0, 3: 0 } as Record<ActivityStatus, number>;
  for (const s of p.statuses) status_sec[s.status] += secondsIn([s], from, to);
  const overlaps = (s: { from: number; to: number }) => s.from < to && (s.to > from || (s.to === s.from && s.from >= from));
  return {
    first_login: logins.length ? new Date(Math.min(...logins.map((s) => s.from))).toISOString() : null,
    last_logout: ended.length ? new Date(Math.max(...ended.map((s) => s.to))).toISOString() : null,
    registered_sec: secondsIn(union(p.registered), from, to),
    status_sec,
    status_changes: events.filter((e) => e.kind === 'status' && inDay(ms(e.at))).length,
    active: events.some((e) => inDay(ms(e.at))) || p.sessions.some(overlaps) || p.registered.some(overlaps),
  };
}
