import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runtimeConfig } from './stack.mjs';
import { freeTcpPort } from './ports.mjs';

const { contentSecurityPolicy } = createRequire(import.meta.url)('../../shared/build/security-headers.js');

test("config.json names the registry only when the stack serves a releases folder (startStack's releasesDir)", () => {
  const plain = runtimeConfig({ apiUrl: 'http://127.0.0.1:4000', webPort: 3000 });
  assert.equal('registry' in plain, false);
  const withReleases = runtimeConfig({ apiUrl: 'http://127.0.0.1:4000', webPort: 3000, registry: '/registry.json' });
  assert.equal(withReleases.registry, '/registry.json');
  assert.deepEqual(withReleases.remotes, plain.remotes, "config.json's remotes stay: the fallback for a remote the registry does not list");
  // Releases come from the host's own origin: the policy needs no new source for them.
  assert.equal(contentSecurityPolicy(withReleases), contentSecurityPolicy(plain));
});

test('an API started by startApi stops when the process that started it exits without stopping it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-stack-test-'));
  const port = await freeTcpPort();
  // A parent that starts the API and exits at once, as a test runner failing after its global setup does.
  const script = `import { startApi } from ${JSON.stringify(new URL('./stack.mjs', import.meta.url).href)};
    const p = startApi({ port: ${port}, dataDir: ${JSON.stringify(dataDir)}, quiet: true });
    console.log(p.pid); setTimeout(() => process.exit(1), 300);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  parent.stdout.on('data', (b) => (out += b));
  await new Promise((r) => parent.once('exit', r));
  const pid = Number(out.trim());
  assert.ok(pid > 0, `the parent printed the API's pid: ${out}`);
  // Alive: in /proc and not a zombie (an orphan's reaper may be slow to reap it).
  const alive = () => { try { return !/^\S+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; } };
  try {
    for (const end = Date.now() + 15_000; alive() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(), false, 'the API outlived the process that started it');
  } finally {
    if (alive()) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
