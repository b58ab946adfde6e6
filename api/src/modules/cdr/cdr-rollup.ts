/**
 * The one definition of how call records fold into the rollups (migration 0022, ADR 0022):
 * cdr_hourly (hour × extension × queue × direction × leg), cdr_daily (Vietnam day × extension ×
 * direction × leg) and cdr_daily_queue (per queue too, with per-result waits, migration 0025). The CDR writer runs
 * these over the rows it has just inserted (same statement), the generator over a whole COPY. `source` names a relation with the cdrs columns.
 *
 * Legs: the extension that placed an outbound or internal call has an 'out' row; inbound calls
 * have an 'in' row for the extension that answered ('' when nobody did); internal calls also have
 * an 'in' row for the extension that answered or was called. Adding rows up adds, so a run over
 * new rows only (the writer's RETURNING) never counts a call twice.
 */
const BASE_SUMS = ['calls', 'answered', 'voicemail', 'auto', 'no_answer', 'busy', 'failed', 'blocked', 'billsec', 'duration', 'wait_sec', 'answered_sla', 'csat_count', 'csat_sum'];
/** The results other than a person's answer, each a count column (migrations 0022, 0043): their dispositions. */
const OTHER_RESULTS = [['voicemail', 'VOICEMAIL'], ['auto', 'AUTO'], ['no_answer', 'NO ANSWER'], ['busy', 'BUSY'], ['failed', 'FAILED'], ['blocked', 'BLOCKED']] as const;
/** The wait of each result but a person's answer on its own (migrations 0025, 0043; not in cdr_daily, see GRAINS). */
const RESULT_WAITS = OTHER_RESULTS.map(([r]) => `${r}_wait_sec`);

/** Answered within the service level of the call's queue (its sla_seconds when recorded; 20 s outside a queue; migration 0027). */
const ANSWERED_SLA = `count(*) filter (where c.disposition = 'ANSWERED' and extract(epoch from c.answered_at - c.started_at) <=
      coalesce((select q.sla_seconds from pbx_queues q where q.id = c.queue_id and q.tenant_id = c.tenant_id), 20))`;

/** Seconds a caller waited: until the answer, or until they gave up. */
const WAIT = `case when c.answered_at is null then c.duration else greatest(0, round(extract(epoch from c.answered_at - c.started_at)))::bigint end`;

/** Post-call CSAT (migration 0062): the calls their caller rated, and the sum of the scores (the mean is sum / count). */
const RAW_CSAT = `count(c.csat), coalesce(sum(c.csat), 0)`;

// Talk time is a person's (ADR 0045): a mailbox or a menu answering bills the caller but is nobody's talk.
const RAW_BASE = `count(*), count(*) filter (where c.disposition = 'ANSWERED'),
      ${OTHER_RESULTS.map(([, d]) => `count(*) filter (where c.disposition = '${d}')`).join(', ')},
      coalesce(sum(c.billsec) filter (where c.disposition = 'ANSWERED'), 0), sum(c.duration), sum(${WAIT}), ${ANSWERED_SLA}, ${RAW_CSAT}`;
// So a summary filtered by result has its exact wait; an answered call's is wait_sec less these.
const RAW_WAITS = OTHER_RESULTS.map(([, d]) => `coalesce(sum(${WAIT}) filter (where c.disposition = '${d}'), 0)`).join(', ');

const LEGS = `cross join lateral (
      select 'out'::text as leg, c.caller as extension where c.direction <> 'inbound'
      union all
      select 'in', coalesce(c.extension, case when c.direction = 'internal' then c.callee end, '') where c.direction <> 'outbound'
    ) l`;

/** `on conflict … do update` adding the new sums to the stored ones (omitted for a first fill). */
const addUp = (keys: string, sums: readonly string[], upsert: boolean) =>
  upsert ? `on conflict (${keys}) do update set ${sums.map((s) => `${s} = r.${s} + excluded.${s}`).join(', ')}` : '';

