-- Surveys (issue 33, ADR 0050): categories and their questions. An answer (written by the campaign
-- slice) keeps the question as asked — kind, text, options and this row's `version` in its own
-- jsonb — so editing or deleting a question never changes an answer already saved.

create table survey_categories (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The questions' composite reference: a question and its category are always of one tenant.
  unique (tenant_id, id)
);
create unique index survey_categories_name_idx on survey_categories (tenant_id, lower(name));

create table survey_questions (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  category_id int not null,
  kind text not null check (kind in ('single', 'multiple', 'rating', 'number', 'yes_no', 'text')),
  text text not null,
  options jsonb not null default '[]' check (jsonb_typeof(options) = 'array'),
  required boolean not null default false,
  -- 1, 2, 3… within the category. Deferrable: a move swaps two positions in one statement.
  position int not null check (position > 0),
  -- Bumped when what is asked (kind, text, options) changes.
  version int not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A category with questions is not deleted under them (the API says how many first).
  foreign key (tenant_id, category_id) references survey_categories (tenant_id, id) on delete restrict,
  constraint survey_questions_position_key unique (category_id, position) deferrable initially immediate
);

alter table survey_categories enable row level security;
alter table survey_categories force row level security;
create policy tenant_isolation on survey_categories
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

alter table survey_questions enable row level security;
alter table survey_questions force row level security;
create policy tenant_isolation on survey_questions
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

grant select, insert, update, delete on survey_categories, survey_questions to app_user;
grant select, insert, update, delete on survey_categories, survey_questions to app_system;
grant usage, select on all sequences in schema public to app_user;
grant usage, select on all sequences in schema public to app_system;
