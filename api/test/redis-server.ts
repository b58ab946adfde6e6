import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBin, freePort } from './pg-cluster';

/** A Redis server for one test run, like the throwaway PostgreSQL of pg-cluster.ts. */
export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  /** Kills the server (SIGKILL): every connection drops, and what it held is gone (no persistence), as a crash (issue 41). */
  down(): Promise<void>;
  /** A new, empty server on the same port. */
  up(): Promise<void>;
  /** SIGSTOP: the server hangs with every connection open (a frozen host); `thaw` (SIGCONT) resumes it. */
  freeze(): void;
  thaw(): void;
}

export const REDIS_MISSING = 'redis-server is not installed (apt-get install -y redis-server; npm test installs it as root)';

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/**
 * A redis-server on a free loopback port, without persistence (no RDB, no AOF) in a temporary
 * directory; null when redis-server is not installed (the Redis tests then fail, naming it).
 */
export async function startRedisServer(): Promise<RedisServer | null> {
  const bin = findBin('redis-server') ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'];
  let proc: ChildProcess;
  let stderr = '';
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await gone;
  };
  const stop = () => {
    if (proc.exitCode === null && !proc.signalCode) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const start = async () => {
    proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    proc.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    for (let i = 0; i < 100 && !(await answers(port)); i++) {
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!(await answers(port))) {
      stop();
      throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${stderr.trim()}`);
    }
  };
  // If Jest dies before globalTeardown, do not leave a redis-server running.
  process.once('exit', stop);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`, stop: async () => stop(), down: kill, up: start,
    freeze: () => void proc.kill('SIGSTOP'), thaw: () => void proc.kill('SIGCONT'),
  };
}

let own: Promise<RedisServer> | undefined;

/**
 * A throwaway redis-server of this test file's own; without redis-server the test fails and says
 * why. One per file, not one for the run: Jest runs two files at once (jest.config.js),
 * and Redis keys (the live state per tenant id, the registrations' expiry set) and pub/sub channels
 * would otherwise be shared by two files whose demo tenants have the same id. Jest loads this module
 * once per file; the file stops it with `afterAll(stopTestRedis)` (a Jest worker is killed, not
 * exited: an exit hook would not run).
 */
export async function testRedisUrl(): Promise<string> {
  own ??= startRedisServer().then((r) => {
    if (!r) throw new Error(REDIS_MISSING);
    return r;
  });
  return (await own).url;
}

/** Stops this file's redis-server, if it started one. */
export async function stopTestRedis(): Promise<void> {
  const server = own;
  own = undefined;
  await (await server?.catch(() => undefined))?.stop();
}
