-- How a switchboard writes the caller ID (the hotline in From / P-Asserted-Identity) to its carrier
-- (issue 15): national 0…, 84… or +84…, as the carrier asks. 1800/1900 numbers have one form.
alter table telecom_switchboards
  add column caller_id_format text not null default 'national' check (caller_id_format in ('national', 'international', 'e164'));
