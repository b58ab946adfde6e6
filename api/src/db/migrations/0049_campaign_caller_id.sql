-- The outbound plan asks, for each call an extension places, whether its agent made an allowed
-- campaign attempt to that number in the last minutes (the campaign's hotline is then the caller ID,
-- ADR 0050 slice 3): an index probe by the agent and the time, not a scan of every attempt.
create index campaign_attempts_user_idx on campaign_attempts (tenant_id, user_id, started_at) where refusal is null;
