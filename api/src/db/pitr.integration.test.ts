import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from './db';
import { openDb } from './open';
import { DEMO, seed } from './seed';
import { buildServer } from '../server';
import { backupsDoc, docPart, requireBins, run, withClient } from '../../test/backup-drill';
import { databaseUrl } from '../../test/global-setup';
import { bearer, login, TEST_JWT_SECRET } from '../../test/helpers';
import { freePort, startPgCluster, type PgCluster } from '../../test/pg-cluster';

/**
 * The point-in-time recovery of docs/operations/backups.md (issue 42), on a throwaway cluster: WAL
 * archived with the page's archive_command, a base backup with its pg_basebackup line, customers
 * written after it through the API, then a tenant's customers deleted by mistake. The base backup
 * laid down with the page's recovery settings and replayed to a moment between the two must bring
 * back what was written after the base backup and undo the deletion, open on a new timeline, and keep
 * tenants apart. The page's restore script runs here as it is written, with the test's folders for the
 * compose stack's container paths (/pg-archive, /var/lib/postgresql/data).
 */
const ARCHIVE = '/pg-archive';
const ARCHIVE_COMMAND = `test ! -f ${ARCHIVE}/wal/%f && cp %p ${ARCHIVE}/wal/%f`;
const BASEBACKUP_FLAGS = ['--format=tar', '--gzip', '--wal-method=stream', '--checkpoint=fast'];
const AS_COMPOSE = '--username=tongdai';

const isRoot = process.getuid?.() === 0;
/** initdb and postgres refuse root: as root (CI) the clusters belong to `postgres` (test/pg-cluster.ts). */
const postgresIds = () => ({ uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) });
const ownFolder = (path: string) => {
  if (!isRoot) return;
  const { uid, gid } = postgresIds();
  chownSync(path, uid, gid);
};
const asClusterUser = (bin: string, args: string[]): [string, string[]] => (isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]);

