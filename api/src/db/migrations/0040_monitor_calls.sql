-- Supervisors' listen / whisper / barge on every call (issue 16, ADR 0042): a direct call between
-- phones (or with a carrier) has no media worker in its path unless it is recorded. With this on,
-- such calls go through a worker's bridge as recorded ones do, without a recording.
alter table system_settings add column monitor_calls boolean not null default false;
