-- Live monitoring (issue 14, ADR 0026).
-- 1. Per queue: the service level's target (answered within sla_seconds, default 20) and the
--    longest waits at which the wall's tile turns amber and red.
alter table pbx_queues
  add column sla_seconds int not null default 20 check (sla_seconds between 5 and 600),
  add column amber_wait_seconds int not null default 30 check (amber_wait_seconds between 5 and 3600),
  add column red_wait_seconds int not null default 60 check (red_wait_seconds between 5 and 3600);

-- 2. The rollups count the calls answered within their queue's sla_seconds (as it was when the
--    call was recorded; calls outside a queue: 20 s), so the service level comes from the one read
--    model like every other figure (reports/read-model.ts).
alter table cdr_hourly add column answered_sla int not null default 0;
alter table cdr_daily add column answered_sla int not null default 0;
alter table cdr_daily_queue add column answered_sla int not null default 0;

-- Calls recorded before this migration: their answered-within-SLA counts, from the calls (the same
-- legs and rule as cdr-rollup.ts; every queue's sla_seconds is the default 20 here), then the days.
set local role app_system;
update cdr_hourly r set answered_sla = x.n
  from (
    select c.tenant_id, date_trunc('hour', c.started_at, 'Asia/Ho_Chi_Minh') as hour, l.extension, coalesce(c.queue_id, 0) as queue_id, c.direction, l.leg,
           count(*) as n
      from cdrs c
      cross join lateral (
        select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
        union all
        select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
      ) l
     where c.answered_at is not null and extract(epoch from c.answered_at - c.started_at) <= 20
     group by 1, 2, 3, 4, 5, 6
  ) x
 where r.tenant_id = x.tenant_id and r.hour = x.hour and r.extension = x.extension and r.queue_id = x.queue_id
   and r.direction = x.direction and r.leg = x.leg;
update cdr_daily r set answered_sla = x.n
  from (select tenant_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh') as day, extension, direction, leg, sum(answered_sla) as n
          from cdr_hourly group by 1, 2, 3, 4, 5) x
 where r.tenant_id = x.tenant_id and r.day = x.day and r.extension = x.extension and r.direction = x.direction and r.leg = x.leg;
update cdr_daily_queue r set answered_sla = x.n
  from (select tenant_id, date_trunc('day', hour, 'Asia/Ho_Chi_Minh') as day, queue_id, extension, direction, leg, sum(answered_sla) as n
          from cdr_hourly group by 1, 2, 3, 4, 5, 6) x
 where r.tenant_id = x.tenant_id and r.day = x.day and r.queue_id = x.queue_id and r.extension = x.extension
   and r.direction = x.direction and r.leg = x.leg;
reset role;