/** The select expression of each key column over a call `c` and its leg `l`. */
const KEY_EXPR: Record<string, string> = {
  tenant_id: 'c.tenant_id',
  hour: `date_trunc('hour', c.started_at, 'Asia/Ho_Chi_Minh')`,
  day: `date_trunc('day', c.started_at, 'Asia/Ho_Chi_Minh')`,
  extension: 'l.extension',
  queue_id: 'coalesce(c.queue_id, 0)',
  direction: 'c.direction',
  leg: 'l.leg',
};

/**
 * cdr_daily_queue (migration 0025) is cdr_daily per queue (0: none) with the per-result waits:
 * the whole-day summaries filtered by queue or by result read it (indexed by days and by queue). Every
 * other whole-day summary reads cdr_daily, kept as narrow as it was: a queue dimension doubled its
 * rows, the waits widened them by a third, and each slowed unfiltered summaries (ADR 0031).
 */
const GRAINS = {
  hour: { table: 'cdr_hourly', keys: ['tenant_id', 'hour', 'extension', 'queue_id', 'direction', 'leg'], waits: true },
  day: { table: 'cdr_daily', keys: ['tenant_id', 'day', 'extension', 'direction', 'leg'], waits: false },
  dayQueue: { table: 'cdr_daily_queue', keys: ['tenant_id', 'day', 'queue_id', 'extension', 'direction', 'leg'], waits: true },
} as const;
const groupBy = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(', ');
const sumsOf = (g: (typeof GRAINS)[keyof typeof GRAINS]) => (g.waits ? [...BASE_SUMS, ...RESULT_WAITS] : BASE_SUMS);

/** INSERT … SELECT of `source`'s calls into one grain; `upsert` false only into empty space. */
export function rollupInsert(source: string, grain: keyof typeof GRAINS, upsert = true): string {
  const g = GRAINS[grain];
  return `insert into ${g.table} as r (${g.keys.join(', ')}, ${sumsOf(g).join(', ')})
    select ${g.keys.map((k) => KEY_EXPR[k]).join(', ')},
      ${RAW_BASE}${g.waits ? `, ${RAW_WAITS}` : ''}
    from ${source} c
    ${LEGS}
    group by ${groupBy(g.keys.length)}
    ${addUp(g.keys.join(', '), sumsOf(g), upsert)}`;
}

/** A daily grain from cdr_hourly rows already there (the generator's second pass: far fewer rows). */
export function dailyFromHourly(where: string, grain: 'day' | 'dayQueue' = 'day'): string {
  const g = GRAINS[grain];
  const expr = (k: string) => (k === 'day' ? `date_trunc('day', hour, 'Asia/Ho_Chi_Minh')` : k);
  return `insert into ${g.table} (${g.keys.join(', ')}, ${sumsOf(g).join(', ')})
    select ${g.keys.map(expr).join(', ')}, ${sumsOf(g).map((s) => `sum(${s})`).join(', ')}
    from cdr_hourly where ${where}
    group by ${groupBy(g.keys.length)}`;
}

/**
 * A score given after its call's record was written (the caller pressed the key as they hung up):
 * adds `source`'s scores (rows with the cdrs columns, their csat just set) to the rows of every grain
 * those calls were already counted in, on the same legs. Only the CSAT sums move; the record's
 * rows are there (its insert made them), and an update that set no score passes no row here, so
 * a score is counted once.
 */
export function csatRollup(source: string, grain: keyof typeof GRAINS): string {
  const g = GRAINS[grain];
  return `insert into ${g.table} as r (${g.keys.join(', ')}, csat_count, csat_sum)
    select ${g.keys.map((k) => KEY_EXPR[k]).join(', ')}, ${RAW_CSAT}
    from ${source} c
    ${LEGS}
    where c.csat is not null
    group by ${groupBy(g.keys.length)}
    ${addUp(g.keys.join(', '), ['csat_count', 'csat_sum'], true)}`;
}
