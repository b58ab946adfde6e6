-- Post-call CSAT (issue 34): a queue can ask its callers, once the agent hangs up, to rate the call
-- with a key from 1 to 5 (the media worker asks, POST /internal/sip/media/csat reports it).
alter table pbx_queues add column csat boolean not null default false;

-- The score is the call record's: its agent is the record's extension (who answered, ADR 0045). Null:
-- not rated. Added on the parent, so every monthly partition (and the default one) has it.
alter table cdrs add column csat smallint check (csat between 1 and 5);

-- The rollups (ADR 0022) carry the rated calls and the sum of their scores, so reports, KPIs, the
-- dashboard and /monitor read CSAT from the same rows as every other figure (mean = sum / count).
-- A score mostly comes while the call is still up and is written with its record; one that comes
-- after the record is added to the record's rollup rows then (cdr-rollup.ts csatRollup).
alter table cdr_hourly
  add column csat_count int not null default 0,
  add column csat_sum int not null default 0;
alter table cdr_daily
  add column csat_count int not null default 0,
  add column csat_sum int not null default 0;
alter table cdr_daily_queue
  add column csat_count int not null default 0,
  add column csat_sum int not null default 0;

-- The KPI measure "average CSAT" (mean score of the assignee's rated calls).
alter table kpis drop constraint kpis_measure_check;
alter table kpis add constraint kpis_measure_check
  check (measure in ('calls_made', 'calls_answered', 'talk_time', 'answer_rate', 'avg_handle_time', 'survey_calls_completed', 'csat_avg'));
