-- The campaign dialer's progressive and predictive modes (issue 34, ADR 0055). The dialer's "jobs" are the rows the
-- preview mode already has (ADR 0050): a contact handed out to a ready agent is `held` by that agent,
-- and the call placed for it is a `campaign_attempts` row written in the same transaction as the
-- hand-out and Decree 91's claim, before any INVITE leaves. What the dialer adds: who is ready, and
-- where each of its calls stands.

-- An agent ready to take a progressive campaign's calls, until `ready_until` (renewed by the working
-- screen while it is open; a closed tab stops getting calls when it runs out).
create table campaign_dialer_agents (
  tenant_id int not null references tenants(id) on delete cascade,
  campaign_id int not null,
  user_id int not null,
  ready_until timestamptz not null,
  updated_at timestamptz not null default now(),
  primary key (campaign_id, user_id),
  foreign key (tenant_id, campaign_id) references campaigns (tenant_id, id) on delete cascade,
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
create index campaign_dialer_agents_ready_idx on campaign_dialer_agents (ready_until);
alter table campaign_dialer_agents enable row level security;
alter table campaign_dialer_agents force row level security;
create policy tenant_isolation on campaign_dialer_agents
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
grant select, insert, update, delete on campaign_dialer_agents to app_user, app_system;

-- A dialer call: calling → answered → bridged → ended (or ended straight from calling/answered).
-- `dialer_at` is when it last moved (the sweep of calls no worker reports on reads it).
alter table campaign_attempts add column dialer_state text check (dialer_state in ('calling', 'answered', 'bridged', 'ended'));
alter table campaign_attempts add column dialer_at timestamptz;
alter table campaign_attempts add column duration_s int;
-- When the contact answered (the predictive pacing learns the answer delays from it; ADR 0054).
alter table campaign_attempts add column answered_at timestamptz;
-- The campaign of a dialer call (its contact's), so the campaign's live figures read its dialer calls
-- alone, not every contact of a list of 100,000.
alter table campaign_attempts add column campaign_id int;
create index campaign_attempts_dialer_idx on campaign_attempts (dialer_at) where dialer_state in ('calling', 'answered', 'bridged');
create index campaign_attempts_campaign_dialer_idx on campaign_attempts (campaign_id) where dialer_state is not null;

-- What the dialer sees with no agent choosing: answered with no agent taking it, or a call that failed.
alter table campaign_contacts drop constraint if exists campaign_contacts_result_check;
alter table campaign_contacts add constraint campaign_contacts_result_check
  check (result in ('agreed', 'declined', 'callback', 'wrong_number', 'no_answer', 'busy', 'abandoned', 'failed'));
