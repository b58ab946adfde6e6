-- Issue 4: roles get a description; accounts get the fields of the account form.
-- department_id / team_id / branch_id come from 0002_org.sql; this file does not touch them.

alter table roles add column description text not null default '';

alter table users add column updated_at timestamptz not null default now();
-- Login accepts only 'active' (auth.service); 'locked' also ends live sessions (findSession).
alter table users add constraint users_status_check check (status in ('active', 'locked'));

-- The account list filters by role and counts users per role.
create index user_roles_role_idx on user_roles (tenant_id, role_id);
create index users_tenant_id_idx on users (tenant_id, id);
