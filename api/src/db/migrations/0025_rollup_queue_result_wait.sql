-- Summaries filtered as the call-history screens filter (issue 13, ADR 0031), still from the rollups:
-- 1. cdr_daily gains the queue (as cdr_hourly has it), so a 30-day summary of one queue reads the
--    daily grain instead of the hourly one;
-- 2. both rollups gain the wait of each unanswered result (no answer, busy, failed, blocked), so a
--    summary filtered by result has its exact wait (an answered call's wait is wait_sec less these).
-- Direction and outcome counts were dimensions/columns already. The writer and the generator fill
-- the new columns through cdr-rollup.ts; existing rows are backfilled here.

alter table cdr_hourly
  add column no_answer_wait_sec bigint not null default 0,
  add column busy_wait_sec bigint not null default 0,
  add column failed_wait_sec bigint not null default 0,
  add column blocked_wait_sec bigint not null default 0;

alter table cdr_daily
  add column queue_id int not null default 0,
  add column no_answer_wait_sec bigint not null default 0,
  add column busy_wait_sec bigint not null default 0,
  add column failed_wait_sec bigint not null default 0,
  add column blocked_wait_sec bigint not null default 0;
alter table cdr_daily drop constraint cdr_daily_pkey;
alter table cdr_daily add primary key (tenant_id, day, extension, queue_id, direction, leg);

-- Every tenant's rows: as app_system (BYPASSRLS), since FORCE ROW LEVEL SECURITY hides them from a
-- table owner that is not superuser.
set local role app_system;

-- The per-result waits of the hourly rows, from the calls (the same legs and wait as cdr-rollup.ts).
update cdr_hourly r
   set no_answer_wait_sec = x.no_answer_wait_sec, busy_wait_sec = x.busy_wait_sec,
       failed_wait_sec = x.failed_wait_sec, blocked_wait_sec = x.blocked_wait_sec
  from (
    select c.tenant_id, date_trunc('hour', c.started_at, 'Asia/Ho_Chi_Minh') as hour, l.extension, coalesce(c.queue_id, 0) as queue_id, c.direction, l.leg,
           coalesce(sum(w.wait) filter (where c.disposition = 'NO ANSWER'), 0) as no_answer_wait_sec,
           coalesce(sum(w.wait) filter (where c.disposition = 'BUSY'), 0) as busy_wait_sec,
           coalesce(sum(w.wait) filter (where c.disposition = 'FAILED'), 0) as failed_wait_sec,
           coalesce(sum(w.wait) filter (where c.disposition = 'BLOCKED'), 0) as blocked_wait_sec
      from cdrs c
      cross join lateral (
        select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
        union all
        select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
      ) l
      cross join lateral (select case when c.answered_at is null then c.duration
                                      else greatest(0, round(extract(epoch from c.answered_at - c.started_at)))::bigint end as wait) w
     where c.disposition <> 'ANSWERED'
     group by 1, 2, 3, 4, 5, 6
  ) x
 where r.tenant_id = x.tenant_id and r.hour = x.hour and r.extension = x.extension and r.queue_id = x.queue_id
   and r.direction = x.direction and r.leg = x.leg;

-- The daily rows again from the hourly ones, now per queue (as the generator builds them).
delete from cdr_daily;
insert into cdr_daily (tenant_id, day, extension, queue_id, direction, leg, calls, answered, no_answer, busy, failed, blocked,
                       billsec, duration, wait_sec, no_answer_wait_sec, busy_wait_sec, failed_wait_sec, blocked_wait_sec)
select tenant_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh'), extension, queue_id, direction, leg, sum(calls), sum(answered),
       sum(no_answer), sum(busy), sum(failed), sum(blocked), sum(billsec), sum(duration), sum(wait_sec),
       sum(no_answer_wait_sec), sum(busy_wait_sec), sum(failed_wait_sec), sum(blocked_wait_sec)
  from cdr_hourly
 group by 1, 2, 3, 4, 5, 6;

reset role;
