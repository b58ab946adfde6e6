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
