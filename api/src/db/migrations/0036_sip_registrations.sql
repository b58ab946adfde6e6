-- Which extensions are registered and until when (ADR 0038): the one registration store, kept
-- here when no Redis is configured so an API restart keeps every expiry (a registration that
-- lapsed while the API was down is still recorded as ended at its expiry). Written by the
-- internal listener after each REGISTER Kamailio saved; a row goes when it lapses or unregisters.
create table sip_registrations (
  tenant_id int not null references tenants(id) on delete cascade,
  extension text not null,
  expires_at timestamptz not null,
  primary key (tenant_id, extension)
);
create index sip_registrations_expiry_idx on sip_registrations (expires_at);

alter table sip_registrations enable row level security;
alter table sip_registrations force row level security;
create policy tenant_isolation on sip_registrations
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- The internal listener writes across tenants (db.withSystem); a tenant's transaction may read.
grant select on sip_registrations to app_user;
grant select, insert, update, delete on sip_registrations to app_system;
