-- The calls in progress (ADR 0046): what the call tracker knows of each call Kamailio asked a plan
-- for and whose record is not written yet (its plan, who answered, which worker holds it), kept
-- here so an API that restarts finds the calls it was following. A row is written (batched, a few
-- milliseconds after the plan) when the call starts and each time what the record will say
-- changes, and goes once the call's record is in cdrs. Kamailio's outbox of call events holds what
-- happened while no API listened; the two together rebuild every call.
create table calls_in_progress (
  call_id text primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  started_at timestamptz not null,
  -- The tracker's state of the call, as JSON text (written and read whole, never queried inside).
  state text not null,
  updated_at timestamptz not null default now()
);
create index calls_in_progress_tenant_idx on calls_in_progress (tenant_id);

alter table calls_in_progress enable row level security;
alter table calls_in_progress force row level security;
create policy tenant_isolation on calls_in_progress
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- The internal listener writes across tenants (db.withSystem); a tenant's transaction may read.
grant select on calls_in_progress to app_user;
grant select, insert, update, delete on calls_in_progress to app_system;
