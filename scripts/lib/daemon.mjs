// A server process for the stack and the tests (Kamailio, rtpengine): detached in its own process
// group so stop() reaches every worker it forks and nothing else, output appended to a log file,
// and taken down with this process (detached, Ctrl+C in the terminal would not reach it).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** The end of a log file, for error messages ('' when it cannot be read). */
export const logTail = (file) => { try { return readFileSync(file, 'utf8').slice(-2000); } catch { return ''; } };

export function spawnDaemon(bin, args, { cwd, log, env }) {
  const out = openSync(log, 'a');
  const proc = spawn(bin, args, { cwd, stdio: ['ignore', out, out], detached: true, ...(env ? { env } : {}) });
  closeSync(out);
  /** Resolves once the process has exited, with how: its exit code, else the signal that ended it. */
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
  const killOnExit = () => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } };
  process.once('exit', killOnExit);
  /** SIGTERM to the group, SIGKILL after 3 s; resolves once the process has exited. */
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* already gone */ }
    const timer = setTimeout(() => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
    await exited;
    clearTimeout(timer);
  };
  return { proc, stop, exited };
}
