import { isTransientDbError, type Db } from '../../db/db';
import type { AlsoWritten } from './call-journal';
import type { CdrRow } from './cdr';
import { csatRollup, rollupInsert } from './cdr-rollup';
import { WrittenMark } from './written-mark';

const COLUMNS = [
  'tenant_id', 'call_id', 'caller', 'callee', 'did', 'direction', 'route', 'ring_group_id', 'queue_id', 'extension', 'trunk',
  'started_at', 'answered_at', 'ended_at', 'duration', 'billsec', 'disposition', 'sip_code', 'reason', 'csat',
] as const;
const TYPES: Record<(typeof COLUMNS)[number], string> = {
  tenant_id: 'int', call_id: 'text', caller: 'text', callee: 'text', did: 'text', direction: 'text', route: 'jsonb', ring_group_id: 'int',
  queue_id: 'int', extension: 'text', trunk: 'text', started_at: 'timestamptz', answered_at: 'timestamptz', ended_at: 'timestamptz',
  duration: 'int', billsec: 'int', disposition: 'text', sip_code: 'int', reason: 'text', csat: 'smallint',
};

/** Per database, the Vietnam-time months (YYYY-MM) whose partition this process has made sure of. */
const ready = new WeakMap<Db, Set<string>>();
const monthOf = (d: Date) => new Date(d.getTime() + 7 * 3_600_000).toISOString().slice(0, 7);

/**
 * Inserts one tenant's records and folds the ones actually inserted into the rollups, in one
 * statement (one transaction). A record already written (same Call-ID, whatever its start) is
 * kept and not counted again. A month seen for the first time gets its partition first.
 */
async function insertTenantRows(db: Db, tenantId: number, rows: CdrRow[], also?: AlsoWritten<CdrRow>): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = params.length;
    for (const c of COLUMNS) params.push(c === 'route' ? JSON.stringify(row.route) : (row[c] ?? null));
    return `(${COLUMNS.map((c, i) => `$${start + i + 1}::${TYPES[c]}`).join(', ')})`;
  });
  const monthsReady = ready.get(db) ?? new Set<string>();
  ready.set(db, monthsReady);
  const months = [...new Set(rows.map((r) => monthOf(r.started_at)))].filter((m) => !monthsReady.has(m));
  const times = rows.map((r) => r.started_at.getTime());
  const wrote = await db.withTenant(tenantId, async (tx) => {
    // The next month too: at a month's turn its partition is already there (no DDL mid-traffic).
    if (months.length) await tx.query('select cdrs_ensure_months($1, $2)', [new Date(Math.min(...times)), new Date(Math.max(...times) + 32 * 86_400_000)]);
    await tx.query(
      `with v (${COLUMNS.join(', ')}) as (values ${tuples.join(', ')}),
       ins as (
         insert into cdrs (${COLUMNS.join(', ')})
         select * from v where not exists (select 1 from cdrs c where c.tenant_id = v.tenant_id and c.call_id = v.call_id)
         on conflict (tenant_id, call_id, started_at) do nothing
         returning *),
       hourly as (${rollupInsert('ins', 'hour')}),
       daily as (${rollupInsert('ins', 'day')})
       ${rollupInsert('ins', 'dayQueue')}`,
      params,
    );
    // The CRM's call events of these calls (ADR 0065), with their records or not at all.
    return also ? also.write(tx, rows) : false;
  });
  if (wrote) also?.committed();
  for (const m of months) monthsReady.add(m);
}

/**
 * Buffers finished calls and writes them in batches (one statement per tenant every `intervalMs`
 * or `maxBatch` rows): at a thousand calls a second one insert per call would be the bottleneck.
 * A batch the database refused (it is restarting, unreachable) stays buffered and is tried again,
 * 0.2 s later and up to every 5 s; who waits for it (`written()`) waits until it is in (ADR 0046).
 */
export class CdrWriter {
  private pending: { row: CdrRow; n: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly mark = new WrittenMark();
  private retryMs = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { intervalMs?: number; maxBatch?: number; onError?: (err: unknown) => void; retryMs?: number; also?: AlsoWritten<CdrRow> } = {},
  ) {}

