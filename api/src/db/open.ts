import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface DbOptions {
  /** postgres://… selects a PostgreSQL server. */
  databaseUrl?: string;
  /** PGlite data folder, or `memory://` (tests). Used when no databaseUrl is given. */
  dataDir?: string;
  /** PGlite: a snapshot's tar (db/backup.ts) to start from instead of an empty database (the tests' migrated image). */
  image?: Uint8Array<ArrayBuffer>;
  /** PostgreSQL: how long a query may wait for its answer (the API's default, DB_QUERY_TIMEOUT_MS or 15 s, when absent). Bulk tools give their own. */
  queryTimeoutMs?: number;
}

/** Opens and migrates the database the options name. */
export function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, undefined, opts.queryTimeoutMs);
  return openPglite(opts.dataDir ?? 'memory://', opts.image);
}
