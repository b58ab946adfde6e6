-- Subscribers (máy nhánh): one SIP extension per row, numbered per tenant; the SIP domain
-- (<ma_dn>.tongdai.local) says which tenant. Kamailio checks digest auth against sip_password
-- through the API's internal listener (docs/adr/0007-sip-credentials.md explains why it is kept
-- readable and who can read it).
create table subscribers (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  extension text not null check (extension ~ '^[0-9]{2,6}$'),
  display_name text not null,
  sip_password text not null,
  -- The account that uses this extension; at most one extension per account in a tenant.
  user_id int references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, extension),
  unique (tenant_id, user_id)
);

-- The softphone's call log (POST create-histories-call): each user sees their own calls.
create table call_histories (
  id serial primary key,
  tenant_id int not null references tenants(id) on delete cascade,
  user_id int not null references users(id) on delete cascade,
  phone text not null,
  direction text not null default 'outgoing' check (direction in ('incoming', 'outgoing')),
  created_at timestamptz not null default now()
);
create index call_histories_user_idx on call_histories (tenant_id, user_id, id desc);

-- Row-level security exactly as 0001.
do $$
declare t text;
begin
  foreach t in array array['subscribers','call_histories'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format($p$create policy tenant_isolation on %I
      using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)$p$, t);
  end loop;
end $$;

grant select, insert, update, delete on subscribers, call_histories to app_user;
grant usage, select on all sequences in schema public to app_user;
grant select, insert, update, delete on all tables in schema public to app_system;
grant usage, select on all sequences in schema public to app_system;
