/**
 * The one definition of how call records fold into the rollups (migration 0022, ADR 0022):
 * cdr_hourly (hour × extension × queue × direction × leg) and cdr_daily (Vietnam day × the same;
 * queue since migration 0025). The CDR writer runs these over the rows it has just inserted (same statement),
 * the generator over a whole COPY. `source` names a relation with the cdrs columns.
 *
 * Legs: the extension that placed an outbound or internal call has an 'out' row; inbound calls
 * have an 'in' row for the extension that answered ('' when nobody did); internal calls also have
 * an 'in' row for the extension that answered or was called. Adding rows up adds, so a run over
 * new rows only (the writer's RETURNING) never counts a call twice.
 */
const SUMS = ['calls', 'answered', 'no_answer', 'busy', 'failed', 'blocked', 'billsec', 'duration', 'wait_sec', 'no_answer_wait_sec', 'busy_wait_sec', 'failed_wait_sec', 'blocked_wait_sec'];

/** Seconds a caller waited: until the answer, or until they gave up. */
const WAIT = `case when c.answered_at is null then c.duration else greatest(0, round(extract(epoch from c.answered_at - c.started_at)))::bigint end`;

// The wait of each unanswered result on its own (migration 0025), so a summary filtered by result
// has its exact wait; an answered call's is wait_sec less these.
const RAW_SUMS = `count(*), count(*) filter (where c.disposition = 'ANSWERED'), count(*) filter (where c.disposition = 'NO ANSWER'),
      count(*) filter (where c.disposition = 'BUSY'), count(*) filter (where c.disposition = 'FAILED'),
      count(*) filter (where c.disposition = 'BLOCKED'), sum(c.billsec), sum(c.duration), sum(${WAIT}),
      coalesce(sum(${WAIT}) filter (where c.disposition = 'NO ANSWER'), 0), coalesce(sum(${WAIT}) filter (where c.disposition = 'BUSY'), 0),
      coalesce(sum(${WAIT}) filter (where c.disposition = 'FAILED'), 0), coalesce(sum(${WAIT}) filter (where c.disposition = 'BLOCKED'), 0)`;

const LEGS = `cross join lateral (
      select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
      union all
      select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
    ) l`;

/** `on conflict … do update` adding the new sums to the stored ones (omitted for a first fill). */
const addUp = (keys: string, upsert: boolean) =>
  upsert ? `on conflict (${keys}) do update set ${SUMS.map((s) => `${s} = r.${s} + excluded.${s}`).join(', ')}` : '';

const GRAINS = {
  hour: { table: 'cdr_hourly', time: 'hour', keys: 'tenant_id, hour, extension, queue_id, direction, leg' },
  day: { table: 'cdr_daily', time: 'day', keys: 'tenant_id, day, extension, queue_id, direction, leg' },
} as const;

/** INSERT … SELECT of `source`'s calls into one grain; `upsert` false only into empty space. */
export function rollupInsert(source: string, grain: keyof typeof GRAINS, upsert = true): string {
  const g = GRAINS[grain];
  return `insert into ${g.table} as r (${g.keys}, ${SUMS.join(', ')})
    select c.tenant_id, date_trunc('${grain}', c.started_at, 'Asia/Ho_Chi_Minh'), l.extension, coalesce(c.queue_id, 0), c.direction, l.leg,
      ${RAW_SUMS}
    from ${source} c
    ${LEGS}
    group by 1, 2, 3, 4, 5, 6
    ${addUp(g.keys, upsert)}`;
}

/** cdr_daily from cdr_hourly rows already there (the generator's second pass: far fewer rows). */
export function dailyFromHourly(where: string): string {
  return `insert into cdr_daily (${GRAINS.day.keys}, ${SUMS.join(', ')})
    select tenant_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh'), extension, queue_id, direction, leg, ${SUMS.map((s) => `sum(${s})`).join(', ')}
    from cdr_hourly where ${where}
    group by 1, 2, 3, 4, 5, 6`;
}
