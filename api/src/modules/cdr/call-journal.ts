import { isTransientDbError, type Db, type Queryable } from '../../db/db';
import { WrittenMark } from './written-mark';

/** What the journal keeps of a call: its tracker state, serialisable as JSON. */
export interface JournalEntry {
  callId: string;
  tenantId: number;
  startedAt: Date;
}

/**
 * More to write in the same transaction as a batch of the call plane's changes (the CRM's call events,
 * ADR 0065): `write` answers whether it wrote anything; `committed` hears that it did, once committed.
 */
export interface AlsoWritten<T> {
  write(tx: Queryable, items: T[]): Promise<boolean>;
  committed(): void;
}

interface Change<T> {
  tenantId: number;
  state: T | null;
  /** The numbers (WrittenMark) of the changes this one stands for. */
  changes: number[];
}

/**
 * The calls in progress, kept in PostgreSQL (table calls_in_progress, ADR 0046) so an API that
 * restarts finds the calls it was following. Writes are batched: every change to a call within
 * `intervalMs` is one row written, a call that starts and ends within it is never written. A
 * failed write (the database restarting) is tried again with the newest state, never lost while
 * this process lives; what happened after a crash comes back as Kamailio's unacknowledged events.
 */
export class CallJournal<T extends JournalEntry> {
  /** Per call: its newest state to save, or null to delete its row, and the changes it stands for. */
  private pending = new Map<string, Change<T>>();
  private readonly mark = new WrittenMark();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private retryMs: number;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly opts: { intervalMs?: number; onError?: (err: unknown) => void; also?: AlsoWritten<T> } = {},
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
    this.change(call.callId, call.tenantId, call);
  }

  drop(callId: string, tenantId: number): void {
    this.change(callId, tenantId, null);
  }

  /** Resolves once every change made so far is in the database (after retries if need be). */
  written(): Promise<void> {
    return this.mark.written();
  }

  private change(callId: string, tenantId: number, state: T | null): void {
    // A newer state of the same call replaces the older one; writing it writes both changes.
    const n = this.mark.next();
    this.pending.set(callId, { tenantId, state, changes: [...(this.pending.get(callId)?.changes ?? []), n] });
    this.schedule(this.opts.intervalMs ?? 20);
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
    this.pending = new Map();
    const changes = () => [...batch.values()].flatMap((c) => c.changes);
    this.flushing = this.flushing.then(async () => {
      if (!batch.size) return;
      try {
        await this.write(batch);
        this.retryMs = this.opts.intervalMs ?? 20;
        this.mark.done(changes());
      } catch (err) {
        this.opts.onError?.(err);
        // Refused for what it says (not the database being away): logged, not tried forever.
        if (!isTransientDbError(err)) return this.mark.done(changes());
        // Newer changes win: what was saved since stays (and stands for these too), the rest comes back for the next try.
        for (const [id, v] of batch) {
          const newer = this.pending.get(id);
          this.pending.set(id, newer ? { ...newer, changes: [...v.changes, ...newer.changes] } : v);
        }
        this.retryMs = Math.min(this.retryMs * 2, 2000);
        this.schedule(this.retryMs);
        this.timer?.unref();
      }
    });
    return this.flushing;
  }

  private async write(batch: Map<string, Change<T>>): Promise<void> {
    const saves: unknown[] = [];
    const saved: T[] = [];
    const drops: string[] = [];
    for (const [callId, { tenantId, state }] of batch) {
      if (state) saves.push({ call_id: callId, tenant_id: tenantId, started_at: state.startedAt, state: JSON.stringify(state) });
      if (state) saved.push(state);
      else drops.push(callId);
    }
    const also = this.opts.also;
    const wrote = await this.db.withSystem(async (tx) => {
      if (saves.length)
        await tx.query(
          `insert into calls_in_progress (call_id, tenant_id, started_at, state)
           select call_id, tenant_id, started_at, state from json_to_recordset($1::json) as r(call_id text, tenant_id int, started_at timestamptz, state text)
           on conflict (call_id) do update set state = excluded.state, updated_at = now()`,
          [JSON.stringify(saves)],
        );
      if (drops.length) await tx.query('delete from calls_in_progress where call_id = any($1::text[])', [drops]);
      return saved.length && also ? also.write(tx, saved) : false;
    });
    if (wrote) also?.committed();
  }
}
