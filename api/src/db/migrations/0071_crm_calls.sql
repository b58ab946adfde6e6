-- Click-to-call for a CRM (issue 39, ADR 0066): each call a key asks for is a row, the job the media
-- workers' asks claim (`for update skip locked`, as voice-OTP's verifications and the dialer's attempts),
-- so a restart loses none and two API instances never place one twice. The row follows the call
-- (ringing the agent, the customer, answered, ended) and names the customer leg's Call-ID: the call record.
create table crm_calls (
  id uuid primary key default gen_random_uuid(),
  tenant_id int not null references tenants(id) on delete cascade,
  key_id int not null,
  -- The agent's extension, as the CRM named it.
  agent text not null check (agent ~ '^[0-9]{2,6}$'),
  phone text not null check (phone ~ '^84[0-9]{9,10}$'),
  external_ref text check (length(external_ref) <= 200),
  status text not null default 'queued'
    check (status in ('queued', 'ringing_agent', 'agent_answered', 'ringing_customer', 'answered', 'completed', 'failed')),
  cause text check (cause in ('agent_no_answer', 'agent_busy', 'agent_unavailable', 'agent_hung_up', 'customer_no_answer', 'customer_busy',
    'customer_failed', 'refused', 'lost', 'failed')),
  attempt int not null default 0,
  agent_call_id text,
  call_id text,
  duration_s int,
  created_at timestamptz not null default now(),
  ringing_agent_at timestamptz,
  agent_answered_at timestamptz,
  ringing_customer_at timestamptz,
  answered_at timestamptz,
  ended_at timestamptz,
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, key_id) references otp_api_keys (tenant_id, id) on delete cascade
);
-- A key's calls (its rate limit, newest first).
create index crm_calls_key_idx on crm_calls (tenant_id, key_id, created_at desc);
-- The workers' claim (oldest queued first, across tenants) and the sweep of lost calls: the calls in progress only.
create index crm_calls_live_idx on crm_calls (status, updated_at) where status in ('queued', 'ringing_agent', 'agent_answered', 'ringing_customer', 'answered');
-- One call at a time per agent.
create index crm_calls_agent_idx on crm_calls (tenant_id, agent) where status in ('queued', 'ringing_agent', 'agent_answered', 'ringing_customer', 'answered');

alter table crm_calls enable row level security;
alter table crm_calls force row level security;
create policy tenant_isolation on crm_calls
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
grant select, insert, update, delete on crm_calls to app_user, app_system;
