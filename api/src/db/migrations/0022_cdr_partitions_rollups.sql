-- Call records at scale (issue 13, ADR 0022): cdrs partitioned by month of started_at (months of
-- Asia/Ho_Chi_Minh), and cdr_hourly + cdr_daily, the rollups every report, KPI, dashboard and monitor figure is
-- read from (per hour × extension × queue × direction × leg). The CDR writer fills both in one
-- transaction (api/src/modules/cdr/cdr-rollup.ts).

-- 1. The partitioned table takes the old one's columns, defaults, checks and sequence as they
--    stand (LIKE), so columns an earlier migration added come along.
alter table cdrs rename to cdrs_0008;
alter index cdrs_pkey rename to cdrs_0008_pkey;
alter index cdrs_tenant_id_call_id_key rename to cdrs_0008_call_key;

create table cdrs (like cdrs_0008 including defaults including constraints including generated)
  partition by range (started_at);
-- A unique key of a partitioned table must hold the partition key. A call's started_at is fixed
-- when it starts, so (tenant_id, call_id, started_at) is the call; the writer also skips a
-- Call-ID already stored under another start (cdr-rollup.ts), which this index serves as prefix.
alter table cdrs add primary key (id, started_at);
alter table cdrs add constraint cdrs_call_key unique (tenant_id, call_id, started_at);
alter table cdrs add constraint cdrs_tenant_fk foreign key (tenant_id) references tenants(id) on delete cascade;
alter sequence cdrs_id_seq owned by cdrs.id;

-- Every non-unique index of the old table, re-created on the parent (it cascades to partitions).
do $$
declare r record;
begin
  for r in select i.indexname, i.indexdef from pg_indexes i
           join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
           where i.schemaname = 'public' and i.tablename = 'cdrs_0008' and not x.indisunique loop
    execute format('drop index %I', r.indexname);
    execute replace(r.indexdef, ' ON public.cdrs_0008 ', ' ON public.cdrs ');
  end loop;
end $$;

-- Row-level security exactly as 0008 on the parent; each partition gets the same (below), so a
-- query naming a partition directly is filtered too.
alter table cdrs enable row level security;
alter table cdrs force row level security;
create policy tenant_isolation on cdrs
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- Rows outside every month partition land here rather than failing a call's record.
create table cdrs_default partition of cdrs default;

/*
 * Creates the month partition holding instant `at` (a Vietnam-time month), moving any of its rows
 * out of cdrs_default first. Security definer: the app roles may add a month, nothing else.
 * Serialised by an advisory lock, so two writers racing for a new month do not collide.
 */
create function cdrs_ensure_month(at timestamptz) returns text
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  lo timestamptz := date_trunc('month', at, 'Asia/Ho_Chi_Minh');
  hi timestamptz := date_trunc('month', lo + interval '32 days', 'Asia/Ho_Chi_Minh');
  name text := 'cdrs_' || to_char(at at time zone 'Asia/Ho_Chi_Minh', 'YYYYMM');
begin
  if to_regclass(name) is not null then return name; end if;
  perform pg_advisory_xact_lock(73210022);
  if to_regclass(name) is not null then return name; end if;
  execute format('create table %I (like cdrs including defaults including constraints)', name);
  execute format('with moved as (delete from cdrs_default where started_at >= %L and started_at < %L returning *)
                  insert into %I select * from moved', lo, hi, name);
  execute format('alter table cdrs attach partition %I for values from (%L) to (%L)', name, lo, hi);
  execute format('alter table %I enable row level security', name);
  execute format('alter table %I force row level security', name);
  execute format($p$create policy tenant_isolation on %I
    using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
    with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, name);
  return name;
end $$;

/** Every month partition from `lo` to `hi` (the writer's batch range, the generator's range). */
create function cdrs_ensure_months(lo timestamptz, hi timestamptz) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
declare m timestamptz := date_trunc('month', lo, 'Asia/Ho_Chi_Minh');
begin
  while m <= hi loop
    perform cdrs_ensure_month(m);
    m := date_trunc('month', m + interval '32 days', 'Asia/Ho_Chi_Minh');
  end loop;
end $$;

alter table cdrs_default enable row level security;
alter table cdrs_default force row level security;
create policy tenant_isolation on cdrs_default
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- The months already holding records, and the months around now, then the records themselves.
select cdrs_ensure_months(least(min(started_at), now() - interval '1 month'), greatest(max(started_at), now() + interval '2 months'))
  from cdrs_0008;
insert into cdrs select * from cdrs_0008;
drop table cdrs_0008;

-- 2. The rollup. `hour` is the hour's first instant (Vietnam has whole-hour offsets and no DST,
--    so days are unions of whole hours). Each call is one row on its own side ('out' for the
--    placing extension of outbound and internal calls, 'in' otherwise) and internal calls a second
--    'in' row for the extension that answered or was called: per-extension figures see both ends,
--    tenant totals count legs other than internal 'in' (reports/read-model.ts).
create table cdr_hourly (
  tenant_id int not null references tenants(id) on delete cascade,
  hour timestamptz not null,
  extension text not null default '',
  queue_id int not null default 0,
  direction text not null check (direction in ('inbound', 'internal', 'outbound')),
  leg text not null check (leg in ('in', 'out')),
  calls int not null default 0,
  answered int not null default 0,
  no_answer int not null default 0,
  busy int not null default 0,
  failed int not null default 0,
  blocked int not null default 0,
  billsec bigint not null default 0,
  duration bigint not null default 0,
  -- Seconds callers waited: until the answer, or until they gave up.
  wait_sec bigint not null default 0,
  primary key (tenant_id, hour, extension, queue_id, direction, leg)
);
create index cdr_hourly_extension_idx on cdr_hourly (tenant_id, extension, hour);

-- The same sums per Vietnam day × extension × direction × leg (no queue): a busy centre has about
-- one hourly row per two calls, so ranges of whole days (every summary) read this grain instead,
-- a few rows per extension and day whatever the traffic.
create table cdr_daily (
  like cdr_hourly including defaults including constraints,
  primary key (tenant_id, hour, extension, direction, leg)
);
alter table cdr_daily rename column hour to day;
alter table cdr_daily drop column queue_id;
alter table cdr_daily add constraint cdr_daily_tenant_fk foreign key (tenant_id) references tenants(id) on delete cascade;

do $$
declare t text;
begin
  foreach t in array array['cdr_hourly', 'cdr_daily'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on cdrs, cdr_hourly, cdr_daily to app_user;
grant execute on function cdrs_ensure_month(timestamptz), cdrs_ensure_months(timestamptz, timestamptz) to app_user, app_system;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
