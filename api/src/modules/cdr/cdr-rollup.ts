/**
 * The one definition of how call records fold into the rollups (migration 0022, ADR 0022):
 * cdr_hourly (hour × extension × queue × direction × leg) and cdr_daily (Vietnam day × extension ×
 * direction × leg). The CDR writer runs these over the rows it has just inserted (same statement),
 * the generator over a whole COPY. `source` names a relation with the cdrs columns.
 *
 * Legs: the extension that placed an outbound or internal call has an 'out' row; inbound calls
 * have an 'in' row for the extension that answered ('' when nobody did); internal calls also have
 * an 'in' row for the extension that answered or was called. Adding rows up adds, so a run over
 * new rows only (the writer's RETURNING) never counts a call twice.
 */
const SUMS = ['calls', 'answered', 'no_answer', 'busy', 'failed', 'blocked', 'billsec', 'duration', 'wait_sec', 'answered_sla'];

/** Answered within the service level of the call's queue (its sla_seconds when recorded; 20 s outside a queue). */
const ANSWERED_SLA = `count(*) filter (where c.answered_at is not null and extract(epoch from c.answered_at - c.started_at) <=
      coalesce((select q.sla_seconds from pbx_queues q where q.id = c.queue_id and q.tenant_id = c.tenant_id), 20))`;

const RAW_SUMS = `count(*), count(*) filter (where c.disposition = 'ANSWERED'), count(*) filter (where c.disposition = 'NO ANSWER'),
      count(*) filter (where c.disposition = 'BUSY'), count(*) filter (where c.disposition = 'FAILED'),
      count(*) filter (where c.disposition = 'BLOCKED'), sum(c.billsec), sum(c.duration),
      sum(case when c.answered_at is null then c.duration
               else greatest(0, round(extract(epoch from c.answered_at - c.started_at)))::bigint end),
      ${ANSWERED_SLA}`;

const LEGS = `cross join lateral (
      select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
      union all
      select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
    ) l`;

/** `on conflict … do update` adding the new sums to the stored ones (omitted for a first fill). */
const addUp = (keys: string, upsert: boolean) =>
  upsert ? `on conflict (${keys}) do update set ${SUMS.map((s) => `${s} = r.${s} + excluded.${s}`).join(', ')}` : '';

const GRAINS = {
  hour: { table: 'cdr_hourly', time: 'hour', keys: 'tenant_id, hour, extension, queue_id, direction, leg', queue: true },
  day: { table: 'cdr_daily', time: 'day', keys: 'tenant_id, day, extension, direction, leg', queue: false },
} as const;

/** INSERT … SELECT of `source`'s calls into one grain; `upsert` false only into empty space. */
export function rollupInsert(source: string, grain: keyof typeof GRAINS, upsert = true): string {
  const g = GRAINS[grain];
  const queue = g.queue ? ', coalesce(c.queue_id, 0)' : '';
  return `insert into ${g.table} as r (${g.keys}, ${SUMS.join(', ')})
    select c.tenant_id, date_trunc('${grain}', c.started_at, 'Asia/Ho_Chi_Minh'), l.extension${queue}, c.direction, l.leg,
      ${RAW_SUMS}
    from ${source} c
    ${LEGS}
    group by ${g.queue ? '1, 2, 3, 4, 5, 6' : '1, 2, 3, 4, 5'}
    ${addUp(g.keys, upsert)}`;
}

/** cdr_daily from cdr_hourly rows already there (the generator's second pass: far fewer rows). */
export function dailyFromHourly(where: string): string {
  return `insert into cdr_daily (${GRAINS.day.keys}, ${SUMS.join(', ')})
    select tenant_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh'), extension, direction, leg, ${SUMS.map((s) => `sum(${s})`).join(', ')}
    from cdr_hourly where ${where}
    group by 1, 2, 3, 4, 5`;
}
