import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Db } from '../src/db/db';
import { openDb } from '../src/db/open';
import { openPglite } from '../src/db/pglite';
import { seedIfEmpty } from '../src/db/seed';

/**
 * PGlite databases migrated (and seeded) once per Jest run, as the PostgreSQL suites copy one template
 * database (global-setup): a suite's `openDb({ dataDir: 'memory://' })` started an empty PGlite and ran
 * every migration and the seed again, 20–70 s of one core per suite at CI's load. An image is a snapshot
 * (db/backup.ts, what `npm run backup` writes) of such a database; `openPgliteFromImage` starts PGlite on
 * it, and the migrations find everything applied. The seeded image's SIP passwords are sealed with the
 * run's SIP_PASSWORD_KEY (global-setup), as the template's are.
 *
 * Built by the first suite that asks, in the run's folder (TEST_PGLITE_IMAGES, global-setup); a suite in
 * another worker asking meanwhile waits for it (a lock folder) instead of building it again. The suites
 * that test the migrations themselves on PGlite (pglite.integration) keep starting from nothing.
 */
export type PgliteImageKind = 'migrated' | 'seeded';

export async function pgliteImage(kind: PgliteImageKind): Promise<Uint8Array<ArrayBuffer>> {
  const dir = process.env.TEST_PGLITE_IMAGES;
  if (!dir) throw new Error('TEST_PGLITE_IMAGES is not set: the PGlite images are made in the folder api/test/global-setup.ts gives');
  const file = join(dir, `${kind}.tar`);
  const lock = `${file}.lock`;
  for (const until = Date.now() + 600_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (existsSync(file)) return new Uint8Array(readFileSync(file));
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > until) throw new Error(`the PGlite image ${file} was not made within 600 s (lock ${lock})`);
      continue;
    }
    try {
      const db = await openPglite('memory://');
      try {
        if (kind === 'seeded') await seedIfEmpty(db);
        const tar = gunzipSync(await db.snapshot());
        writeFileSync(`${file}.part`, tar);
        renameSync(`${file}.part`, file);
        return new Uint8Array(tar);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** A PGlite in memory holding the run's migrated (or migrated and seeded) database. */
export async function openPgliteFromImage(kind: PgliteImageKind): Promise<Db> {
  return openDb({ dataDir: 'memory://', image: await pgliteImage(kind) });
}

/**
 * Fills `dataDir` (empty or missing) with the run's seeded PGlite image, for an API process started on it
 * (test/api-process.ts) that would otherwise migrate and seed a fresh folder. Its SIP passwords are sealed
 * with the run's SIP_PASSWORD_KEY: the API must be started with that key (startApiProcess passes the run's
 * environment on), not one of its own folder.
 */
export async function fillPgliteFolder(dataDir: string): Promise<void> {
  await pgliteImage('seeded');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  execFileSync('tar', ['-xf', join(process.env.TEST_PGLITE_IMAGES!, 'seeded.tar'), '-C', dataDir]);
}
