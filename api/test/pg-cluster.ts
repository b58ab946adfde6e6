import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

/** A PostgreSQL server for one test run: a throwaway cluster, or an existing server as fallback. */
export interface PgCluster {
  url: string;
  stop(): Promise<void>;
  /** Stops the server (fast shutdown: sessions are cut) and starts it again: an outage (issue 41). */
  down(): void;
  up(): void;
  /**
   * `pg_ctl restart -m fast` without blocking this process (down/up block it): requests keep
   * arriving while the server goes and comes back (issue 41).
   */
  restart(): Promise<void>;
  /**
   * SIGSTOP to every process of the cluster (the postmaster and its backends): a server that hangs
   * without closing its connections, as a frozen host or a partition looks (issue 41). `thaw`: SIGCONT.
   */
  freeze(): void;
  thaw(): void;
}

/** A binary on PATH, else in the newest /usr/lib/postgresql/<v>/bin. */
export function findBin(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', name))) return join(root, v, 'bin', name);
  return null;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** initdb refuses to run as root: then the cluster belongs to `postgres` and runs through runuser. */
export async function startPgCluster(): Promise<PgCluster> {
  const initdb = findBin('initdb');
  const pgCtl = findBin('pg_ctl');
  if (!initdb || !pgCtl) {
    const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const shared = () => {
      throw new Error(`${url} is a shared server: an outage needs a throwaway cluster (initdb and pg_ctl)`);
    };
    if (await canConnect(url)) return { url, stop: async () => undefined, down: shared, up: shared, restart: async () => shared(), freeze: shared, thaw: shared };
    throw new Error(
      `No PostgreSQL for the integration tests: initdb/pg_ctl not found and ${url} is unreachable. ` +
        'Install the apt package `postgresql` (apt-get install -y postgresql) or set TEST_DATABASE_URL.',
    );
  }
  const isRoot = process.getuid?.() === 0;
  const base = mkdtempSync(join(tmpdir(), 'tongdai-pg-'));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(base, uid, gid);
  }
  const as = (bin: string, args: string[]): [string, string[]] => (isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]);
  const run = (bin: string, args: string[]) => execFileSync(...as(bin, args), { stdio: 'pipe' });
  const data = join(base, 'data');
  const port = await freePort();
  // C.UTF-8 so lower()/ILIKE fold Vietnamese capitals (Đ/đ) the way PGlite does.
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const opts = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run(pgCtl, ['-D', data, '-l', join(base, 'pg.log'), '-o', opts, '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
  // If Jest dies before globalTeardown, do not leave a postgres running in /tmp.
  process.once('exit', stop);
  /** The postmaster (first line of postmaster.pid) and every process it forked. */
  const processes = (): number[] => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).toString().split(/\s+/).filter(Boolean).map(Number);
    return [postmaster, ...children];
  };
  const signal = (sig: NodeJS.Signals) => {
    for (const pid of processes()) process.kill(pid, sig);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => stop(),
    down: () => void run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']),
    up: () => void run(pgCtl, ['-D', data, '-l', join(base, 'pg.log'), '-o', opts, '-w', 'start']),
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    restart: () =>
      new Promise<void>((resolve, reject) =>
        execFile(...as(pgCtl, ['-D', data, '-l', join(base, 'pg.log'), '-o', opts, '-m', 'fast', '-w', 'restart']), (err) => (err ? reject(err) : resolve())),
      ),
  };
}

/** A hot standby streaming from a throwaway primary (reports on a replica, issue 42). */
export interface PgReplica {
  /** The standby, as the API's app connects to it (the same users as the primary: physical replication). */
  url: string;
  /** Fast shutdown (the API's connections to it are cut), and back: a replica that goes away. */
  down(): void;
  up(): void;
  stop(): Promise<void>;
}

/** A binary beside the one that runs the clusters (the same PostgreSQL version), else on PATH. */
function siblingBin(name: string): string | null {
  const pgCtl = findBin('pg_ctl');
  const beside = pgCtl && join(dirname(realpathSync(pgCtl)), name);
  return beside && existsSync(beside) ? beside : findBin(name);
}

/**
 * A streaming replica of `primaryUrl`'s cluster, made as an operator makes one, by the script the compose
 * replica runs (scripts/postgres/make-replica.sh: `pg_basebackup -R -X stream`, standby.signal and
 * primary_conninfo written for it), and started on a port of its own. The
 * primary must let a replication connection in from 127.0.0.1 (startPgCluster's initdb does, trust)
 * and keep wal_level at replica or above (PostgreSQL's default). Root runs it as `postgres`, as
 * startPgCluster does. A missing binary fails naming it.
 */
const MAKE_REPLICA = resolve(__dirname, '../../scripts/postgres/make-replica.sh');

export async function startReplica(primaryUrl: string): Promise<PgReplica> {
  const basebackup = siblingBin('pg_basebackup');
  const pgCtl = findBin('pg_ctl');
  if (!basebackup || !pgCtl) throw new Error('A replica needs pg_basebackup and pg_ctl: install the apt package `postgresql` (apt-get install -y postgresql)');
  const primary = new URL(primaryUrl);
  const isRoot = process.getuid?.() === 0;
  const base = mkdtempSync(join(tmpdir(), 'tongdai-pg-replica-'));
  if (isRoot) chownSync(base, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const as = (bin: string, args: string[]): [string, string[]] => (isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]);
  const run = (bin: string, args: string[]) => execFileSync(...as(bin, args), { stdio: 'pipe' });
  const data = join(base, 'data');
  // The script docker-compose.yml's postgres-replica runs (scripts/postgres/make-replica.sh), with this
  // PostgreSQL's binaries first on its PATH.
  run('env', [
    `PATH=${dirname(basebackup)}:${process.env.PATH ?? ''}`, `PGDATA=${data}`, `PRIMARY_HOST=${primary.hostname}`, `PRIMARY_PORT=${primary.port || 5432}`,
    `REPLICATION_USER=${decodeURIComponent(primary.username) || 'postgres'}`, 'BASEBACKUP_EXTRA=--no-sync', 'sh', MAKE_REPLICA,
  ]);
  const port = await freePort();
  const opts = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c hot_standby=on`;
  const start = () => void run(pgCtl, ['-D', data, '-l', join(base, 'pg.log'), '-o', opts, '-w', 'start']);
  start();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      /* already down */
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
  process.once('exit', stop);
  const url = new URL(primaryUrl);
  url.port = String(port);
  return {
    url: url.toString(),
    down: () => void run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']),
    up: start,
    stop: async () => stop(),
  };
}
