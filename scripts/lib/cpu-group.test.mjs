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
    assert.equal(cpuGroup('x', root), null);
    assert.equal(existsSync(root), false);
    t.diagnostic(`${CPUACCT} is not writable here: only the refusal was checked`);
    return;
  }
  // A shell that joins the group itself, then starts a child that counts to 200,000 (CPU-bound, whatever
  // the machine's load) and says, with `times`, what its children used.
  const group = cpuGroup('cpu-group test');
  assert.ok(group, 'the group is made as root');
  const child = spawn('bash', ['-c', 'echo $$ > "$1"; bash -c \'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done\'; times', 'bash', group.procs], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  await new Promise((r) => child.on('close', r));
  const children = [...out.trim().split('\n')[1].matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  const used = group.seconds();
  assert.ok(children > 0.2, `the child worked: ${children} s`);
  assert.ok(used >= children * 0.9 && used <= children + 0.5, `the group counted the child: ${used} s against its ${children} s`);
  group.remove();
  assert.equal(existsSync(group.dir), false);
});
