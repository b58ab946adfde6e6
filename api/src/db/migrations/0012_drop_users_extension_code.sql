-- One extension identity (ADR 0015): users.extension_code was cleared by migration 0010 and nothing
-- reads or writes it any more (an account's extension is its linked subscriber's); drop it.
alter table users drop column if exists extension_code;
