-- KPIs (issue 14, ADR 0028): a target for a measure over a Vietnam calendar period, assigned to an
-- agent (users), a team or a department. The assignee is checked by the API (a row of the tenant);
-- a KPI whose assignee is later deleted stays, named as deleted. Actuals are never stored: they are
-- read from the call rollups (cdr_hourly/cdr_daily) when asked for.

create table kpis (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  measure text not null check (measure in ('calls_made', 'calls_answered', 'talk_time', 'answer_rate', 'avg_handle_time')),
  target numeric(14, 2) not null check (target > 0),
  period text not null check (period in ('day', 'week', 'month')),
  start_date date not null,
  assignee_type text not null check (assignee_type in ('user', 'team', 'department')),
  assignee_id int not null,
  created_by int references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index kpis_tenant_assignee_idx on kpis (tenant_id, assignee_type, assignee_id);

alter table kpis enable row level security;
alter table kpis force row level security;
create policy tenant_isolation on kpis
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on kpis to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on kpis to app_system;
grant usage, select on all sequences in schema public to app_system;
