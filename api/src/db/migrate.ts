import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable, Tx } from './db';
import { sealPlaintextSipPasswords } from '../modules/subscribers/sip-password-box';

const MIGRATIONS_DIR = join(__dirname, 'migrations');
// Any constant will do; it only has to be the same for every API instance.
const LOCK_KEY = 73_210_001;

/**
 * Data steps that need a key the database must not hold: run in the same transaction just
 * before the named file (0016 checks that every SIP password is sealed, ADR 0019).
 */
const BEFORE: Record<string, (tx: Queryable) => Promise<unknown>> = {
  '0016_sip_password_sealed.sql': sealPlaintextSipPasswords,
};

/**
 * Applies db/migrations/*.sql in name order, all in ONE transaction under an advisory lock,
 * so two instances starting together cannot both migrate. A file whose checksum changed after
 * it was applied is an error: migrations are append-only.
 */
export async function migrate(transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  return transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`create table if not exists schema_migrations (
      name text primary key, checksum text not null, applied_at timestamptz not null default now())`);
    const { rows } = await tx.query<{ name: string; checksum: string }>('select name, checksum from schema_migrations');
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    const ran: string[] = [];
    for (const file of files) {
      const sql = readFileSync(join(dir, file), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = applied.get(file);
      if (previous === checksum) continue;
      if (previous) throw new Error(`migration ${file} changed after it was applied`);
      await BEFORE[file]?.(tx);
      await tx.exec(sql);
      await tx.query('insert into schema_migrations (name, checksum) values ($1, $2)', [file, checksum]);
      ran.push(file);
    }
    return ran;
  });
}
