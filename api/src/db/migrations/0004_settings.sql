-- Issue 4: site information (name + logo), the user's activity status, sign-up support.

-- Site information shown in the layout's top bar. The logo bytes live in the database (no
-- shared disk between API instances); a tenant without a row shows its tenant name.
create table site_infos (
  tenant_id int primary key references tenants(id) on delete cascade,
  name text not null,
  logo bytea,
  logo_mime text,
  updated_at timestamptz not null default now()
);

alter table site_infos enable row level security;
alter table site_infos force row level security;
create policy tenant_isolation on site_infos
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- SPEC §3 "User activity status: status_activity": 1 Sẵn sàng, 2 Tạm nghỉ, 3 Ngừng nhận cuộc gọi.
alter table users add column status_activity int not null default 1
  check (status_activity in (1, 2, 3));

grant select, insert, update, delete on site_infos to app_user;
grant select, insert, update, delete on site_infos to app_system;
