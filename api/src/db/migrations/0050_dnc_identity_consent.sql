-- Issue 33 (ADR 0049): what the screens write for Decree 91.
-- A hotline registered as a "tên định danh" carries the registered name and the day it was registered
-- (migration 0045 added only the flag, set by hand in the database).
alter table pbx_numbers
  add column advertising_name text not null default '',
  add column advertising_registered_on date;

-- Who recorded a subscriber's consent (the user's name when it was recorded; consents are evidence
-- for an inspector and outlive the user).
alter table contact_consents add column recorded_by text not null default '';

-- A do-not-call entry is named by an id on the screen (list, remove); lookups stay on the primary key.
alter table dnc_numbers add column id bigserial;
create unique index dnc_numbers_id_key on dnc_numbers (id);
grant usage, select on sequence dnc_numbers_id_seq to app_user, app_system;
