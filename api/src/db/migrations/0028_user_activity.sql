-- User activity (issue 14, ADR 0027): logins, logouts, activity-status changes and SIP
-- registrations as events, one row per thing that happened, per tenant. Append-only: the app
-- roles may add and read rows, never change or remove one (no UPDATE/DELETE grant, and a trigger
-- refuses both for any role, so even a mistaken grant cannot make history editable). Rows go only
-- when their tenant goes (the foreign key's cascade is the one delete the trigger lets through).
create table user_activity_events (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  -- The account as it was when it happened; no foreign key (an account deleted later keeps its past).
  user_id int,
  at timestamptz not null default now(),
  kind text not null check (kind in ('login', 'logout', 'status', 'registered', 'unregistered')),
  -- 'status': the new status_activity; 'login': the status the user comes back with.
  status smallint,
  -- 'registered' / 'unregistered': the SIP extension.
  extension text,
  -- 'login' / 'logout': the session; 'unregistered': why ('expired' when nobody refreshed it).
  session_id uuid,
  reason text not null default ''
);
create index user_activity_events_user_idx on user_activity_events (tenant_id, user_id, at);
create index user_activity_events_at_idx on user_activity_events (tenant_id, at);

alter table user_activity_events enable row level security;
alter table user_activity_events force row level security;
create policy tenant_isolation on user_activity_events
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

create function user_activity_events_append_only() returns trigger
language plpgsql as $$
begin
  -- pg_trigger_depth() > 1: the delete comes from the tenants foreign key's cascade.
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
  raise exception 'user_activity_events is append-only' using errcode = '42501';
end $$;
create trigger user_activity_events_append_only before update or delete on user_activity_events
  for each row execute function user_activity_events_append_only();

revoke all on user_activity_events from app_user, app_system;
grant select, insert on user_activity_events to app_user, app_system;
grant usage, select on sequence user_activity_events_id_seq to app_user, app_system;
