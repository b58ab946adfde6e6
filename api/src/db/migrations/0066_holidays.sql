-- Vietnam's public holidays in time groups (issue 39, ADR 0063). The holidays themselves are
-- computed by the API (Labour Code 2019 art. 112, the lunar ones at UTC+7); what is stored is each
-- group's holiday mode and each tenant's overrides of a day of a year (the government announces
-- swapped and compensating days every year): add a day with a name, remove a computed one, rename one.

-- none: the ranges alone; include: the group also holds on every holiday, all day; exclude: it holds
-- in its ranges but never on a holiday ("Giờ làm việc, trừ ngày lễ").
alter table pbx_time_groups add column holiday_mode text not null default 'none'
  check (holiday_mode in ('none', 'include', 'exclude'));

-- One override per day and tenant: the day's year is the year it changes.
create table pbx_holiday_overrides (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  day date not null,
  action text not null check (action in ('add', 'remove', 'rename')),
  name text not null default '' check (length(name) <= 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (action = 'remove' or name <> ''),
  unique (tenant_id, id),
  constraint pbx_holiday_overrides_day_key unique (tenant_id, day)
);

alter table pbx_holiday_overrides enable row level security;
alter table pbx_holiday_overrides force row level security;
create policy tenant_isolation on pbx_holiday_overrides
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on pbx_holiday_overrides to app_user, app_system;
grant usage, select on sequence pbx_holiday_overrides_id_seq to app_user, app_system;

-- Audited as every configuration object (0065): contracts AUDIT_KINDS names the kind.
insert into audit_kinds (kind, table_name, id_column, label, ignore, children) values
  ('holiday_override', 'pbx_holiday_overrides', 'id', $$concat_ws(' – ', $1->>'day', nullif($1->>'name', ''))$$, '{}', '[]');

do $$
declare
  cond text := $c$coalesce(current_setting('app.actor', true), '') <> '' and pg_trigger_depth() = 0$c$;
begin
  execute format('create trigger audit_touch before insert or update or delete on pbx_holiday_overrides for each row when (%s) execute function audit_touch(%L, %L)',
                 cond, 'holiday_override', 'id');
  execute format('create constraint trigger audit_write after insert or update or delete on pbx_holiday_overrides deferrable initially deferred for each row when (%s) execute function audit_write(%L, %L)',
                 cond, 'holiday_override', 'id');
end $$;
