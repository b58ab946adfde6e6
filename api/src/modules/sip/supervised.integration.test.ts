import { spawn } from 'node:child_process';
import { kamailioLib } from '../../../test/script-libs';

/**
 * npm start's supervisor (scripts/lib/stack.mjs `supervised`) with real processes: a stop that
 * comes while a process is being started again ends the new process too. (faults-supervisor saw the
 * restarted media worker alive after the stack's stop: the stop ended the dead one and returned while
 * the new one was still proving it answers.)
 */
describe('supervised', () => {
  const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
  /** A process that runs until stopped, "ready" only after `readyMs` (like a worker answering OPTIONS). */
  const launchSleeper = (pids: number[], readyMs: number) => async () => {
    const proc = spawn('sleep', ['60'], { stdio: 'ignore' });
    pids.push(proc.pid!);
    const exited = new Promise<number | string | null>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
    await new Promise((r) => setTimeout(r, readyMs));
    return {
      exited,
      stop: async () => {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        await exited;
      },
    };
  };

  it('a stop during a restart ends the process being started, not only the dead one', async () => {
    const lib = await kamailioLib();
    const pids: number[] = [];
    const lines: string[] = [];
    const launch = launchSleeper(pids, 100);
    const slowLaunch = launchSleeper(pids, 1500);
    let first = true;
    const sup = await lib.supervised('Thử', () => (first ? ((first = false), launch()) : slowLaunch()), { log: (l) => void lines.push(l) });
    process.kill(pids[0], 'SIGKILL');
    // The supervisor starts it again after 1 s; its new process is up but not yet "ready".
    const until = Date.now() + 5000;
    while (pids.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect({ started: pids.length, lines }).toMatchObject({ started: 2 });
    await sup.stop();
    expect({ pids, alive: pids.map(alive), lines }).toMatchObject({ alive: [false, false] });
    // Nothing is started after the stop, and the log says no restart happened.
    await new Promise((r) => setTimeout(r, 1500));
    expect(pids).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/\[giám sát\] Thử đã dừng \(SIGKILL\)/);
    expect(lines.join('\n')).not.toMatch(/đã chạy lại/);
  }, 20_000);
});
