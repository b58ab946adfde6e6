-- Voice-OTP (issue 35, ADR 0052). The sweep of calls whose media worker stopped reporting reads the
-- verifications still calling or answered; they are few at any moment, so a partial index keeps the
-- sweep from reading the table.
create index otp_verifications_in_call_idx on otp_verifications (updated_at) where call_status in ('calling', 'answered');

-- "Gọi thử" on /voice-otp/number: a test call a user starts from the screen, under no API key (no
-- application can read or check it, no webhook hears it); who started it is kept.
alter table otp_verifications alter column key_id drop not null;
alter table otp_verifications add column started_by int;
