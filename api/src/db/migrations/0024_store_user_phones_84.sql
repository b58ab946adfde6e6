-- One phone rule for users.phone (ADR 0016, as 0013 did for customers, DIDs and blocked numbers): the
-- phone of an account, a profile or a sign-up is stored as storedForm() writes it, 84 + the national
-- significant number. Until now it was kept as typed, and MobilePhoneSchema lets spaces, dots and a +
-- through ("+84 912 345 678", "0912.345.678"), so the value is cleaned first as cleanNumber() does.
-- stored_user_phone() is a port of storedForm() in shared/contracts/src/phone.ts for this migration
-- only (the API writes through storedForm()); api/src/db/phone-migration.integration.test.ts compares the two.
create function stored_user_phone(raw text) returns text
  language sql immutable strict
  as $$
    select case when nsn is null then c when nsn ~ '^1[89]00' then nsn else '84' || nsn end
    from (select c, case
        when c !~ '^\+?[0-9]+$' then null
        when c ~ '^\+84' then substring(c from '^\+84((?:[35789][0-9]{8}|2[0-9]{9}|(?:1800|1900)(?:[0-9]{4}|[0-9]{6})))$')
        when c ~ '^0084' then substring(c from '^0084((?:[35789][0-9]{8}|2[0-9]{9}|(?:1800|1900)(?:[0-9]{4}|[0-9]{6})))$')
        when c ~ '^(\+|00)' then null
        when c ~ '^84([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then substr(c, 3)
        when c ~ '^0([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then substr(c, 2)
        when c ~ '^([35789][0-9]{8}|2[0-9]{9}|(1800|1900)([0-9]{4}|[0-9]{6}))$' then c
      end as nsn
      from (select (case when btrim(raw) like '+%' then '+' else '' end) || regexp_replace(raw, '[^0-9*#]', '', 'g') as c) cleaned) s
  $$;

-- Every tenant's users: as app_system (BYPASSRLS), since FORCE ROW LEVEL SECURITY hides them from a
-- table owner that is not superuser.
set local role app_system;

update users set phone = stored_user_phone(phone) where phone <> stored_user_phone(phone);

reset role;
drop function stored_user_phone(text);
