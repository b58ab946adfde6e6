-- Post-call CSAT on an inbound route (issue 34, ADR 0056): a call planned through a route with `csat`
-- that would ring an extension (or a number outside) directly gets the media worker in front (a `bridge`
-- step, as a recorded call does, ADR 0041), which asks the caller for a key 1–5 once the person who
-- answered hangs up. A queue reached through the route keeps its own setting (pbx_queues.csat, 0062).
alter table pbx_inbounds add column csat boolean not null default false;
