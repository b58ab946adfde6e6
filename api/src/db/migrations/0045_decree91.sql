-- Decree 91/2020/ND-CP (issue 33, ADR 0049): what the campaign rules read and write. Numbers are in
-- the stored form (84…, service numbers as dialled; contracts storedForm), so a lookup is one
-- equality on the primary key or an index.

-- Do-not-call: the tenant's own list and the national "Danh sách không quảng cáo" imported as a file
-- (hundreds of thousands of rows per tenant). The primary key is the lookup's index probe.
create table dnc_numbers (
  tenant_id int not null references tenants(id) on delete cascade,
  number text not null check (number ~ '^(84[0-9]{9,10}|1[89]00[0-9]{4,6})$'),
  source text not null check (source in ('tenant', 'national')),
  note text not null default '',
  created_at timestamptz not null default now(),
  primary key (tenant_id, number, source)
);

-- What a subscriber agreed to ("trừ trường hợp đã có thỏa thuận khác với người sử dụng"): a history,
-- the latest row per number is the agreement in force (a row with nothing lifted withdraws it).
create table contact_consents (
  id bigserial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  number text not null check (number ~ '^(84[0-9]{9,10}|1[89]00[0-9]{4,6})$'),
  source text not null,
  agreed_at timestamptz not null,
  lifts_window boolean not null default false,
  lifts_cap boolean not null default false,
  overrides_dnc boolean not null default false,
  note text not null default '',
  created_at timestamptz not null default now()
);
create index contact_consents_number_idx on contact_consents (tenant_id, number, agreed_at desc);

-- The rolling 24-hour cap: one row per number, claimed by one atomic upsert when an advertising call
-- is placed (two agents or two API instances cannot both pass).
create table advertising_last_calls (
  tenant_id int not null references tenants(id) on delete cascade,
  number text not null,
  last_called_at timestamptz not null,
  campaign_id bigint,
  call_id text,
  primary key (tenant_id, number)
);

-- A hotline registered as a "tên định danh" for advertising: the only caller IDs an advertising
-- campaign may use (hotlines are pbx_numbers bound to a switchboard, migration 0031).
alter table pbx_numbers add column advertising_identity boolean not null default false;

alter table dnc_numbers enable row level security;
alter table dnc_numbers force row level security;
create policy tenant_isolation on dnc_numbers
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

alter table contact_consents enable row level security;
alter table contact_consents force row level security;
create policy tenant_isolation on contact_consents
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

alter table advertising_last_calls enable row level security;
alter table advertising_last_calls force row level security;
create policy tenant_isolation on advertising_last_calls
  using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);

-- A tenant's transaction reads and writes its own rows (import, consent, the claim).
grant select, insert, update, delete on dnc_numbers, contact_consents, advertising_last_calls to app_user;
grant select, insert, update, delete on dnc_numbers, contact_consents, advertising_last_calls to app_system;
grant usage, select on all sequences in schema public to app_user;
grant usage, select on all sequences in schema public to app_system;
