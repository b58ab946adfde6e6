-- Issue 33 (ADR 0050): the tenant's Google service account, for the Google Sheet contact source.
-- The key file (JSON) is sealed like SIP passwords (AES-256-GCM, SIP_PASSWORD_KEY, purpose "google");
-- only its e-mail is kept in clear, to show on the settings screen and to say whom to share a sheet with.
create table google_credentials (
  tenant_id int primary key references tenants(id) on delete cascade,
  client_email text not null check (length(client_email) between 3 and 320),
  key_sealed text not null,
  updated_at timestamptz not null default now()
);

alter table google_credentials enable row level security;
alter table google_credentials force row level security;
create policy tenant_isolation on google_credentials
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on google_credentials to app_user;
grant select, insert, update, delete on google_credentials to app_system;
