-- One phone rule (ADR 0016): a Vietnamese number is stored 84 + its national significant number;
-- service numbers (1800/1900) as dialled; anything else as it was. Customers' phones written before
-- the rule are rewritten here exactly as storedForm() in shared/contracts/src/phone.ts does
-- (api/src/db/phone-migration.integration.test.ts compares the two). The SPEC §5 pattern keeps a
-- customer's phone to digits, so no spaces or + to clean. Every tenant's rows: as app_system
-- (BYPASSRLS), since FORCE ROW LEVEL SECURITY hides them from a table owner that is not superuser.
set local role app_system;
update customers set phone = case
    when phone ~ '^84([35789][0-9]{8}|2[0-9]{9})$' then phone
    when phone ~ '^(84|0)?(1800|1900)([0-9]{4}|[0-9]{6})$' then regexp_replace(phone, '^(84|0)', '')
    when phone ~ '^0([35789][0-9]{8}|2[0-9]{9})$' then '84' || substr(phone, 2)
    when phone ~ '^([35789][0-9]{8}|2[0-9]{9})$' then '84' || phone
    else phone
  end
where phone !~ '^84([35789][0-9]{8}|2[0-9]{9})$';
reset role;
