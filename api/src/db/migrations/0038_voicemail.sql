-- Per-extension ring time and voicemail (issue 16), and the messages callers leave.
-- ring_time: seconds a direct call rings the extension (null: the engine's 20 s). A mailbox on:
-- a direct call that is not answered in that time, finds the extension busy or offline, goes to
-- the mailbox (FreePBX's "unavailable / busy" voicemail). PIN: for the feature codes (*97, *98).
alter table subscribers
  add column ring_time int check (ring_time between 5 and 300),
  add column voicemail_enabled boolean not null default false,
  add column voicemail_pin text check (voicemail_pin ~ '^[0-9]{4,8}$'),
  add column voicemail_greeting_id int references pbx_audio(id) on delete set null,
  add column voicemail_max_seconds int not null default 120 check (voicemail_max_seconds between 10 and 600);

-- A message: the caller's audio as the media worker recorded it (8 kHz mono WAV), in the
-- mailbox the plan named: an extension's digits, or "group-<ring group id>" (a group's shared box).
create table voicemail_messages (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  mailbox text not null check (mailbox ~ '^([0-9]{2,6}|group-[0-9]{1,9})$'),
  caller text not null,
  call_id text not null,
  duration_seconds numeric(8, 2) not null check (duration_seconds >= 0),
  mime text not null check (mime = 'audio/wav'),
  bytes bytea not null,
  heard_at timestamptz,
  created_at timestamptz not null default now(),
  unique (tenant_id, call_id)
);
create index voicemail_messages_box_idx on voicemail_messages (tenant_id, mailbox, created_at desc);

alter table voicemail_messages enable row level security;
alter table voicemail_messages force row level security;
create policy tenant_isolation on voicemail_messages
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on voicemail_messages to app_user, app_system;
grant usage, select on all sequences in schema public to app_user, app_system;
