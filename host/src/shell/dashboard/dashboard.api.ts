import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { vnDay, type DepartmentTeamSummaryResponse, type SeriesPointRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const WEEK_MS = 7 * 86_400_000;

/** Calls per hour of one Vietnam day, from the summaries endpoint's series (the read model's rollups, ADR 0024). */
function useDaySeries(day: string, version = 0) {
  return useQuery({
    queryKey: ['reports', 'by-department-team', { from: day, to: day }, version],
    placeholderData: keepPreviousData,
    queryFn: () => tenantApi().get('reports/by-department-team', { searchParams: { from: day, to: day } }).json<DepartmentTeamSummaryResponse>(),
    select: (r) => r.series.points,
    retry: false,
  });
}

/**
 * Today's calls per hour and the same weekday last week's (the dashboard's chart). `callsToday` is
 * the live count: when a call ends it moves, and today's series is read again (live, same channel).
 */
export function useHourComparison(callsToday: number, now = Date.now()) {
  const today = useDaySeries(vnDay(new Date(now)), callsToday);
  const lastWeek = useDaySeries(vnDay(new Date(now - WEEK_MS)));
  return { today, lastWeek };
}

export interface HourPoint { x: number; y: number }

/** Hour of the day in Vietnam (UTC+7, no daylight saving) of a bucket's first instant. */
const vnHour = (at: string) => (new Date(at).getUTCHours() + 7) % 24;

/** Per hour 0..23: last week's whole day, today's up to the current hour (later hours have not happened). */
export function hourlyComparison(today: SeriesPointRow[], lastWeek: SeriesPointRow[], now = Date.now()): { today: HourPoint[]; lastWeek: HourPoint[] } {
  const perHour = (points: SeriesPointRow[], until: number) => {
    const calls = new Map(points.map((p) => [vnHour(p.at), p.calls]));
    return Array.from({ length: until + 1 }, (_, h) => ({ x: h, y: calls.get(h) ?? 0 }));
  };
  return { today: perHour(today, vnHour(new Date(now).toISOString())), lastWeek: perHour(lastWeek, 23) };
}
