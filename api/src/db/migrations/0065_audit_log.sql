-- The audit log of administrative changes (issue 42 "Data safety", ADR 0057): who changed which
-- configuration object, when, from where, and what it was before and after. Per tenant and
-- append-only: the app roles may add and read lines, never change or remove one (no UPDATE/DELETE
-- grant, and a trigger refuses both for any role, as user_activity_events in 0028).
--
-- Lines are written by the database, not by each module: every audited table carries two triggers
-- (below), so a write path added later is logged without anyone remembering to. A line needs an
-- actor: the API sets `app.actor` (JSON: user_id, ip, user_agent, request_id) in the transaction of
-- a request made by a logged-in user (db.ts enterTenant/enterSystem); system work (the dialer, the
-- media worker, Kamailio's internal calls, migrations, seeds) sets none and is not logged.
--
-- One line per object per transaction, with its children folded in: a role's permissions, an
-- account's roles, an IVR's keys, a time group's ranges, a campaign's questions and agents. The
-- object's state is taken at its first change in the transaction (BEFORE trigger) and again at
-- commit (a deferred constraint trigger), and a line is written only when they differ in a column
-- that is not ignored: saving a form unchanged (which deletes and re-inserts a role's permissions)
-- writes nothing, and a refused change (rolled back) leaves nothing. Changes a foreign key's
-- cascade makes (pg_trigger_depth() > 0: an account's extension unlinked when the account goes) are
-- part of the change that caused them and not logged again.

create table audit_log (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  at timestamptz not null default now(),
  -- The account as it was when it acted; no foreign key (a deleted account keeps its past).
  actor_id int,
  actor_username text not null default '',
  actor_name text not null default '',
  ip text not null default '',
  user_agent text not null default '',
  -- Fastify's request id: the lines one request wrote share it.
  request_id text not null default '',
  -- audit_kinds.kind (contracts AUDIT_KINDS) and the object's key; its name as it was.
  kind text not null,
  entity_id text not null,
  entity_name text not null default '',
  action text not null check (action in ('create', 'update', 'delete')),
  -- The object before and after (null when it did not exist), secrets as "***"; the keys that differ.
  before jsonb,
  after jsonb,
  changed text[] not null default '{}'
);
create index audit_log_at_idx on audit_log (tenant_id, at desc, id desc);
create index audit_log_entity_idx on audit_log (tenant_id, kind, entity_id, at desc);
create index audit_log_actor_idx on audit_log (tenant_id, actor_id, at desc);

alter table audit_log enable row level security;
alter table audit_log force row level security;
create policy tenant_isolation on audit_log
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

create function audit_log_append_only() returns trigger
language plpgsql as $$
begin
  -- pg_trigger_depth() > 1: the delete comes from the tenants foreign key's cascade.
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then return old; end if;
  raise exception 'audit_log is append-only' using errcode = '42501';
end $$;
create trigger audit_log_append_only before update or delete on audit_log
  for each row execute function audit_log_append_only();

revoke all on audit_log from app_user, app_system;
grant select, insert on audit_log to app_user, app_system;
grant usage, select on sequence audit_log_id_seq to app_user, app_system;

-- What is audited: one row per kind of object (its table, key and name), with the columns whose
-- change alone is not worth a line (timestamps, states the system writes back, counters) and its
-- children, each a table whose rows belong to the object (`fk`), shown as a sorted list of `value`
-- (SQL over the child row `c`). `label` is SQL over the object's snapshot `$1` (jsonb): its name.
-- The catalogue (no tenant data) belongs to the migrations; the app roles only read it.
create table audit_kinds (
  kind text primary key,
  table_name text not null unique,
  id_column text not null default 'id',
  label text not null default $$$1->>'name'$$,
  ignore text[] not null default '{}',
  children jsonb not null default '[]'
);
grant select on audit_kinds to app_user, app_system;

insert into audit_kinds (kind, table_name, id_column, label, ignore, children) values
  ('role', 'roles', 'id', $$coalesce(nullif($1->>'display_name', ''), $1->>'name')$$, '{}',
    '[{"key": "permissions", "table": "role_permissions", "fk": "role_id", "value": "(select p.name from permissions p where p.id = c.permission_id)"}]'),
  ('account', 'users', 'id', $$$1->>'username'$$, '{status_activity}',
    '[{"key": "roles", "table": "user_roles", "fk": "user_id", "value": "(select coalesce(nullif(r.display_name, ''''), r.name) from roles r where r.id = c.role_id)"}]'),
  ('department', 'departments', 'id', default, '{}', '[]'),
  ('team', 'teams', 'id', default, '{}', '[]'),
  ('branch', 'branches', 'id', default, '{}', '[]'),
  ('project', 'projects', 'id', default, '{}', '[]'),
  ('data_source', 'data_sources', 'id', default, '{}', '[]'),
  ('profile_status', 'profile_statuses', 'id', default, '{}', '[]'),
  ('user_group', 'user_groups', 'id', default, '{}',
    '[{"key": "members", "table": "user_group_members", "fk": "group_id", "value": "(select u.username from users u where u.id = c.user_id)"}]'),
  ('extension', 'subscribers', 'id', $$concat_ws(' – ', $1->>'extension', nullif($1->>'display_name', ''))$$, '{}', '[]'),
  ('number', 'pbx_numbers', 'id', $$$1->>'number'$$, '{}', '[]'),
  ('audio', 'pbx_audio', 'id', default, '{}', '[]'),
  ('time_group', 'pbx_time_groups', 'id', default, '{}',
    '[{"key": "ranges", "table": "pbx_time_ranges", "fk": "time_group_id", "value": "to_jsonb(c) - ''tenant_id'' - ''time_group_id''", "order": "c.id"}]'),
  ('ring_group', 'pbx_ring_groups', 'id', default, '{}', '[]'),
  ('queue', 'pbx_queues', 'id', default, '{}', '[]'),
  ('ivr', 'pbx_ivrs', 'id', default, '{}',
    '[{"key": "entries", "table": "pbx_ivr_entries", "fk": "ivr_id", "value": "jsonb_build_object(''digit'', c.digit, ''destination_type'', c.destination_type, ''destination_target'', c.destination_target)", "order": "c.position"}]'),
  ('notification', 'pbx_notifications', 'id', default, '{}', '[]'),
  -- override_until is recomputed whenever the time group changes (time-ranges.routes.ts).
  ('time_condition', 'pbx_time_conditions', 'id', default, '{override_until}', '[]'),
  ('last_call', 'pbx_last_calls', 'id', default, '{}', '[]'),
  ('inbound', 'pbx_inbounds', 'id', $$concat_ws(' · ', $1->>'did', nullif($1->>'caller_pattern', ''))$$, '{}', '[]'),
  ('outbound_rule', 'pbx_outbound_rules', 'id', default, '{}', '[]'),
  ('blocked_number', 'pbx_blocked_numbers', 'id', $$$1->>'number'$$, '{}', '[]'),
  -- The registration state is written back from Kamailio (trunks/), not by an administrator.
  ('switchboard', 'telecom_switchboards', 'id', default, '{status,status_reason,status_at}', '[]'),
  ('setting', 'system_settings', 'tenant_id', $$'Cài đặt hệ thống'$$, '{}', '[]'),
  ('site', 'site_infos', 'tenant_id', default, '{}', '[]'),
  ('google_account', 'google_credentials', 'tenant_id', $$$1->>'client_email'$$, '{}', '[]'),
  -- last_used_at moves with every call an application makes with the key.
  ('otp_key', 'otp_api_keys', 'id', $$concat($1->>'name', ' (', $1->>'prefix', '…)')$$, '{last_used_at}', '[]'),
  ('survey_category', 'survey_categories', 'id', default, '{}', '[]'),
  -- version is bumped by the API when what is asked changes (it follows the text and options).
  ('survey_question', 'survey_questions', 'id', $$left($1->>'text', 120)$$, '{version}', '[]'),
  ('campaign', 'campaigns', 'id', default, '{}',
    '[{"key": "questions", "table": "campaign_questions", "fk": "campaign_id", "value": "(select concat(''#'', q.id, '' '', left(q.text, 80)) from survey_questions q where q.id = c.question_id)", "order": "c.position"},
      {"key": "agents", "table": "campaign_agents", "fk": "campaign_id", "value": "coalesce((select u.username from users u where u.id = c.user_id), (select concat(''Nhóm '', t.name) from teams t where t.id = c.team_id))"}]'),
  ('kpi', 'kpis', 'id', default, '{}', '[]');

-- Secret columns (passwords and their hashes, sealed SIP and trunk passwords, key hashes, signing
-- secrets, PINs): compared by their md5, written as "***". Binary columns (audio, logos): by md5.
create function audit_is_secret(col text) returns boolean
language sql immutable as $$ select col ~ '(password|passwd|secret|token|ha1|sealed|(^|_)hash($|_)|(^|_)pin($|_))' $$;

create function audit_redact(j jsonb) returns jsonb
language sql immutable as $$
  select case when j is null then null else coalesce(
    (select jsonb_object_agg(key, case when audit_is_secret(key) and value <> 'null'::jsonb then '"***"'::jsonb else value end) from jsonb_each(j)), '{}') end
$$;

-- The object `eid` of kind `k` as it is now in this transaction (null when there is none): its row
-- without tenant_id, secrets and binaries as md5, and its children.
create function audit_snapshot(k audit_kinds, eid text) returns jsonb
language plpgsql as $$
declare
  cols text;
  id_type text;
  snap jsonb;
  child jsonb;
  part jsonb;
begin
  select string_agg(case
           when a.atttypid = 'bytea'::regtype then format('md5(t.%1$I) as %1$I', a.attname)
           when audit_is_secret(a.attname) then format('md5(t.%1$I::text) as %1$I', a.attname)
           else format('t.%I', a.attname) end, ', ' order by a.attnum) filter (where a.attname <> 'tenant_id'),
         max(format_type(a.atttypid, a.atttypmod)) filter (where a.attname = k.id_column)
    into cols, id_type
    from pg_attribute a
   where a.attrelid = k.table_name::regclass and a.attnum > 0 and not a.attisdropped;
  execute format('select to_jsonb(x) from (select %s from %I t where t.%I = $1::%s) x', cols, k.table_name, k.id_column, id_type) into snap using eid;
  if snap is null then return null; end if;
  for child in select value from jsonb_array_elements(k.children) loop
    execute format('select coalesce(jsonb_agg(v order by o), ''[]'') from (select %s as v, %s as o from %I c where c.%I = $1::%s) x',
                   child->>'value', coalesce(child->>'order', child->>'value'), child->>'table', child->>'fk', id_type)
      into part using eid;
    snap := snap || jsonb_build_object(child->>'key', part);
  end loop;
  return snap;
end $$;

-- The objects a row change touches: the row's key column (tg_argv[1]) in the new and the old row.
create function audit_touched(op text, key text, new_row anyelement, old_row anyelement, out ids text[], out tenant int)
language plpgsql as $$
declare
  id text;
begin
  ids := '{}';
  if op <> 'DELETE' then
    execute format('select ($1).%I::text, ($1).tenant_id', key) into id, tenant using new_row;
    ids := ids || id;
  end if;
  if op <> 'INSERT' then
    execute format('select ($1).%I::text, ($1).tenant_id', key) into id, tenant using old_row;
    if not id = any(ids) then ids := ids || id; end if;
  end if;
end $$;

-- What an object was before the transaction changed it, and who is changing it: kept here from its
-- first change until the commit writes its line (or the rollback takes both away). Scratch rows of
-- one transaction, never committed: unlogged.
create unlogged table audit_pending (
  xid bigint not null,
  tenant_id int not null,
  kind text not null,
  entity_id text not null,
  before jsonb,
  actor jsonb not null,
  primary key (xid, kind, entity_id)
);
alter table audit_pending enable row level security;
alter table audit_pending force row level security;
create policy tenant_isolation on audit_pending
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
grant select, insert, delete on audit_pending to app_user, app_system;

-- BEFORE each row change: the object's first change in this transaction keeps its state and actor.
create function audit_touch() returns trigger
language plpgsql as $$
declare
  k audit_kinds;
  t record;
  eid text;
  actor jsonb := current_setting('app.actor', true)::jsonb;
begin
  select * into k from audit_kinds where kind = tg_argv[0];
  select * into t from audit_touched(tg_op, tg_argv[1], new, old);
  foreach eid in array t.ids loop
    if not exists (select 1 from audit_pending p where p.xid = txid_current() and p.kind = k.kind and p.entity_id = eid) then
      insert into audit_pending (xid, tenant_id, kind, entity_id, before, actor)
      values (txid_current(), t.tenant, k.kind, eid, audit_snapshot(k, eid),
              actor || coalesce((select jsonb_build_object('username', u.username, 'name', u.full_name) from users u where u.id = (actor->>'user_id')::int), '{}'));
    end if;
  end loop;
  if tg_op = 'DELETE' then return old; end if;
  return new;
end $$;

-- At commit (deferred), once per object: its state now against the one kept, and the line.
create function audit_write() returns trigger
language plpgsql as $$
declare
  k audit_kinds;
  t record;
  p audit_pending;
  eid text;
  after_ jsonb;
  changed_ text[];
  name_ text;
begin
  select * into k from audit_kinds where kind = tg_argv[0];
  select * into t from audit_touched(tg_op, tg_argv[1], new, old);
  foreach eid in array t.ids loop
    delete from audit_pending x where x.xid = txid_current() and x.kind = k.kind and x.entity_id = eid returning x.* into p;
    if not found then continue; end if;
    after_ := audit_snapshot(k, eid);
    if p.before is null and after_ is null then continue; end if;
    select coalesce(array_agg(f order by f), '{}') into changed_
      from (select jsonb_object_keys(coalesce(p.before, '{}')) as f union select jsonb_object_keys(coalesce(after_, '{}'))) keys
     where p.before->f is distinct from after_->f and f <> all(k.ignore || '{created_at,updated_at}'::text[]);
    if p.before is not null and after_ is not null and cardinality(changed_) = 0 then continue; end if;
    execute format('select (%s)::text', k.label) into name_ using coalesce(after_, p.before);
    insert into audit_log (tenant_id, actor_id, actor_username, actor_name, ip, user_agent, request_id, kind, entity_id, entity_name, action, before, after, changed)
    values (p.tenant_id, (p.actor->>'user_id')::int, coalesce(p.actor->>'username', ''), coalesce(p.actor->>'name', ''),
            coalesce(p.actor->>'ip', ''), left(coalesce(p.actor->>'user_agent', ''), 500), coalesce(p.actor->>'request_id', ''),
            k.kind, eid, coalesce(name_, ''), case when p.before is null then 'create' when after_ is null then 'delete' else 'update' end,
            audit_redact(p.before), audit_redact(after_), changed_);
  end loop;
  return null;
end $$;

-- The two triggers on every audited table and on each of its children's tables; neither runs (the
-- WHEN is read before any function is called) for work without an actor or for a cascade.
do $$
declare
  r record;
  cond text := $c$coalesce(current_setting('app.actor', true), '') <> '' and pg_trigger_depth() = 0$c$;
begin
  for r in
    select kind, table_name as t, id_column as key from audit_kinds
    union all
    select k.kind, c->>'table', c->>'fk' from audit_kinds k cross join jsonb_array_elements(k.children) c
  loop
    execute format('create trigger audit_touch before insert or update or delete on %I for each row when (%s) execute function audit_touch(%L, %L)',
                   r.t, cond, r.kind, r.key);
    execute format('create constraint trigger audit_write after insert or update or delete on %I deferrable initially deferred for each row when (%s) execute function audit_write(%L, %L)',
                   r.t, cond, r.kind, r.key);
  end loop;
end $$;
