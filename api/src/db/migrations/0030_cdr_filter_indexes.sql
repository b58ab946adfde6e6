-- Call-history pages that stay fast whatever the filter matches (issue 13, ADR 0029): a filtered
-- keyset page reads exact index ranges, one per (extension or queue) × direction × result, each
-- already in (started_at, id) order, and merges them (cdr-page-keys.ts), instead of walking the
-- month backwards on (tenant_id, started_at, id) until enough rows pass the filter — which read a
-- whole month (16.4 s at 10 M records) when the filter matched nothing.
-- The three extension indexes replace the plain (tenant_id, extension | caller | callee) ones, whose
-- lookups they still serve as prefix. Indexes on the partitioned parent cascade to every month.
set local maintenance_work_mem = '256MB';

drop index if exists cdrs_tenant_extension_idx;
drop index if exists cdrs_tenant_caller_idx;
drop index if exists cdrs_tenant_callee_idx;
create index cdrs_extension_key_idx on cdrs (tenant_id, extension, direction, disposition, started_at, id);
create index cdrs_caller_key_idx on cdrs (tenant_id, caller, direction, disposition, started_at, id);
create index cdrs_callee_key_idx on cdrs (tenant_id, callee, direction, disposition, started_at, id);
create index cdrs_queue_key_idx on cdrs (tenant_id, queue_id, direction, disposition, started_at, id) where queue_id is not null;
create index cdrs_result_key_idx on cdrs (tenant_id, direction, disposition, started_at, id);
