-- Telecom (issue 15): a tenant's carrier connections (switchboards = SIP trunks) and the hotlines
-- it owns through them. The password is sealed like the subscribers' SIP passwords (AES-256-GCM,
-- SIP_PASSWORD_KEY, the tenant in the additional data) and never leaves the API except to Kamailio
-- for the carrier's digest. Status is written back from Kamailio's registrations.

create table telecom_switchboards (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  carrier text not null default 'other' check (carrier in ('viettel', 'vnpt', 'mobifone', 'fpt', 'cmc', 'other')),
  host text not null,
  port int not null default 5060 check (port between 1 and 65535),
  transport text not null default 'udp' check (transport in ('udp', 'tcp')),
  auth_user text not null default '',
  auth_password_sealed text not null default '',
  register boolean not null default true,
  register_interval int not null default 300 check (register_interval between 60 and 3600),
  max_channels int not null default 30 check (max_channels between 1 and 2000),
  codecs text[] not null default '{PCMA,PCMU}',
  enabled boolean not null default true,
  description text not null default '',
  status text not null default 'pending' check (status in ('pending', 'registered', 'failed', 'ip', 'disabled')),
  status_reason text not null default '',
  status_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index telecom_switchboards_name_key on telecom_switchboards (tenant_id, lower(name));
-- Inbound calls are accepted only from a configured switchboard: looked up by address.
create index telecom_switchboards_host_idx on telecom_switchboards (host);

alter table telecom_switchboards enable row level security;
alter table telecom_switchboards force row level security;
create policy tenant_isolation on telecom_switchboards
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- A hotline is a number of the tenant bound to a switchboard (pbx_numbers.number is already unique
-- across tenants: a number belongs to one tenant).
alter table pbx_numbers add column switchboard_id int references telecom_switchboards(id) on delete restrict;
create index pbx_numbers_switchboard_idx on pbx_numbers (tenant_id, switchboard_id) where switchboard_id is not null;

-- Outbound rules choose switchboards (ordered, failover to the next) instead of a free-text trunk;
-- caller id: a fixed hotline, or the hotline on the callee's carrier when there is one.
alter table pbx_outbound_rules add column switchboard_ids int[] not null default '{}';
alter table pbx_outbound_rules add column caller_id_mode text not null default 'fixed' check (caller_id_mode in ('fixed', 'carrier'));
alter table pbx_outbound_rules alter column trunk set default '';

-- Concurrent calls per tenant over all its switchboards.
alter table tenants add column max_channels int not null default 100 check (max_channels between 1 and 100000);

grant select, insert, update, delete on telecom_switchboards to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on telecom_switchboards to app_system;
grant usage, select on all sequences in schema public to app_system;
