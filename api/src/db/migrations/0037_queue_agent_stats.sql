-- What the queue strategies remember (issue 16): per queue and agent, the calls the agent took
-- from the queue (fewestcalls), when the last one ended (leastrecent) and when the agent last
-- answered one (rrmemory starts after the agent who answered last). Kept here, not in one API
-- process's memory: every instance plans with the same figures and a restart keeps them.
create table queue_agent_stats (
  tenant_id int not null references tenants(id) on delete cascade,
  queue_id int not null references pbx_queues(id) on delete cascade,
  extension text not null,
  calls int not null default 0,
  last_answered_at timestamptz not null,
  last_ended_at timestamptz,
  primary key (tenant_id, queue_id, extension)
);

alter table queue_agent_stats enable row level security;
alter table queue_agent_stats force row level security;
create policy tenant_isolation on queue_agent_stats
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on queue_agent_stats to app_user, app_system;