  add(row: CdrRow): void {
    this.pending.push({ row, n: this.mark.next() });
    if (this.pending.length >= (this.opts.maxBatch ?? 200) && !this.retryMs) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.retryMs || (this.opts.intervalMs ?? 100));
  }

  /**
   * Resolves once every record added so far is in the database, at its batch's own time (it does
   * not force a write): what an event saying "this call is recorded" waits for. A try that failed
   * does not count: the waiter waits for the retry that succeeds.
   */
  written(): Promise<void> {
    return this.mark.written();
  }

  /** Writes everything buffered so far; resolves when it is written, or when this try failed (it is then buffered again). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      const byTenant = new Map<number, { row: CdrRow; n: number }[]>();
      for (const item of batch) byTenant.set(item.row.tenant_id, [...(byTenant.get(item.row.tenant_id) ?? []), item]);
      const failed: { row: CdrRow; n: number }[] = [];
      for (const [tenantId, items] of byTenant) {
        try {
          await insertTenantRows(this.db, tenantId, items.map((i) => i.row), this.opts.also);
        } catch (err) {
          (this.opts.onError ?? console.error)(err);
          // Refused for what the rows say (never written as they are): logged, not tried forever.
          if (isTransientDbError(err)) failed.push(...items);
        }
      }
      const kept = new Set(failed.map((i) => i.n));
      this.mark.done(batch.filter((i) => !kept.has(i.n)).map((i) => i.n));
      if (!failed.length) {
        this.retryMs = 0;
        return;
      }
      // Kept, in front of what came since; whoever waits for them waits on.
      this.pending = [...failed, ...this.pending];
      this.retryMs = Math.min(Math.max(this.retryMs * 2, this.opts.retryMs ?? 200), 5000);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), this.retryMs);
      this.timer.unref();
    });
    return this.flushing;
  }
}

/** What became of a score for a call whose record is already written (rateRecordedCall). */
export type RecordedRating = 'applied' | 'already_rated' | 'not_answered' | 'no_record';

/**
 * Post-call CSAT (issue 34) for a call already recorded: the score goes on its record once (a
 * record already rated keeps its score) and into the rollups its record was counted in, in one
 * statement, so the record and the read model never disagree. Only a call a person answered is rated.
 */
export async function rateRecordedCall(db: Db, tenantId: number, callId: string, score: number): Promise<RecordedRating> {
  return db.withTenant(tenantId, async (tx) => {
    const { rows } = await tx.query<{ applied: number; csat: number | null; disposition: string | null }>(
      `with u as (
         update cdrs set csat = $2 where call_id = $1 and csat is null and disposition = 'ANSWERED'
         returning *),
       hourly as (${csatRollup('u', 'hour')}),
       daily as (${csatRollup('u', 'day')}),
       daily_queue as (${csatRollup('u', 'dayQueue')})
       select (select count(*) from u)::int as applied, c.csat, c.disposition
       from (select 1) one left join lateral (select csat, disposition from cdrs where call_id = $1 limit 1) c on true`,
      [callId, score],
    );
    const r = rows[0];
    if (r.applied) return 'applied';
    if (!r.disposition) return 'no_record';
    return r.csat !== null ? 'already_rated' : 'not_answered';
  });
}

/** The extension that last answered this caller (any of the number's forms), from the records. */
export async function lastAnsweringAgent(db: Db, tenantId: number, callerForms: string[]): Promise<{ extension: string; at: Date } | null> {
  return db.withTenant(tenantId, async (tx) => {
    const { rows } = await tx.query<{ extension: string; answered_at: Date }>(
      `select extension, answered_at from cdrs
       where caller = any($1) and extension is not null and answered_at is not null
       order by started_at desc, id desc limit 1`,
      [callerForms],
    );
    return rows[0] ? { extension: rows[0].extension, at: new Date(rows[0].answered_at) } : null;
  });
}
