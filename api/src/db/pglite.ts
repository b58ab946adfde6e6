import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { snapshotPglite, type Snapshotting } from './backup';
import { enterSystem, enterTenant, type Db, type Tx } from './db';
import { migrate } from './migrate';

/**
 * Embedded PostgreSQL. PGlite is ONE connection, so every transaction goes through
 * `pglite.transaction()`, which holds PGlite's lock: concurrent requests cannot interleave
 * inside another tenant's transaction (FIELD-NOTES: kysely-pglite leaked, this does not).
 */
export async function openPglite(dataDir: string, image?: Uint8Array<ArrayBuffer>): Promise<Db & Snapshotting> {
  // pg_trgm backs the accent-insensitive list searches (migration 0009), as on PostgreSQL.
  const extensions = { pg_trgm };
  // An image (a snapshot's tar, db/backup.ts) is the database to start from instead of an empty one:
  // the tests start from one migrated once per run (test/pglite-image.ts); the migrations below then find
  // what they already applied.
  const options = { extensions, ...(image && { loadDataDir: new Blob([image]) }) };
  const pg = dataDir === 'memory://' ? new PGlite(options) : new PGlite(dataDir, options);
  await pg.waitReady;
  await migrate((fn) => pg.transaction((tx) => fn(tx as unknown as Tx)));
  // The session user stays superuser (RLS bypass); dropping to app_user guards against
  // mistakes in our own queries, not against injected SQL.
  await pg.exec('set role app_user');
  return {
    kind: 'pglite',
    withTenant: (tenantId, fn) =>
      pg.transaction(async (tx) => {
        await enterTenant(tx, tenantId);
        return fn(tx);
      }),
    withSystem: (fn) =>
      pg.transaction(async (tx) => {
        await enterSystem(tx);
        return fn(tx);
      }),
    query: (sql, params) => pg.query(sql, params),
    close: () => pg.close(),
    // A consistent copy of the data folder while the API runs (db/backup.ts, docs/operations/backups.md).
    snapshot: () => snapshotPglite(pg),
  };
}
