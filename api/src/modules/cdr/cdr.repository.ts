import type { Db } from '../../db/db';
import type { CdrRow } from './cdr';

const COLUMNS = [
  'tenant_id', 'call_id', 'caller', 'callee', 'did', 'direction', 'route', 'ring_group_id', 'queue_id', 'extension', 'trunk',
  'started_at', 'answered_at', 'ended_at', 'duration', 'billsec', 'disposition', 'sip_code', 'reason',
] as const;

/** Inserts one tenant's records in one statement; a record already written (same Call-ID) is kept. */
async function insertTenantRows(db: Db, tenantId: number, rows: CdrRow[]): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = params.length;
    for (const c of COLUMNS) params.push(c === 'route' ? JSON.stringify(row.route) : row[c]);
    return `(${COLUMNS.map((_, i) => `$${start + i + 1}`).join(', ')})`;
  });
  await db.withTenant(tenantId, (tx) =>
    tx.query(`insert into cdrs (${COLUMNS.join(', ')}) values ${tuples.join(', ')} on conflict (tenant_id, call_id) do nothing`, params),
  );
}

/**
 * Buffers finished calls and writes them in batches (one statement per tenant every `intervalMs`
 * or `maxBatch` rows): at a thousand calls a second one insert per call would be the bottleneck.
 */
export class CdrWriter {
  private pending: CdrRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: { intervalMs?: number; maxBatch?: number; onError?: (err: unknown) => void } = {},
  ) {}

  add(row: CdrRow): void {
    this.pending.push(row);
    if (this.pending.length >= (this.opts.maxBatch ?? 200)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.intervalMs ?? 100);
  }

  /** Writes everything buffered so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      const byTenant = new Map<number, CdrRow[]>();
      for (const row of batch) byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), row]);
      for (const [tenantId, rows] of byTenant) {
        try {
          await insertTenantRows(this.db, tenantId, rows);
        } catch (err) {
          (this.opts.onError ?? console.error)(err);
        }
      }
    });
    return this.flushing;
  }
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