describe('point-in-time recovery: archived WAL replayed over a base backup up to a moment', () => {
  let bins: Record<'pg_basebackup' | 'pg_ctl' | 'bash', string>;
  let cluster: PgCluster | undefined;
  let work: string;
  let archive: string;
  let recovered: { data: string; url: string; log: string } | undefined;
  let recoveredDb: Db | undefined;
  let ids: Record<'demo' | 'abc', number>;
  let abcBefore: number;
  const later = ['Khách ghi sau bản sao nền 1', 'Khách ghi sau bản sao nền 2'];

  beforeAll(async () => {
    bins = requireBins('pg_basebackup', 'pg_ctl', 'bash');
    work = mkdtempSync(join(tmpdir(), 'tongdai-pitr-'));
    ownFolder(work);
    archive = join(work, 'pg-archive');
    for (const d of [archive, join(archive, 'wal'), join(archive, 'base')]) {
      mkdirSync(d);
      ownFolder(d);
    }

    // 1. A cluster that archives every WAL segment with the page's command.
    cluster = await startPgCluster();
    await withClient(cluster.url, async (c) => {
      await c.query('alter system set wal_level = replica');
      await c.query('alter system set archive_mode = on');
      await c.query(`alter system set archive_command = '${ARCHIVE_COMMAND.replaceAll(ARCHIVE, archive)}'`);
      await c.query('alter system set archive_timeout = 300');
      await c.query('create database tongdai');
    });
    await cluster.restart();
    const url = databaseUrl(cluster.url, 'tongdai');
    // The product's database: its migrations and its seed.
    const db = await openDb({ databaseUrl: url });
    await seed(db);
    ids = Object.fromEntries((await db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'))).rows.map((r) => [r.ma_dn, r.id])) as Record<'demo' | 'abc', number>;

    // 2. The base backup.
    const base = join(archive, 'base', 'nightly');
    await run(bins.pg_basebackup, [`--dbname=${url}`, `--pgdata=${base}`, ...BASEBACKUP_FLAGS]);

    // After it: customers written through the API, then the moment, then the mistake.
    const app = await buildServer({ db, jwtSecret: TEST_JWT_SECRET, otpWebhookMs: null });
    const headers = bearer(await login(app, 'demo', DEMO.admin));
    for (const [i, name] of later.entries()) {
      const res = await app.inject({ method: 'POST', url: '/t/demo/customers', headers, payload: { name, phone: `091200033${i}`, status: 'new' } });
      expect(res.statusCode).toBe(201);
    }
    await app.close();
    await db.close();
    const moment = await withClient(url, async (c) => {
      abcBefore = (await c.query<{ n: number }>('select count(*)::int as n from customers where tenant_id = $1', [ids.abc])).rows[0].n;
      return (await c.query<{ t: string }>(`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as t`)).rows[0].t;
    });
    await new Promise((r) => setTimeout(r, 1500));
    const lastSegment = await withClient(url, async (c) => {
      expect((await c.query('delete from customers where tenant_id = $1', [ids.abc])).rowCount).toBe(abcBefore);
      // What the archive_timeout would do within 5 minutes: close the segment, so it is archived now.
      return (await c.query<{ wal: string }>('select pg_walfile_name(pg_switch_wal()) as wal')).rows[0].wal;
    });
    // The page's check that archiving works: the segment arrives, nothing failed.
    const until = Date.now() + 60_000;
    for (;;) {
      const stat = await withClient(url, async (c) => (await c.query<{ last: string | null; failed: number }>('select last_archived_wal as last, failed_count::int as failed from pg_stat_archiver')).rows[0]);
      expect(stat.failed).toBe(0);
      if (stat.last && stat.last >= lastSegment) break;
      if (Date.now() > until) throw new Error(`WAL ${lastSegment} not archived within 60 s (last: ${stat.last})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(existsSync(join(archive, 'wal', lastSegment))).toBe(true);

    // 3. The restore: the page's script itself, run with bash, with the test's folders for the
    // container's (/pg-archive, /var/lib/postgresql/data), its base backup and its moment; beside the
    // live cluster here. Not as root, the folder is already the cluster user's: no chown.
    const data = join(work, 'data');
    mkdirSync(data);
    ownFolder(data);
    let script = docPart(backupsDoc(), "--entrypoint bash postgres -s <<'SH'\n", '\nSH\n').replaceAll(ARCHIVE, archive);
    script = script.replace(/^BASE=.*$/m, `BASE=${base}`).replace(/^TARGET=.*$/m, `TARGET='${moment}'`).replace(/^DATA=.*$/m, `DATA=${data}`);
    if (!isRoot) script = script.replace(/^chown -R postgres:postgres "\$DATA"$/m, '');
    await run(bins.bash, ['-s'], { input: script });
    expect(readdirSync(join(archive, 'before-pitr'))).toHaveLength(1);
    // The live one's command-line settings too (-c max_connections=200, test/pg-cluster.ts): recovery
    // refuses a max_connections below the primary's. And archive_mode off: not into the live archive.
    const port = await freePort();
    const log = join(work, 'recovered.log');
    try {
      execFileSync(...asClusterUser(bins.pg_ctl, ['-D', data, '-l', log, '-o', `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c max_connections=200 -c archive_mode=off`, '-w', '-t', '180', 'start']), { stdio: 'pipe' });
    } catch (err) {
      throw new Error(`the recovered server did not start: ${(err as Error).message}\n${existsSync(log) ? readFileSync(log, 'utf8') : '(no log)'}`);
    }
    recovered = { data, url: `postgres://postgres@127.0.0.1:${port}/tongdai`, log };
    // Hot standby answers while still replaying: the page's check waits for the promotion.
    const promoted = Date.now() + 120_000;
    while ((await withClient(recovered.url, async (c) => (await c.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0].r))) {
      if (Date.now() > promoted) throw new Error(`still in recovery after 120 s: ${readFileSync(log, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 420_000); // a fresh database's migrations and seed, a base backup, a replay: 10 s alone, far more at load 15

  afterAll(async () => {
    await recoveredDb?.close();
    if (recovered) {
      try {
        execFileSync(...asClusterUser(bins.pg_ctl, ['-D', recovered.data, '-m', 'immediate', '-w', 'stop']), { stdio: 'pipe' });
      } catch {
        /* not running */
      }
    }
    await cluster?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('sets up and restores as the page says', () => {
    const doc = backupsDoc();
    expect(doc).toContain(`archive_command=${ARCHIVE_COMMAND}`);
    expect(doc).toContain('wal_level=replica');
    expect(doc).toContain('archive_mode=on');
    expect(doc).toContain(`pg_basebackup ${AS_COMPOSE} --pgdata="${ARCHIVE}/base/$(date -u +%Y%m%dT%H%M%SZ)" ${BASEBACKUP_FLAGS.join(' ')}`);
    const script = docPart(doc, "--entrypoint bash postgres -s <<'SH'\n", '\nSH\n');
    for (const step of [
      'tar -xzf "$BASE/base.tar.gz" -C "$DATA"',
      'tar -xzf "$BASE/pg_wal.tar.gz" -C "$DATA/pg_wal"',
      `restore_command = 'cp ${ARCHIVE}/wal/%f %p'`,
      "recovery_target_time = '$TARGET'",
      "recovery_target_action = 'promote'",
      'touch "$DATA/recovery.signal"',
      'chown -R postgres:postgres "$DATA"',
      'chmod 700 "$DATA"',
    ]) expect(script).toContain(step);
  });

  it('stops before the mistake and opens on a new timeline, as the log the page reads says', async () => {
    const log = readFileSync(recovered!.log, 'utf8');
    expect(log).toMatch(/starting point-in-time recovery to/);
    expect(log).toMatch(/recovery stopping before commit of transaction \d+, time/);
    expect(log).toMatch(/archive recovery complete/);
    expect(log).toMatch(/selected new timeline ID: 2/);
    expect(readdirSync(recovered!.data)).not.toContain('recovery.signal');
  });

  it('brings back what was written after the base backup, and undoes the deletion', async () => {
    const rows = await withClient(recovered!.url, async (c) => ({
      abc: (await c.query<{ n: number }>('select count(*)::int as n from customers where tenant_id = $1', [ids.abc])).rows[0].n,
      later: (await c.query<{ name: string }>('select name from customers where tenant_id = $1 and name = any($2) order by name', [ids.demo, later])).rows.map((r) => r.name),
    }));
    expect(abcBefore).toBeGreaterThan(0);
    expect(rows).toEqual({ abc: abcBefore, later });
  });

  it('keeps tenants apart on the recovered server, and the API logs in on it', async () => {
    recoveredDb = await openDb({ databaseUrl: recovered!.url });
    expect((await recoveredDb.query<{ n: number }>('select count(*)::int as n from customers')).rows[0].n).toBe(0);
    const abc = await recoveredDb.withTenant(ids.abc, (tx) => tx.query<{ n: number; other: number }>('select count(*)::int as n, count(*) filter (where tenant_id <> $1)::int as other from customers', [ids.abc]));
    expect(abc.rows[0]).toEqual({ n: abcBefore, other: 0 });
    const app = await buildServer({ db: recoveredDb, jwtSecret: TEST_JWT_SECRET, otpWebhookMs: null });
    try {
      await expect(login(app, 'abc', DEMO.admin)).resolves.toEqual(expect.any(String));
    } finally {
      await app.close();
    }
  }, 120_000);
});
