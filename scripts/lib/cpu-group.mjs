// The CPU a step of npm test used, all its processes counted: a cgroup of its own under cgroup v1's
// cpuacct controller (CI runs as root on such a machine). bash's `times` counts only the children a
// step waited for, so the daemons its stacks start (Chromium, the API, Kamailio, PostgreSQL) were
// missing from it (session 27: the e2e step's `times` said 786 s where its cgroup said 1870 s).
import { mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

export const CPUACCT = '/sys/fs/cgroup/cpuacct';

/**
 * A group `name` under `root`, empty: the step's first process joins it itself before it starts anything
 * (it writes its pid into `procs`: moved from outside, a shell had already forked its command, which
 * stayed out: CPU 0 s), and whatever it starts from then on is in it too. Null where it cannot be made
 * (no cgroup v1 cpuacct, or not root): the caller falls back to what it has.
 */
export function cpuGroup(name, root = CPUACCT) {
  const dir = join(root, `${name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60)}-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  return {
    dir,
    /** Where a process writes its pid to join. */
    procs: join(dir, 'cgroup.procs'),
    /** The CPU seconds the group's processes used so far (those gone included). */
    seconds: () => Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8').trim()) / 1e9,
    /** Removes the group once it is empty; one still holding a process (a daemon left behind) stays. */
    remove: () => {
      try { rmdirSync(dir); } catch { /* still in use */ }
    },
  };
}

let made = 0;
