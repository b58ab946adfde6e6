import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface DbOptions {
  /** postgres://… selects a PostgreSQL server. */
  databaseUrl?: string;
  /** PGlite data folder, or `memory://` (tests). Used when no databaseUrl is given. */
  dataDir?: string;
}

/** Opens and migrates the database the options name. */
export function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ?? 'memory://');
}
