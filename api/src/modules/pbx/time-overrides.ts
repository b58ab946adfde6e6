import { TIME_RANGE_FIELDS, type HolidayMode, type TimeGroup, type TimeRange } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { holidaysInForce } from '../holidays/holidays.service';
import { nextStateChange } from '../routing';

/** What decides a group's state: its holiday mode and ranges (pbx.resources reads the whole row). */
async function groupsForState(tx: Queryable, ids: number[]): Promise<Map<number, TimeGroup>> {
  const { rows } = await tx.query<{ id: number; holiday_mode: HolidayMode }>('select id, holiday_mode from pbx_time_groups where id = any($1::int[])', [ids]);
  const { rows: ranges } = await tx.query<TimeRange & { time_group_id: number }>(
    `select id, time_group_id, ${TIME_RANGE_FIELDS.join(', ')} from pbx_time_ranges where time_group_id = any($1::int[]) order by id`,
    [ids],
  );
  return new Map(rows.map((g) => [g.id, { ...g, ranges: ranges.filter((r) => r.time_group_id === g.id) } as unknown as TimeGroup]));
}

/**
 * Temporary overrides of time conditions end at their group's next change of state after they were
 * set: when what decides that changes (a group's ranges or holiday mode, the tenant's holidays), that
 * may now be another moment. `groupIds`: those groups; absent, every group that minds holidays.
 */
export async function refreshTempOverrides(tx: Queryable, groupIds?: number[]): Promise<void> {
  const { rows } = await tx.query<{ id: number; time_group_id: number; override_set_at: Date | string; timezone: string }>(
    `select tc.id, tc.time_group_id, tc.override_set_at, tc.timezone from pbx_time_conditions tc
      where tc.override like 'temp_%' and tc.override_set_at is not null
        and ${groupIds ? 'tc.time_group_id = any($1::int[])' : "exists (select 1 from pbx_time_groups g where g.id = tc.time_group_id and g.holiday_mode <> 'none')"}`,
    groupIds ? [groupIds] : [],
  );
  if (!rows.length) return;
  const holidays = await holidaysInForce(tx, new Date());
  const groups = await groupsForState(tx, [...new Set(rows.map((r) => r.time_group_id))]);
  for (const tc of rows) {
    const g = groups.get(tc.time_group_id);
    if (g) await tx.query('update pbx_time_conditions set override_until = $2 where id = $1', [tc.id, nextStateChange(g, new Date(tc.override_set_at), tc.timezone, holidays)]);
  }
}
