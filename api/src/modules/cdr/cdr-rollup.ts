/**
 * The one definition of how call records fold into cdr_hourly (migration 0022, ADR 0022): the CDR
 * writer runs it over the rows it has just inserted (same transaction), the generator over a
 * whole COPY. `source` names a relation with the cdrs columns (a CTE, a table, a subquery).
 *
 * Legs: the extension that placed an outbound or internal call has an 'out' row; inbound calls
 * have an 'in' row for the extension that answered ('' when nobody did); internal calls also have
 * an 'in' row for the extension that answered or was called. Adding rows up adds, so a re-run over
 * new rows only (the writer's RETURNING) never counts a call twice.
 */
export function rollupInsert(source: string): string {
  return `insert into cdr_hourly as h (tenant_id, hour, extension, queue_id, direction, leg,
      calls, answered, no_answer, busy, failed, blocked, billsec, duration, wait_sec)
    select c.tenant_id, date_trunc('hour', c.started_at, 'Asia/Ho_Chi_Minh'), l.extension, coalesce(c.queue_id, 0), c.direction, l.leg,
      count(*), count(*) filter (where c.disposition = 'ANSWERED'), count(*) filter (where c.disposition = 'NO ANSWER'),
      count(*) filter (where c.disposition = 'BUSY'), count(*) filter (where c.disposition = 'FAILED'),
      count(*) filter (where c.disposition = 'BLOCKED'), sum(c.billsec), sum(c.duration),
      sum(case when c.answered_at is null then c.duration
               else greatest(0, round(extract(epoch from c.answered_at - c.started_at)))::bigint end)
    from ${source} c
    cross join lateral (
      select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
      union all
      select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
    ) l
    group by 1, 2, 3, 4, 5, 6
    on conflict (tenant_id, hour, extension, queue_id, direction, leg) do update set
      calls = h.calls + excluded.calls, answered = h.answered + excluded.answered, no_answer = h.no_answer + excluded.no_answer,
      busy = h.busy + excluded.busy, failed = h.failed + excluded.failed, blocked = h.blocked + excluded.blocked,
      billsec = h.billsec + excluded.billsec, duration = h.duration + excluded.duration, wait_sec = h.wait_sec + excluded.wait_sec`;
}
