// Runs pnpm: the one on PATH, or a pinned one through npx on a fresh machine.
import { spawnSync } from 'node:child_process';

const PINNED = 'pnpm@12.21.0';
let cmd;

export function pnpmCommand() {
  if (cmd) return cmd;
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  cmd = probe.status === 0 ? ['pnpm'] : ['npx', '--yes', PINNED];
  return cmd;
}

export function runPnpm(args, opts = {}) {
  const [bin, ...pre] = pnpmCommand();
  const r = spawnSync(bin, [...pre, ...args], { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed (exit ${r.status})`);
}
