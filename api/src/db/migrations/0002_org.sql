-- Organisation: departments, teams, branches, customer labels (projects, data sources, profile
-- statuses) and user groups. Same tenant isolation as 0001: tenant_id, RLS enabled + forced.

create table departments (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  code text not null default '',
  description text not null default '',
  manager_id int references users(id) on delete set null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
-- Names are unique per tenant regardless of case: "Phòng Kinh doanh" = "phòng kinh doanh".
create unique index departments_tenant_name_uq on departments (tenant_id, lower(name));

create table teams (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  department_id int not null,
  name text not null,
  description text not null default '',
  leader_id int references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  -- A team and its department are always of one tenant; a department with teams cannot go.
  foreign key (tenant_id, department_id) references departments(tenant_id, id) on delete restrict
);
create unique index teams_department_name_uq on teams (tenant_id, department_id, lower(name));
create index teams_department_idx on teams (tenant_id, department_id);

create table branches (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  code text not null default '',
  address text not null default '',
  phone text not null default '',
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index branches_tenant_name_uq on branches (tenant_id, lower(name));

create table projects (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index projects_tenant_name_uq on projects (tenant_id, lower(name));

create table data_sources (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index data_sources_tenant_name_uq on data_sources (tenant_id, lower(name));

create table profile_statuses (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  color text not null default '#0F6CBD',
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index profile_statuses_tenant_name_uq on profile_statuses (tenant_id, lower(name));

create table user_groups (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index user_groups_tenant_name_uq on user_groups (tenant_id, lower(name));

create table user_group_members (
  tenant_id int not null references tenants(id) on delete cascade,
  group_id int not null,
  user_id int not null references users(id) on delete cascade,
  primary key (group_id, user_id),
  foreign key (tenant_id, group_id) references user_groups(tenant_id, id) on delete cascade
);

-- Where a user sits in the organisation (the accounts screen edits these). Foreign keys are
-- checked past RLS, so they include tenant_id: a row can only point into its own tenant.
-- "set null (column)" clears the reference only, never tenant_id.
alter table users
  add column department_id int,
  add column team_id int,
  add column branch_id int,
  add constraint users_department_fk foreign key (tenant_id, department_id) references departments(tenant_id, id) on delete set null (department_id),
  add constraint users_team_fk foreign key (tenant_id, team_id) references teams(tenant_id, id) on delete set null (team_id),
  add constraint users_branch_fk foreign key (tenant_id, branch_id) references branches(tenant_id, id) on delete set null (branch_id);
create index users_department_idx on users (tenant_id, department_id);

-- Customer labels (SPEC §3): removing a label leaves the customer unlabelled.
alter table customers
  add constraint customers_is_project_fk foreign key (tenant_id, is_project) references projects(tenant_id, id) on delete set null (is_project),
  add constraint customers_is_datasource_fk foreign key (tenant_id, is_datasource) references data_sources(tenant_id, id) on delete set null (is_datasource),
  add constraint customers_is_status_fk foreign key (tenant_id, is_status) references profile_statuses(tenant_id, id) on delete set null (is_status);
create index customers_tenant_project_idx on customers (tenant_id, is_project);

do $$
declare t text;
begin
  foreach t in array array['departments','teams','branches','projects','data_sources','profile_statuses','user_groups','user_group_members'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on departments, teams, branches, projects, data_sources,
  profile_statuses, user_groups, user_group_members to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
