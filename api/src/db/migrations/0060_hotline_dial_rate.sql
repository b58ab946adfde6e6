-- The campaign dialer's cap per hotline (issue 34): how many calls the dialer may start through the
-- hotline in any 60 s, so that its carrier does not block the number for dialling too fast. Null: no cap.
alter table pbx_numbers add column max_calls_per_minute int check (max_calls_per_minute between 1 and 600);

-- The dialer counts a hotline's calls of the last minute by campaign and start: (campaign, start) serves that
-- and every read of a campaign's dialer calls the former (campaign) index served.
create index campaign_attempts_campaign_dialer_started_idx on campaign_attempts (campaign_id, started_at) where dialer_state is not null;
drop index campaign_attempts_campaign_dialer_idx;
