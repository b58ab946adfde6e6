import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { CPUACCT, cpuGroup } from './cpu-group.mjs';

const writable = (() => {
  try {
    accessSync(CPUACCT, constants.W_OK);
    return existsSync(join(CPUACCT, 'cpuacct.usage'));
  } catch {
    return false;
  }
})();

test('a step\'s group counts the CPU of what its process starts, children gone included', { timeout: 30_000 }, async (t) => {
  if (!writable) {
    // Not root or no cgroup v1 here: the group is refused and nothing is left behind (npm test then prints bash's `times`).
    const root = mkdtempSync(join(tmpdir(), 'cpuacct-'));
    rmSync(root, { recursive: true });
    assert.equal(cpuGroup('x', process.pid, root), null);
    assert.equal(existsSync(root), false);
    t.diagnostic(`${CPUACCT} is not writable here: only the refusal was checked`);
    return;
  }
  // A shell that waits, then starts a child busy for ~1 s and exits: the child came after the group was made.
  const child = spawn('sh', ['-c', 'sleep 0.2; timeout 1 sh -c "while :; do :; done"; true'], { stdio: 'ignore' });
  const group = cpuGroup('cpu-group test', child.pid);
  assert.ok(group, 'the group is made as root');
  await new Promise((r) => child.on('close', r));
  const used = group.seconds();
  assert.ok(used > 0.5 && used < 3, `the busy child counted: ${used} s`);
  group.remove();
  assert.equal(existsSync(group.dir), false);
});
