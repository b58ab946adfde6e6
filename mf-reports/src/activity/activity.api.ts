import { useQuery } from '@tanstack/react-query';
import type { ActivityDayRow, ActivityOptions, ActivityTimeline, One, Paged } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource } from '@tongdai/ui';
import { historyParams } from '../history/history.api';

/** A row as the list keys it: its place on the page (a user's day has no id of its own). */
export type ActivityListRow = ActivityDayRow & { id: number };

/** GET activity/users: ?range= turned into from/to as in call history. */
export const activityApi = crudResource({
  scope: 'reports', name: 'activity', base: 'activity/users', client: tenantApi, listParams: historyParams,
  toPaged: (body: Paged<ActivityDayRow>) => ({ ...body, data: body.data.map((r, i) => ({ ...r, id: i + 1 })) }),
});

/** The accounts the caller may pick (an agent: themselves). */
export function useActivityOptions(): ActivityOptions | null {
  const q = useQuery({
    queryKey: ['reports', 'activity', 'options'],
    queryFn: () => tenantApi().get('activity/options').json<One<ActivityOptions>>().then((r) => r.data),
    staleTime: 60_000,
  });
  return q.data ?? null;
}

/** One user's Vietnam day (?timeline=<user>~<day>). */
export function useTimeline(userId: number | null, day: string | null) {
  return useQuery({
    queryKey: ['reports', 'activity', 'timeline', userId, day],
    queryFn: () => tenantApi().get('activity/timeline', { searchParams: { user_id: String(userId), day: day! } }).json<One<ActivityTimeline>>().then((r) => r.data),
    enabled: userId !== null && !!day,
    retry: false,
  });
}
