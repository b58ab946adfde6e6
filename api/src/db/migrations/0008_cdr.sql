-- Call detail records (issue 7): one row per call Kamailio routed for a tenant, written when the
-- call ends (answered, unanswered, busy, failed, or refused by the plan: BLOCKED). Times are what
-- Kamailio reported (start = plan request, answer = 200 OK, end = BYE / final failure).
-- docs/adr/0011-call-routing-in-kamailio.md explains how the events reach the API.
create table cdrs (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  call_id text not null,
  caller text not null,
  callee text not null,
  did text,
  direction text not null check (direction in ('inbound', 'internal', 'outbound')),
  -- The objects the call passed through (routing engine RouteNode[]), in order.
  route jsonb not null default '[]'::jsonb,
  ring_group_id int,
  queue_id int,
  -- The extension that answered (null: nobody, or an external number via a trunk).
  extension text,
  trunk text,
  started_at timestamptz not null,
  answered_at timestamptz,
  ended_at timestamptz not null,
  duration int not null check (duration >= 0),
  billsec int not null check (billsec >= 0),
  disposition text not null check (disposition in ('ANSWERED', 'NO ANSWER', 'BUSY', 'FAILED', 'BLOCKED')),
  -- Final SIP status seen by the caller (200 for answered calls) and, for refusals, why (Vietnamese).
  sip_code int,
  reason text not null default '',
  unique (tenant_id, call_id)
);
-- Report pages are keyset-paged by (started_at, id) inside a tenant; lookups by number and extension.
create index cdrs_tenant_started_idx on cdrs (tenant_id, started_at, id);
create index cdrs_tenant_caller_idx on cdrs (tenant_id, caller);
create index cdrs_tenant_callee_idx on cdrs (tenant_id, callee);
create index cdrs_tenant_extension_idx on cdrs (tenant_id, extension);

-- Row-level security exactly as 0001.
alter table cdrs enable row level security;
alter table cdrs force row level security;
create policy tenant_isolation on cdrs
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on cdrs to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
