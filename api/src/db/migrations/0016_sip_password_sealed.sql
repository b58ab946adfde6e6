-- SIP passwords are stored sealed: AES-256-GCM under SIP_PASSWORD_KEY, a key kept outside the
-- database (docs/adr/0019-internal-listener-and-sip-secrets.md). Rows written before this file
-- are sealed by the API in the same transaction, just before it runs (db/migrate.ts, BEFORE);
-- from here on a plaintext password cannot be stored.
alter table subscribers add constraint subscribers_sip_password_sealed check (sip_password like 'v1.%');
comment on column subscribers.sip_password is 'v1.<iv>.<ciphertext+tag> (base64url), AES-256-GCM, additional data tongdai:subscriber:<tenant_id>';
