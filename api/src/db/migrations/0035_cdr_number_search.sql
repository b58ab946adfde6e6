-- A number search that matches nothing stays fast (issue 13, ADR 0029 amendment 2). The call
-- history's search is "these digits anywhere in the caller, callee or dialled number" (like
-- '%…%'), which no btree serves: a search nobody matched walked the whole range (1.3 s a month at
-- 1 M records, ~13 s at 10 M). A trigram index on the three numbers finds the matches of four
-- digits or more in about a millisecond. Under row-level security the planner cannot use it for
-- the API's own queries (`like` is not LEAKPROOF, ADR 0014), so the keys come from a SECURITY
-- DEFINER function owned by app_system (BYPASSRLS) that applies the tenant condition itself, as the
-- policy does, and answers only (started_at, id) of the range's matches; the page then reads those
-- rows by key under RLS and every condition again (cdr-page-keys.ts searchKeysSql).
set local maintenance_work_mem = '256MB';

create index cdrs_numbers_trgm_idx on cdrs using gin (caller gin_trgm_ops, callee gin_trgm_ops, did gin_trgm_ops);

create function cdr_number_keys(lo timestamptz, hi timestamptz, pattern text)
returns table (started_at timestamptz, id bigint)
language plpgsql stable security definer rows 100 set search_path = public, pg_temp as $$
begin
  -- EXECUTE: planned with the pattern's value (a generic plan would not see its trigrams).
  return query execute
    'select c.started_at, c.id from cdrs c
      where c.tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::int
        and c.started_at >= $1 and c.started_at < $2
        and (c.caller like $3 or c.callee like $3 or c.did like $3)'
    using lo, hi, pattern;
end $$;
alter function cdr_number_keys(timestamptz, timestamptz, text) owner to app_system;
revoke all on function cdr_number_keys(timestamptz, timestamptz, text) from public;
grant execute on function cdr_number_keys(timestamptz, timestamptz, text) to app_user;
grant select on cdrs to app_system;

-- The rare records whose extension filter and rollup legs disagree (ADR 0029 amendment 2): an
-- outbound call whose extension is not its caller, an internal call answered by another extension
-- than the one called, or placed by the one that answered it. A numbered page filtered by one
-- extension takes its total from the rollups plus these records' difference (cdr-read.repository
-- oddLegCorrection), which reads this index only: the predicate is that function's, word for word.
create index cdrs_odd_legs_idx on cdrs (tenant_id, started_at)
  where (direction = 'outbound' and extension <> caller)
     or (direction = 'internal' and (caller = coalesce(extension, callee) or extension <> callee));
