-- Voice-OTP webhooks (issue 35, ADR 0052 slice 3): a key may name a URL its verifications' status
-- changes are POSTed to, signed with the key's own signing secret (HMAC-SHA256; sealed at rest like
-- SIP passwords, purpose "otp-webhook", shown once). Each change is a delivery row written in the
-- transaction that made the change, so none is lost to a restart; the API's sender claims due rows
-- (for update skip locked: two instances never send one twice at once) and retries with backoff.
alter table otp_api_keys add column webhook_url text check (webhook_url is null or length(webhook_url) between 8 and 500);
alter table otp_api_keys add column webhook_secret_sealed text;

create table otp_webhook_deliveries (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  key_id int not null,
  verification_id uuid not null,
  -- What is POSTed, as sent (its bytes are what the signature covers).
  body text not null,
  attempts int not null default 0,
  -- When it is due; null once it is delivered or given up.
  next_at timestamptz,
  delivered_at timestamptz,
  gave_up_at timestamptz,
  last_status int,
  last_error text,
  created_at timestamptz not null default now(),
  foreign key (tenant_id, key_id) references otp_api_keys (tenant_id, id) on delete cascade,
  foreign key (tenant_id, verification_id) references otp_verifications (tenant_id, id) on delete cascade
);
create index otp_webhook_deliveries_due_idx on otp_webhook_deliveries (next_at) where next_at is not null;
create index otp_webhook_deliveries_key_idx on otp_webhook_deliveries (tenant_id, key_id, id desc);

alter table otp_webhook_deliveries enable row level security;
alter table otp_webhook_deliveries force row level security;
create policy tenant_isolation on otp_webhook_deliveries
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on otp_webhook_deliveries to app_user;
grant select, insert, update, delete on otp_webhook_deliveries to app_system;
grant usage, select on sequence otp_webhook_deliveries_id_seq to app_user;
grant usage, select on sequence otp_webhook_deliveries_id_seq to app_system;
