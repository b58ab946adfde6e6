-- What a request's checks read besides the session (issue 38, ADR 0064): a user's roles and their
-- permissions, the tenant's payment check and its system settings. They change seldom and were read on
-- every request; the API now keeps them in memory, per tenant, labelled with the tenant's access
-- version, and reads that version with the session in the request's one checks statement. Every
-- write to those tables bumps the version in the same transaction (the triggers below), so the first
-- request of any instance that starts after the write commits sees a new version and reads them
-- again: as fresh as reading them each time, across instances, with or without Redis.
--
-- No foreign key to tenants: a tenant's deletion cascades into its roles, whose triggers bump a row
-- the deletion would then have to find; a version left behind costs one row and is never read.
create table access_versions (
  tenant_id int primary key,
  version bigint not null default 0
);

alter table access_versions enable row level security;
alter table access_versions force row level security;
create policy tenant_isolation on access_versions
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
grant select, insert, update on access_versions to app_user, app_system;

-- Runs as the writer (app_user in its tenant, app_system anywhere): the row it bumps is the changed
-- row's tenant, which row-level security already let it write.
create function bump_access_version() returns trigger
language plpgsql set search_path = public, pg_temp as $$
declare
  t int;
begin
  if tg_op = 'DELETE' then t := old.tenant_id; else t := new.tenant_id; end if;
  insert into access_versions as a (tenant_id, version) values (t, 1)
    on conflict (tenant_id) do update set version = a.version + 1;
  if tg_op = 'UPDATE' and old.tenant_id is distinct from new.tenant_id then
    insert into access_versions as a (tenant_id, version) values (old.tenant_id, 1)
      on conflict (tenant_id) do update set version = a.version + 1;
  end if;
  return null;
end $$;

do $$
declare t text;
begin
  foreach t in array array['roles', 'role_permissions', 'user_roles', 'payment_checks', 'system_settings'] loop
    execute format('create trigger %I after insert or update or delete on %I for each row execute function bump_access_version()', t || '_access_version', t);
  end loop;
end $$;
