-- Roles are cluster-wide: several databases (parallel test files) may create them at once.
do $$ begin
  create role app_user nologin;
exception when duplicate_object or unique_violation then null;
end $$;
-- Tenant-less lookups (tenant by ma_dn, seeding) run as app_system via Db.withSystem.
do $$ begin
  create role app_system nologin bypassrls;
exception when duplicate_object or unique_violation then null;
end $$;
-- Lets the connecting user SET ROLE to both (a no-op for superusers).
do $$ begin
  execute format('grant app_user, app_system to %I', current_user);
exception when others then null;
end $$;

create table tenants (
  id serial primary key,
  ma_dn text not null unique,
  name text not null,
  max_user int not null default 20,
  time_zone text not null default 'Asia/Ho_Chi_Minh',
  created_at timestamptz not null default now()
);

create table users (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  username text not null,
  password_hash text not null,
  full_name text not null default '',
  email text,
  phone text,
  status text not null default 'active',
  extension_code text,
  created_at timestamptz not null default now(),
  unique (tenant_id, username)
);

create table roles (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, name),
  unique (tenant_id, id)
);

-- Global catalogue (PERMISSION_CATALOGUE), not tenant data: no tenant_id, read-only to the app.
create table permissions (
  id serial primary key,
  name text not null unique,
  "group" text not null,
  label text not null
);

create table role_permissions (
  tenant_id int not null references tenants(id) on delete cascade,
  role_id int not null,
  permission_id int not null references permissions(id) on delete cascade,
  primary key (role_id, permission_id),
  foreign key (tenant_id, role_id) references roles(tenant_id, id) on delete cascade
);

create table user_roles (
  tenant_id int not null references tenants(id) on delete cascade,
  user_id int not null references users(id) on delete cascade,
  role_id int not null,
  primary key (user_id, role_id),
  foreign key (tenant_id, role_id) references roles(tenant_id, id) on delete cascade
);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  tenant_id int not null references tenants(id) on delete cascade,
  user_id int not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index sessions_user_idx on sessions (tenant_id, user_id);

create table customers (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  code text not null default '',
  email text not null default '',
  phone text not null,
  address text not null default '',
  zalo text not null default '',
  facebook text not null default '',
  status text not null,
  note text not null default '',
  user_id int,
  note_in_calling text,
  is_datasource int,
  is_project int,
  is_status int,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index customers_tenant_id_idx on customers (tenant_id, id);
create index customers_tenant_phone_idx on customers (tenant_id, phone);
create index customers_tenant_name_idx on customers (tenant_id, lower(name));

create table system_settings (
  tenant_id int primary key references tenants(id) on delete cascade,
  hidden_phone_customer int not null default 0,
  position_hidden_phone_customer int not null default 0,
  show_popup_customer int not null default 1,
  voice_over_internet_protocol text not null default '1'
);

create table payment_checks (
  tenant_id int primary key references tenants(id) on delete cascade,
  feature_name_data text[] not null default '{}',
  date_expired date
);

-- Row-level security: ENABLE + FORCE and one policy per table. NULLIF: after set_config on a
-- pooled connection the unset setting reads '' (not NULL), which a plain cast would reject.
alter table tenants enable row level security;
alter table tenants force row level security;
create policy tenant_isolation on tenants
  using (id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (id = nullif(current_setting('app.tenant_id', true), '')::int);

do $$
declare t text;
begin
  foreach t in array array['users','roles','role_permissions','user_roles','sessions','customers','system_settings','payment_checks'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select on tenants, permissions to app_user;
grant select, insert, update, delete on users, roles, role_permissions, user_roles, sessions,
  customers, system_settings, payment_checks to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
revoke all on schema_migrations from app_user, app_system;
