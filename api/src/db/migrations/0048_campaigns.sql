-- Survey and marketing campaigns and their contacts (issue 33 slice 2, ADR 0050). The preview
-- mode's hand-out and the dialer (issue 34) share these rows: a contact is a row, its lease is
-- held_by/held_until, its next try next_at. Every reference carries tenant_id, so a campaign can
-- never point into another tenant even if a check were forgotten.

-- The composite references below need (tenant_id, id) keys these tables did not have yet.
alter table customers add constraint customers_tenant_id_key unique (tenant_id, id);
alter table users add constraint users_tenant_id_key unique (tenant_id, id);
alter table pbx_numbers add constraint pbx_numbers_tenant_id_key unique (tenant_id, id);
alter table survey_questions add constraint survey_questions_tenant_id_key unique (tenant_id, id);

create table campaigns (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  family text not null check (family in ('survey', 'marketing')),
  name text not null,
  description text not null default '',
  -- Decree 91 reads it: only advertising has the 08–17 window, the 24-hour cap and the identity.
  purpose text not null check (purpose in ('advertising', 'care', 'transactional')),
  mode text not null default 'preview' check (mode in ('preview', 'progressive', 'predictive', 'voice')),
  state text not null default 'draft' check (state in ('draft', 'running', 'paused', 'ended')),
  script text not null default '',
  time_group_id int,
  hotline_id int not null,
  retry_busy_min int not null default 30 check (retry_busy_min between 1 and 10080),
  retry_no_answer_min int not null default 60 check (retry_no_answer_min between 1 and 10080),
  max_attempts int not null default 3 check (max_attempts between 1 and 20),
  abandon_cap numeric(4, 3) not null default 0.03,
  started_at timestamptz,
  ended_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, time_group_id) references pbx_time_groups (tenant_id, id) on delete restrict,
  foreign key (tenant_id, hotline_id) references pbx_numbers (tenant_id, id) on delete restrict
);
create index campaigns_family_idx on campaigns (tenant_id, family, state);

-- The questions a survey campaign asks, in order. A question asked by a running or paused campaign
-- is not deleted (the surveys service asks QuestionUsage); a draft's or an ended one's just loses it.
create table campaign_questions (
  tenant_id int not null references tenants(id) on delete cascade,
  campaign_id int not null,
  question_id int not null,
  position int not null,
  primary key (campaign_id, question_id),
  foreign key (tenant_id, campaign_id) references campaigns (tenant_id, id) on delete cascade,
  foreign key (tenant_id, question_id) references survey_questions (tenant_id, id) on delete cascade
);
create index campaign_questions_question_idx on campaign_questions (tenant_id, question_id);

-- Who calls: accounts and/or teams (a team's members at hand-out time).
create table campaign_agents (
  tenant_id int not null references tenants(id) on delete cascade,
  campaign_id int not null,
  user_id int,
  team_id int,
  check ((user_id is null) <> (team_id is null)),
  foreign key (tenant_id, campaign_id) references campaigns (tenant_id, id) on delete cascade,
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade,
  foreign key (tenant_id, team_id) references teams (tenant_id, id) on delete cascade
);
create unique index campaign_agents_user_idx on campaign_agents (campaign_id, user_id) where user_id is not null;
create unique index campaign_agents_team_idx on campaign_agents (campaign_id, team_id) where team_id is not null;

-- A number once per campaign, in its stored form (84…). The hand-out (ADR 0050) reads
-- (campaign_id, state, next_at); a callback also by its agent.
create table campaign_contacts (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  campaign_id int not null,
  number text not null check (number ~ '^(84[0-9]{9,10}|1[89]00[0-9]{4,6})$'),
  name text not null default '',
  fields jsonb not null default '{}' check (jsonb_typeof(fields) = 'object'),
  customer_id int,
  state text not null default 'pending' check (state in ('pending', 'held', 'callback', 'done', 'refused')),
  attempts int not null default 0,
  next_at timestamptz not null default now(),
  held_by int,
  held_until timestamptz,
  callback_user_id int,
  result text check (result in ('agreed', 'declined', 'callback', 'wrong_number', 'no_answer', 'busy')),
  refusal text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  constraint campaign_contacts_number_key unique (campaign_id, number),
  foreign key (tenant_id, campaign_id) references campaigns (tenant_id, id) on delete cascade,
  foreign key (tenant_id, customer_id) references customers (tenant_id, id) on delete set null (customer_id)
);
create index campaign_contacts_handout_idx on campaign_contacts (campaign_id, state, next_at, id);

-- Every try, refused ones too (Decree 91 reason), so results can show an inspector what was prevented.
create table campaign_attempts (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  contact_id bigint not null,
  user_id int,
  call_id text,
  started_at timestamptz not null default now(),
  result text,
  refusal text,
  foreign key (tenant_id, contact_id) references campaign_contacts (tenant_id, id) on delete cascade
);
create index campaign_attempts_contact_idx on campaign_attempts (contact_id, started_at);

-- Answers as typed (upsert per question), each with the question as asked (contracts QuestionAsAsked):
-- no foreign key to the question, so editing or deleting it never rewrites an answer.
create table survey_answers (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  contact_id bigint not null,
  attempt_id bigint,
  question_id int not null,
  question jsonb not null,
  value jsonb,
  saved_at timestamptz not null default now(),
  unique (contact_id, question_id),
  foreign key (tenant_id, contact_id) references campaign_contacts (tenant_id, id) on delete cascade
);


do $$
declare t text;
begin
  foreach t in array array['campaigns','campaign_questions','campaign_agents','campaign_contacts','campaign_attempts','survey_answers'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on campaigns, campaign_questions, campaign_agents, campaign_contacts, campaign_attempts, survey_answers to app_user;
grant select, insert, update, delete on campaigns, campaign_questions, campaign_agents, campaign_contacts, campaign_attempts, survey_answers to app_system;
grant usage, select on all sequences in schema public to app_user;
grant usage, select on all sequences in schema public to app_system;
