// A server process for the stack and the tests (Kamailio, rtpengine): detached in its own process
// group so stop() reaches every worker it forks and nothing else, output appended to a log file,
// and taken down with this process (detached, Ctrl+C in the terminal would not reach it).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** The end of a log file, for error messages ('' when it cannot be read). */
export const logTail = (file) => { try { return readFileSync(file, 'utf8').slice(-2000); } catch { return ''; } };

/** The fields of a /proc stat line after "pid (comm) ": comm may hold spaces and parentheses, so after the last ')'. */
const afterComm = (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');
const stateOf = (stat) => afterComm(stat)[0];
/** Whether any thread of process `pid` is not yet dead (its /proc/<pid>/task/<tid>/stat). */
function threadsLive(pid) {
  let tasks;
  try { tasks = readdirSync(`/proc/${pid}/task`); } catch { return false; }
  return tasks.some((tid) => {
    try { const s = stateOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')); return s !== 'Z' && s !== 'X'; } catch { return false; }
  });
}

/**
 * The live (not zombie) processes of process group `pgid`, from /proc. A daemon's workers are in its
 * group and hold its sockets: they die a little after the main process when the group is killed.
 */
export function groupMembers(pgid) {
  const live = [];
  let entries;
  try { entries = readdirSync('/proc'); } catch { return live; }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${name}/stat`, 'utf8'); } catch { continue; }
    const [state, , pgrp] = afterComm(stat);
    if (Number(pgrp) !== pgid) continue;
    // A dead leader of a process with threads shows Z while its other threads are still exiting, and
    // its files (listening sockets) close only with the last of them (ci1 of the thirty-ninth session:
    // a port still listened on after the group "was gone").
    if ((state !== 'Z' && state !== 'X') || threadsLive(name)) live.push(Number(name));
  }
  return live;
}

/** Resolves once no live process is left in group `pgid` (at most `timeoutMs`; false if some still are). */
export async function groupGone(pgid, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (groupMembers(pgid).length) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export function spawnDaemon(bin, args, { cwd, log, env }) {
  const out = openSync(log, 'a');
  const proc = spawn(bin, args, { cwd, stdio: ['ignore', out, out], detached: true, ...(env ? { env } : {}) });
  closeSync(out);
  /**
   * Resolves once the process has exited, with how: its exit code, else the signal that ended it, and
   * its workers too (their listening sockets closed): Kamailio started again right after a SIGKILL to
   * its group failed to bind while a worker was still dying (exit 255, CI of stop 49, at load 12). A
   * worker left without its main process is of no use and holds the ports: it is killed.
   */
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => {
    if (groupMembers(proc.pid).length) { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }
    void groupGone(proc.pid).then(() => resolve(code ?? signal));
  }));
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
