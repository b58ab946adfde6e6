import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MONITOR_API, type MonitorHourly, type SeriesPointRow } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

/**
 * Today's calls per hour and the same weekday last week's (GET monitor/hourly: the read model's
 * rollups, in the viewer's scope). `callsToday` is the live count: when a call ends it moves and the
 * series is read again (live, from the same channel).
 */
export function useHourComparison(callsToday: number) {
  return useQuery({
    queryKey: ['monitor', 'hourly', callsToday],
    queryFn: () => tenantApi().get(MONITOR_API.hourly).json<{ data: MonitorHourly }>().then((r) => r.data),
    placeholderData: keepPreviousData,
    retry: false,
  });
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
