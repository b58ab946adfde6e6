import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const API_DIR = resolve(__dirname, '..');
const MAIN = resolve(API_DIR, 'src/main.ts');
// tsx's loader in the API's own node process: the tsx CLI would run the API as its child, and a
// SIGKILL of the CLI would leave the API running (seen: the "restarted" API then met EADDRINUSE
// while the old one went on answering).
const TSX_LOADER = require.resolve('tsx', { paths: [API_DIR] });

/** The real API (`src/main.ts`, as npm start runs it) in a process of its own, for fault tests. */
export interface ApiProcess {
  proc: ChildProcess;
  /** Its public address. */
  url: string;
  /** What it printed (stdout and stderr). */
  log: string[];
  /** SIGKILL: no shutdown hook runs, nothing buffered is written; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as a deploy stops it: its shutdown hooks run; resolves once the process is gone (SIGKILL after `ms`). */
  stop(ms?: number): Promise<void>;
}

/**
 * Starts the API with `env` (PORT, INTERNAL_PORT, DATABASE_URL or DATA_DIR, …); resolves once /health answers,
 * within `ms` (240 s: tsx compiling the API and a fresh database's migrations took over 120 s at load 16).
 */
export async function startApiProcess(env: Record<string, string>, ms = 240_000): Promise<ApiProcess> {
  const log: string[] = [];
  const proc = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    cwd: API_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [proc.stdout, proc.stderr]) s?.on('data', (b: Buffer) => log.push(b.toString()));
  const url = `http://127.0.0.1:${env.PORT}`;
  const end = Date.now() + ms;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the API exited (${proc.exitCode}): ${log.join('')}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > end) throw new Error(`the API did not answer /health within ${ms} ms: ${log.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await gone;
  };
  const stop = async (ms = 60_000) => {
    if (proc.exitCode !== null || proc.signalCode) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const late = setTimeout(() => proc.kill('SIGKILL'), ms);
    await gone;
    clearTimeout(late);
  };
  return { proc, url, log, kill, stop };
}

/** Polls `fn` until `ok` holds; fails after `ms` with what it last saw. */
export async function until<T>(what: string, fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    try {
      last = await fn();
      if (ok(last)) return last;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
