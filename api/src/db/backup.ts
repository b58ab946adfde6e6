import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db } from './db';

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

/**
 * Backups of the embedded PGlite (docs/operations/backups.md, issue 42). Copying the data folder of
 * a running PGlite is not a backup: PostgreSQL inside it writes data files and WAL while the copy
 * reads them, so the copy can hold a page from after a WAL record it lacks. PGlite's
 * `dumpDataDir()` reads the whole folder in one synchronous step while it holds its query lock, so
 * the tarball is the folder as it stood between two statements (a crash-consistent image, what
 * PGlite's own `clone()` starts from). Here it is taken between two transactions of the API
 * (PGlite's transaction lock held too) and after a CHECKPOINT, so a restore replays next to no WAL.
 */
export interface Snapshotting {
  /** A consistent copy of the PostgreSQL data folder, as a gzipped tar (PGlite only). */
  snapshot(): Promise<Buffer>;
}

export const canSnapshot = (db: Db): db is Db & Snapshotting => typeof (db as Partial<Snapshotting>).snapshot === 'function';

/**
 * What a snapshot keeps: PostgreSQL's own entries of the data folder. The API keeps its keys
 * (jwt-secret, sip-password-key, internal-secret, backup-secret) and, with DATA_DIR, the call
 * recordings in the same folder: keys travel apart from the data (a stolen backup must not open the
 * SIP passwords it holds), recordings are files backed up as files.
 */
const PGDATA_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|pg_hba\.conf|pg_ident\.conf|postgresql\.conf|postgresql\.auto\.conf)$/;

const BLOCK = 512;

const cString = (bytes: Uint8Array, start: number, length: number): string => {
  const field = bytes.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
};

/** The entries of a ustar archive: each one's path (without the leading '/') and its blocks. */
export function tarEntries(tar: Uint8Array): { path: string; type: string; size: number; start: number; end: number }[] {
  const entries: { path: string; type: string; size: number; start: number; end: number }[] = [];
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const name = cString(header, 0, 100);
    const prefix = cString(header, 345, 155);
    const size = parseInt(cString(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size)) throw new Error(`not a tar archive: bad size at byte ${at}`);
    const type = String.fromCharCode(header[156] || 48);
    const end = at + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (end > tar.length) throw new Error(`not a whole tar archive: ${name} is cut short`);
    entries.push({ path: (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, ''), type, size, start: at, end });
    at = end;
  }
  return entries;
}

/** The archive with only PostgreSQL's own entries (PGDATA_ENTRY at the top level). */
export function pgdataOnly(tar: Uint8Array): Buffer {
  const kept = tarEntries(tar).filter((e) => PGDATA_ENTRY.test(e.path.split('/')[0]));
  return Buffer.concat([...kept.map((e) => tar.subarray(e.start, e.end)), Buffer.alloc(2 * BLOCK)]);
}

/** A consistent snapshot of a running PGlite (see Snapshotting), as a gzipped tar of its data folder. */
export async function snapshotPglite(pg: PGlite): Promise<Buffer> {
  // The session runs as app_user (openPglite), which may not CHECKPOINT: the session user may, for
  // this one transaction (SET LOCAL ends with it, and PGlite rolls back a transaction that fails).
  await pg.transaction(async (tx) => {
    await tx.exec('set local role none');
    await tx.exec('checkpoint');
  });
  // PGlite's transaction lock (every query(), exec() and transaction() of the API takes it; not
  // re-entrant, so nothing here may call them): no transaction of the API is open while the folder is read.
  const tar = await pg._runExclusiveTransaction(async () => new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer()));
  return gzip(pgdataOnly(tar));
}

/** What `restorePglite` found in the restored folder: the numbers an operator checks against the live one. */
export interface RestoredPglite {
  migrations: number;
  lastMigration: string;
  tenants: { ma_dn: string; users: number; customers: number }[];
  /** One sealed SIP password of the backup (null when it has none): the operator's kept key must open it. */
  sealed: { tenantId: number; value: string } | null;
}

/**
 * Restores a snapshot into `dataDir`, a folder that holds no database (a folder with the API's key
 * files only is fine), through PGlite's own loader (`loadDataDir`); PGlite then starts on it (its
 * recovery runs here, not at the API's first start) and the tenants are counted.
 */
export async function restorePglite(tarball: Buffer, dataDir: string): Promise<RestoredPglite> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${dataDir} already holds a database: restore into an empty folder (move this one aside first)`);
  }
  const clash = existsSync(dataDir) ? readdirSync(dataDir).filter((name) => PGDATA_ENTRY.test(name)) : [];
  if (clash.length) throw new Error(`${dataDir} holds part of a database (${clash.join(', ')}): restore into an empty folder`);
  const tar = tarball[0] === 0x1f && tarball[1] === 0x8b ? await gunzip(tarball) : tarball;
  const paths = new Set(tarEntries(tar).map((e) => e.path));
  if (!paths.has('PG_VERSION') || !paths.has('global/pg_control')) throw new Error('not a PGlite snapshot: no PG_VERSION or global/pg_control in the archive');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // pg_trgm as openPglite loads it (migration 0009's indexes).
  const pg = new PGlite(dataDir, { extensions: { pg_trgm }, loadDataDir: new Blob([new Uint8Array(tar)]) });
  try {
    await pg.waitReady;
    const migrations = await pg.query<{ n: number; last: string }>('select count(*)::int as n, max(name) as last from schema_migrations');
    const tenants = await pg.query<{ ma_dn: string; users: number; customers: number }>(
      `select t.ma_dn, (select count(*)::int from users u where u.tenant_id = t.id) as users,
              (select count(*)::int from customers c where c.tenant_id = t.id) as customers
         from tenants t order by t.id`,
    );
    const sealed = await pg.query<{ tenant_id: number; sip_password: string }>("select tenant_id, sip_password from subscribers where sip_password like 'v1.%' order by id limit 1");
    const sample = sealed.rows[0] ? { tenantId: sealed.rows[0].tenant_id, value: sealed.rows[0].sip_password } : null;
    return { migrations: migrations.rows[0].n, lastMigration: migrations.rows[0].last, tenants: tenants.rows, sealed: sample };
  } finally {
    await pg.close();
  }
}
