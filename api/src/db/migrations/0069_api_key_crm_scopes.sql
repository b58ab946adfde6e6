-- CRM integrations (issue 39): the tenant's API keys (voice-OTP's, ADR 0052) take two more scopes,
-- `calls.events` (the key's webhook hears the tenant's call events) and `calls.originate` (the
-- click-to-call API). A key holds one or more scopes of either family.
alter table otp_api_keys drop constraint otp_api_keys_scopes_check;
alter table otp_api_keys add constraint otp_api_keys_scopes_check
  check (cardinality(scopes) >= 1 and scopes <@ array['verify.start', 'verify.read', 'verify.check', 'calls.events', 'calls.originate']);
