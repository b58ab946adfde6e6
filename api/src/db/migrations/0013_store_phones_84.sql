-- One phone rule (ADR 0016): a Vietnamese number is stored 84 + its national significant number,
-- service numbers (1800/1900) as dialled, anything else as it was. Rows written before the rule are
-- rewritten here by stored_phone(), a port of storedForm() in shared/contracts/src/phone.ts for the
-- values these columns allow (digits, an optional leading +); api/src/db/phone-migration.integration.test.ts
-- compares the two. The port exists only for this migration: the API writes through storedForm().
create function stored_phone(c text) returns text
  language sql immutable strict
  as $$
    select case when nsn is null then c when nsn ~ '^1[89]00' then nsn else '84' || nsn end
    from (select case
        when c !~ '^\+?[0-9]+$' then null
        when c ~ '^\+84' then substring(c from '^\+84((?:[35789][0-9]{8}|2[0-9]{9}|(?:1800|1900)(?:[0-9]{4}|[0-9]{6})))$')
        when c ~ '^0084' then substring(c from '^0084((?:[35789][0-9]{8}|2[0-9]{9}|(?:1800|1900)(?:[0-9]{4}|[0-9]{6})))$')
        when c ~ '^(\+|00)' then null
        when c ~ '^84([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then substr(c, 3)
        when c ~ '^0([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then substr(c, 2)
        when c ~ '^([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then c
      end as nsn) s
  $$;

-- Every tenant's rows: as app_system (BYPASSRLS), since FORCE ROW LEVEL SECURITY hides them from a
-- table owner that is not superuser.
set local role app_system;

update customers set phone = stored_phone(phone) where phone <> stored_phone(phone);

-- A DID is unique on the platform and an exact blocked number per tenant and direction: a row whose
-- stored form another row already has (the same number written twice) keeps its old form rather
-- than fail the migration; routing reads both forms as one number. Inbound routes follow their DID
-- (foreign key ON UPDATE CASCADE).
update pbx_numbers n set number = stored_phone(n.number)
  where n.number <> stored_phone(n.number)
    and not exists (select 1 from pbx_numbers o where o.number = stored_phone(n.number))
    and n.id = (select min(m.id) from pbx_numbers m where stored_phone(m.number) = stored_phone(n.number));

-- A blocked prefix stays as typed: "024" has no 84… form that routing could match.
update pbx_blocked_numbers b set number = stored_phone(b.number)
  where b.match = 'exact' and b.number <> stored_phone(b.number)
    and not exists (select 1 from pbx_blocked_numbers o
                    where (o.tenant_id, o.direction, o.match, o.number) = (b.tenant_id, b.direction, 'exact', stored_phone(b.number)))
    and b.id = (select min(m.id) from pbx_blocked_numbers m
                where (m.tenant_id, m.direction, m.match) = (b.tenant_id, b.direction, 'exact') and stored_phone(m.number) = stored_phone(b.number));

reset role;
drop function stored_phone(text);
