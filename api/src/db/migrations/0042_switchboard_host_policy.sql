-- Switchboard hosts (issue 32, ADR 0043): a switchboard whose host name comes to answer with an
-- address the PBX refuses (loopback, link-local, its own services…) is `blocked`: nothing is sent
-- to it until the name answers with an allowed address again or the tenant changes the host.
alter table telecom_switchboards drop constraint if exists telecom_switchboards_status_check;
alter table telecom_switchboards add constraint telecom_switchboards_status_check
  check (status in ('pending', 'registered', 'failed', 'ip', 'disabled', 'blocked'));

-- One line per block and unblock, for the operator and the tenant's admins. Append-only like
-- user_activity_events: no role may change or remove a line (rows go only with their tenant).
create table telecom_switchboard_audit (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  -- No foreign key: a switchboard deleted later keeps its history.
  switchboard_id int not null,
  at timestamptz not null default now(),
  action text not null check (action in ('blocked', 'unblocked')),
  host text not null,
  port int not null,
  -- The answer that was judged ('' when unblocked) and the rule that refused it (SWITCHBOARD_HOST_RULES).
  address text not null default '',
  rule text not null default ''
);
create index telecom_switchboard_audit_idx on telecom_switchboard_audit (tenant_id, switchboard_id, at);

alter table telecom_switchboard_audit enable row level security;
alter table telecom_switchboard_audit force row level security;
create policy tenant_isolation on telecom_switchboard_audit
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

create function telecom_switchboard_audit_append_only() returns trigger
language plpgsql as $$
begin
  -- pg_trigger_depth() > 1: the delete comes from the tenants foreign key's cascade.
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
  raise exception 'telecom_switchboard_audit is append-only' using errcode = '42501';
end $$;
create trigger telecom_switchboard_audit_append_only before update or delete on telecom_switchboard_audit
  for each row execute function telecom_switchboard_audit_append_only();

revoke all on telecom_switchboard_audit from app_user, app_system;
grant select, insert on telecom_switchboard_audit to app_user, app_system;
grant usage, select on sequence telecom_switchboard_audit_id_seq to app_user, app_system;
