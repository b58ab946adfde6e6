-- CRM call webhooks (issue 39, ADR 0065): a tenant's API key with the scope `calls.events` and a
-- webhook URL hears the tenant's calls (call.ringing, call.answered, call.ended). Each event is a
-- delivery row written in the transaction that saves the call's change (the journal of calls in
-- progress, the call record), so no event is lost to a restart; one row per key, call and event
-- (unique: the journal and the record may both write the same event, the first one stays). The
-- sender is voice-OTP's (ADR 0052), over this table: claimed `for update skip locked`, signed,
-- retried on the same schedule, pruned after the same number of days.
create table call_webhook_deliveries (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  key_id int not null,
  call_id text not null,
  event text not null check (event in ('call.ringing', 'call.answered', 'call.ended')),
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
  unique (key_id, call_id, event)
);
create index call_webhook_deliveries_due_idx on call_webhook_deliveries (next_at) where next_at is not null;
create index call_webhook_deliveries_key_idx on call_webhook_deliveries (tenant_id, key_id, id desc);
create index call_webhook_deliveries_done_idx on call_webhook_deliveries (created_at) where next_at is null;

alter table call_webhook_deliveries enable row level security;
alter table call_webhook_deliveries force row level security;
create policy tenant_isolation on call_webhook_deliveries
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on call_webhook_deliveries to app_user;
grant select, insert, update, delete on call_webhook_deliveries to app_system;
grant usage, select on sequence call_webhook_deliveries_id_seq to app_user;
grant usage, select on sequence call_webhook_deliveries_id_seq to app_system;
