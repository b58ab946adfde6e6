-- Voice-OTP (issue 35, ADR 0052): the tenant's API keys, its verifications and their timeline, and
-- the hotlines it lets place OTP calls. A key is stored as a SHA-256 of its 32 random bytes (a
-- high-entropy secret needs no slow hash); the whole key is answered once, on create.

alter table pbx_numbers add column otp_enabled boolean not null default false;

create table otp_api_keys (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  -- The key's first characters, to recognise it on screen.
  prefix text not null,
  secret_hash bytea not null,
  scopes text[] not null check (cardinality(scopes) >= 1 and scopes <@ array['verify.start', 'verify.read', 'verify.check']),
  daily_limit int not null default 1000 check (daily_limit between 1 and 1000000),
  -- One retry this many seconds after an unanswered call; 0: none.
  retry_after_s int not null default 30 check (retry_after_s between 0 and 600),
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_by int,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);

-- The code is kept as given or drawn: the call reads it aloud (slice 2), so it cannot be a one-way
-- hash; it never leaves the API except spoken, and RLS keeps it inside its tenant.
create table otp_verifications (
  id uuid primary key default gen_random_uuid(),
  tenant_id int not null references tenants(id) on delete cascade,
  key_id int not null,
  phone text not null check (phone ~ '^84[0-9]{9,10}$'),
  code text not null check (code ~ '^[0-9]{4,8}$'),
  template text not null,
  -- The call's state; approved/expired are the code's and win over it (voice-otp.ts verificationStatus).
  call_status text not null default 'queued'
    check (call_status in ('queued', 'calling', 'answered', 'completed', 'no_answer', 'busy', 'failed')),
  call_attempts int not null default 0,
  call_duration_s int,
  hotline_id int,
  next_call_at timestamptz,
  checks int not null default 0,
  approved_at timestamptz,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, key_id) references otp_api_keys (tenant_id, id) on delete cascade
);
-- The list (newest first, per day) and the limits (per number in 10 minutes, per key and tenant per day).
create index otp_verifications_list_idx on otp_verifications (tenant_id, created_at desc);
create index otp_verifications_phone_idx on otp_verifications (tenant_id, phone, created_at desc);
create index otp_verifications_key_idx on otp_verifications (tenant_id, key_id, created_at desc);
-- The call job's claim (ADR 0052): the due ones, oldest first, across tenants.
create index otp_verifications_due_idx on otp_verifications (next_call_at) where next_call_at is not null;

create table otp_events (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  verification_id uuid not null,
  status text not null,
  detail text not null default '',
  at timestamptz not null default now(),
  foreign key (tenant_id, verification_id) references otp_verifications (tenant_id, id) on delete cascade
);
create index otp_events_verification_idx on otp_events (verification_id, at, id);

do $$
declare t text;
begin
  foreach t in array array['otp_api_keys', 'otp_verifications', 'otp_events'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on otp_api_keys, otp_verifications, otp_events to app_user;
grant select, insert, update, delete on otp_api_keys, otp_verifications, otp_events to app_system;
grant usage, select on all sequences in schema public to app_user;
grant usage, select on all sequences in schema public to app_system;
