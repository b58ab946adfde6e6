import { isTransientDbError, type Db } from '../../db/db';

/** What the journal keeps of a call: its tracker state, serialisable as JSON. */
export interface JournalEntry {
  callId: string;
  tenantId: number;
  startedAt: Date;
}

/**
 * The calls in progress, kept in PostgreSQL (table calls_in_progress, ADR 0046) so an API that
 * restarts finds the calls it was following. Writes are batched: every change to a call within
 * `intervalMs` is one row written, a call that starts and ends within it is never written. A
 * failed write (the database restarting) is tried again with the newest state, never lost while
 * this process lives; what happened after a crash comes back as Kamailio's unacknowledged events.
 */
export class CallJournal<T extends JournalEntry> {
  /** Per call: its newest state to save, or null to delete its row. */
  private pending = new Map<string, { tenantId: number; state: T | null }>();
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private retryMs: number;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly opts: { intervalMs?: number; onError?: (err: unknown) => void } = {},
  ) {
    this.retryMs = opts.intervalMs ?? 20;
  }

  /** The calls left in progress by an earlier process (or another instance), oldest first. */
  async load(revive: (state: T) => T): Promise<T[]> {
    const { rows } = await this.db.withSystem((tx) => tx.query<{ state: string }>('select state from calls_in_progress order by started_at, call_id'));
    const calls: T[] = [];
    for (const r of rows) {
      try {
        calls.push(revive(JSON.parse(r.state) as T));
      } catch (err) {
        this.opts.onError?.(err);
      }
    }
    return calls;
  }

  save(call: T): void {
    this.pending.set(call.callId, { tenantId: call.tenantId, state: call });
    this.schedule(this.opts.intervalMs ?? 20);
  }

  drop(callId: string, tenantId: number): void {
    this.pending.set(callId, { tenantId, state: null });
    this.schedule(this.opts.intervalMs ?? 20);
  }

  /** Resolves once every change made so far is in the database (after retries if need be). */
  written(): Promise<void> {
    if (!this.pending.size) return this.flushing;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Writes what is pending now (stopping: the last changes, once). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private schedule(ms: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private flush(): Promise<void> {
    const batch = this.pending;
    const waiting = this.waiting;
    this.pending = new Map();
    this.waiting = [];
    this.flushing = this.flushing.then(async () => {
      if (!batch.size) return void waiting.forEach((w) => w());
      try {
        await this.write(batch);
        this.retryMs = this.opts.intervalMs ?? 20;
        for (const w of waiting) w();
      } catch (err) {
        this.opts.onError?.(err);
        // Refused for what it says (not the database being away): logged, not tried forever.
        if (!isTransientDbError(err)) return void waiting.forEach((w) => w());
        // Newer changes win: what was saved since stays, the rest comes back for the next try.
        for (const [id, v] of batch) if (!this.pending.has(id)) this.pending.set(id, v);
        this.waiting.unshift(...waiting);
        this.retryMs = Math.min(this.retryMs * 2, 2000);
        this.schedule(this.retryMs);
        this.timer?.unref();
      }
    });
    return this.flushing;
  }

  private async write(batch: Map<string, { tenantId: number; state: T | null }>): Promise<void> {
    const saves: unknown[] = [];
    const drops: string[] = [];
    for (const [callId, { tenantId, state }] of batch) {
      if (state) saves.push({ call_id: callId, tenant_id: tenantId, started_at: state.startedAt, state: JSON.stringify(state) });
      else drops.push(callId);
    }
    await this.db.withSystem(async (tx) => {
      if (saves.length)
        await tx.query(
          `insert into calls_in_progress (call_id, tenant_id, started_at, state)
           select call_id, tenant_id, started_at, state from json_to_recordset($1::json) as r(call_id text, tenant_id int, started_at timestamptz, state text)
           on conflict (call_id) do update set state = excluded.state, updated_at = now()`,
          [JSON.stringify(saves)],
        );
      if (drops.length) await tx.query('delete from calls_in_progress where call_id = any($1::text[])', [drops]);
    });
  }
}
