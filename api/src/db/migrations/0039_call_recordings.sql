-- Call recording (issue 16, ADR 0041). The tenant's mode and retention live beside its other
-- system settings; a queue or an extension may set its own mode (null: the tenant's).
alter table system_settings
  add column recording_mode text not null default 'none' check (recording_mode in ('all', 'inbound', 'outbound', 'none')),
  add column recording_retention_days int check (recording_retention_days between 1 and 3650);
alter table subscribers
  add column recording_mode text check (recording_mode in ('all', 'inbound', 'outbound', 'none'));
alter table pbx_queues
  add column recording_mode text check (recording_mode in ('all', 'inbound', 'outbound', 'none'));

-- One recording per call (the call's Call-ID, as its record names it): both parties in one MP3
-- made by the media worker, kept in a store (a local folder, or an S3-compatible bucket) under
-- storage_key. The row goes when the retention deletes the file, or with the tenant.
create table call_recordings (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  call_id text not null,
  started_at timestamptz not null,
  duration_seconds numeric(8, 2) not null check (duration_seconds >= 0),
  mime text not null default 'audio/mpeg' check (mime = 'audio/mpeg'),
  size_bytes int not null check (size_bytes > 0),
  storage text not null check (storage in ('local', 's3')),
  storage_key text not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, call_id)
);
create index call_recordings_age_idx on call_recordings (tenant_id, created_at);

alter table call_recordings enable row level security;
alter table call_recordings force row level security;
create policy tenant_isolation on call_recordings
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on call_recordings to app_user, app_system;
grant usage, select on all sequences in schema public to app_user, app_system;
