-- The KPI measure "survey calls completed" (issue 33, ADR 0050): counted from the campaign attempts,
-- the results' own rows (an attempt of a survey campaign whose result is "Đồng ý"), so it is offered now.
alter table kpis drop constraint kpis_measure_check;
alter table kpis add constraint kpis_measure_check
  check (measure in ('calls_made', 'calls_answered', 'talk_time', 'answer_rate', 'avg_handle_time', 'survey_calls_completed'));
