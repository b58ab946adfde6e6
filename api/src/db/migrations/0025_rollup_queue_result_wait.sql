-- Summaries filtered as the call-history screens filter (issue 13, ADR 0031), still from the rollups:
-- 1. cdr_hourly gains the wait of each unanswered result (no answer, busy, failed, blocked), so a
--    summary filtered by result has its exact wait (an answered call's wait is wait_sec less these);
-- 2. cdr_daily_queue: cdr_daily per queue (0: none; indexed by days and by queue) with those waits, read by
--    whole-day summaries filtered by queue or result. cdr_daily itself stays as it was: measured at
--    1 M calls, a queue column doubled its rows and the waits widened them by a third, each slowing
--    every unfiltered summary.
-- Direction and outcome counts were dimensions/columns already. The writer and the generator fill
-- the new columns through cdr-rollup.ts; existing rows are backfilled here.

alter table cdr_hourly
  add column no_answer_wait_sec bigint not null default 0,
  add column busy_wait_sec bigint not null default 0,
  add column failed_wait_sec bigint not null default 0,
  add column blocked_wait_sec bigint not null default 0;

create table cdr_daily_queue (
  like cdr_hourly including defaults including constraints,
  primary key (tenant_id, hour, queue_id, extension, direction, leg)
);
alter table cdr_daily_queue rename column hour to day;
-- Days first (a result filter reads a range of days, as cdr_daily), and one queue's days.
create index cdr_daily_queue_queue_idx on cdr_daily_queue (tenant_id, queue_id, day);
alter table cdr_daily_queue add constraint cdr_daily_queue_tenant_fk foreign key (tenant_id) references tenants(id) on delete cascade;
alter table cdr_daily_queue enable row level security;
alter table cdr_daily_queue force row level security;
create policy tenant_isolation on cdr_daily_queue
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
grant select, insert, update, delete on cdr_daily_queue to app_user;
grant select, insert, update, delete on cdr_daily_queue to app_system;

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

-- The per-queue days from the hourly rows (as the generator builds them).
insert into cdr_daily_queue (tenant_id, queue_id, day, extension, direction, leg, calls, answered, no_answer, busy, failed, blocked,
                             billsec, duration, wait_sec, no_answer_wait_sec, busy_wait_sec, failed_wait_sec, blocked_wait_sec)
select tenant_id, queue_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh'), extension, direction, leg, sum(calls), sum(answered),
       sum(no_answer), sum(busy), sum(failed), sum(blocked), sum(billsec), sum(duration), sum(wait_sec),
       sum(no_answer_wait_sec), sum(busy_wait_sec), sum(failed_wait_sec), sum(blocked_wait_sec)
  from cdr_hourly
 group by 1, 2, 3, 4, 5, 6;

reset role;
