-- Voice-OTP (issue 35, ADR 0052): deliveries done with (delivered or given up) are kept 30 days, then
-- pruned hourly by the API's voice-OTP round; the pruning reads them by age through this index.
create index otp_webhook_deliveries_done_idx on otp_webhook_deliveries (created_at) where next_at is null;
