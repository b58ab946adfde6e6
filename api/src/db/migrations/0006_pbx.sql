-- PBX configuration (issue 6): what the partner API (/pbx) edits and the routing engine reads.
-- Destinations are two columns, <name>_type (SPEC §9 option value) and <name>_target (an id, an
-- extension or an external number, depending on the type): one row can point at any kind of
-- object, so the API checks that the target exists and refuses deletes of objects in use.
-- Every foreign key to a tenant row carries tenant_id too: a row can never point into another
-- tenant, whatever the API does.

-- DIDs: a number belongs to one tenant in the whole platform.
create table pbx_numbers (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  number text not null check (number ~ '^\+?[0-9]{3,15}$'),
  description text not null default '',
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint pbx_numbers_number_key unique (number),
  unique (tenant_id, number)
);

-- Greetings and music on hold: the bytes live in the row, one path to the data.
create table pbx_audio (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  kind text not null check (kind in ('greeting', 'moh')),
  name text not null,
  moh_class text not null default '',
  file_name text not null,
  mime text not null check (mime in ('audio/wav', 'audio/mpeg')),
  size_bytes int not null check (size_bytes > 0),
  duration_seconds numeric(10, 3) not null default 0,
  bytes bytea not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index pbx_audio_name_key on pbx_audio (tenant_id, kind, lower(name));

create table pbx_time_groups (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index pbx_time_groups_name_key on pbx_time_groups (tenant_id, lower(name));

-- One range of a time group; its id is the :detailId of /time-groups/edit/:id/:detailId.
-- '' / null = any; start > end wraps (22:00–06:00, Sat–Mon, Nov–Feb).
create table pbx_time_ranges (
  id serial primary key,
  tenant_id int not null,
  time_group_id int not null,
  time_start text not null default '' check (time_start = '' or time_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_end text not null default '' check (time_end = '' or time_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  dow_start int check (dow_start between 1 and 7),
  dow_end int check (dow_end between 1 and 7),
  dom_start int check (dom_start between 1 and 31),
  dom_end int check (dom_end between 1 and 31),
  month_start int check (month_start between 1 and 12),
  month_end int check (month_end between 1 and 12),
  foreign key (tenant_id, time_group_id) references pbx_time_groups (tenant_id, id) on delete cascade
);
create index pbx_time_ranges_group_idx on pbx_time_ranges (tenant_id, time_group_id, id);

create table pbx_ring_groups (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  extensions text[] not null,
  strategy text not null default 'ringall' check (strategy in ('ringall', 'hunt', 'memoryhunt', 'random')),
  ring_time int not null default 20,
  destination_type text,
  destination_target text,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index pbx_ring_groups_name_key on pbx_ring_groups (tenant_id, lower(name));

create table pbx_queues (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  agents text[] not null,
  strategy text not null default 'ringall' check (strategy in ('ringall', 'leastrecent', 'fewestcalls', 'rrmemory', 'linear', 'random')),
  agent_timeout int not null default 15,
  max_wait int not null default 300,
  timeout_type text,
  timeout_target text,
  join_greeting_id int,
  moh_class text not null default '',
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, join_greeting_id) references pbx_audio (tenant_id, id)
);
create unique index pbx_queues_name_key on pbx_queues (tenant_id, lower(name));

create table pbx_ivrs (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  greeting_id int,
  timeout int not null default 5,
  invalid_retries int not null default 3,
  timeout_type text,
  timeout_target text,
  invalid_type text,
  invalid_target text,
  direct_dial boolean not null default false,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, greeting_id) references pbx_audio (tenant_id, id)
);
create unique index pbx_ivrs_name_key on pbx_ivrs (tenant_id, lower(name));

-- Digit → destination of an IVR, in the order the admin entered them.
create table pbx_ivr_entries (
  id serial primary key,
  tenant_id int not null,
  ivr_id int not null,
  position int not null,
  digit text not null check (digit ~ '^[0-9*#]$'),
  destination_type text not null,
  destination_target text not null,
  unique (tenant_id, ivr_id, digit),
  foreign key (tenant_id, ivr_id) references pbx_ivrs (tenant_id, id) on delete cascade
);

create table pbx_notifications (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  greeting_id int not null,
  destination_type text,
  destination_target text,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, greeting_id) references pbx_audio (tenant_id, id)
);
create unique index pbx_notifications_name_key on pbx_notifications (tenant_id, lower(name));

create table pbx_time_conditions (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  time_group_id int not null,
  matched_type text not null,
  matched_target text not null,
  unmatched_type text not null,
  unmatched_target text not null,
  override text not null default 'none' check (override in ('none', 'temp_matched', 'temp_unmatched', 'perm_matched', 'perm_unmatched')),
  override_set_at timestamptz,
  -- A temporary override holds until the time group next changes state (computed at save).
  override_until timestamptz,
  timezone text not null default 'Asia/Ho_Chi_Minh',
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, time_group_id) references pbx_time_groups (tenant_id, id)
);
create unique index pbx_time_conditions_name_key on pbx_time_conditions (tenant_id, lower(name));

create table pbx_last_calls (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  days int not null default 7,
  ring_time int not null default 20,
  fallback_type text not null,
  fallback_target text not null,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create unique index pbx_last_calls_name_key on pbx_last_calls (tenant_id, lower(name));

-- Inbound routes: a DID of the tenant (+ optional caller pattern) → destination.
create table pbx_inbounds (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  did text not null,
  caller_pattern text not null default '',
  destination_type text not null,
  destination_target text not null,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint pbx_inbounds_did_caller_key unique (tenant_id, did, caller_pattern),
  -- Renumbering a DID carries its routes along; deleting a DID in use is refused.
  foreign key (tenant_id, did) references pbx_numbers (tenant_id, number) on update cascade
);

create table pbx_outbound_rules (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  pattern text not null,
  strip int not null default 0,
  prepend text not null default '',
  trunk text not null,
  caller_id text not null default '',
  priority int not null default 100,
  allow_international boolean not null default false,
  allow_premium boolean not null default false,
  description text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index pbx_outbound_rules_name_key on pbx_outbound_rules (tenant_id, lower(name));
create index pbx_outbound_rules_priority_idx on pbx_outbound_rules (tenant_id, priority, id);

create table pbx_blocked_numbers (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  direction text not null check (direction in ('in', 'out')),
  number text not null,
  match text not null default 'exact' check (match in ('exact', 'prefix')),
  note text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint pbx_blocked_numbers_key unique (tenant_id, direction, number, match)
);

-- Row-level security exactly as 0001.
do $$
declare t text;
begin
  foreach t in array array['pbx_numbers','pbx_audio','pbx_time_groups','pbx_time_ranges','pbx_ring_groups','pbx_queues',
    'pbx_ivrs','pbx_ivr_entries','pbx_notifications','pbx_time_conditions','pbx_last_calls','pbx_inbounds',
    'pbx_outbound_rules','pbx_blocked_numbers'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on pbx_numbers, pbx_audio, pbx_time_groups, pbx_time_ranges, pbx_ring_groups,
  pbx_queues, pbx_ivrs, pbx_ivr_entries, pbx_notifications, pbx_time_conditions, pbx_last_calls, pbx_inbounds,
  pbx_outbound_rules, pbx_blocked_numbers to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
