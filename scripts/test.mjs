// npm test: every test. System packages, dependencies and builds first, then types, unit and
// API tests per package, then the e2e tests against the whole product in Chromium.
import { spawnSync } from 'node:child_process';
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';
import { pnpmCommand } from './lib/pnpm.mjs';
import { ensureSystemPackages } from './lib/system.mjs';

const started = Date.now();
ensureSystemPackages('test');
ensureInstalled();
// The e2e build: the production one plus the data-testid attributes the e2e suite finds elements by.
ensureBuilt({ test: true });

const steps = [
  ['Kiểm tra kiểu (tsc)', ['-r', '--workspace-concurrency=2', 'typecheck']],
  ['Unit + API (Jest)', ['-r', '--workspace-concurrency=1', '--filter', '!@tongdai/e2e', 'test']],
  // Every bench section at a tiny size: each must still measure something real (scripts/bench.mjs).
  ['Bench smoke (mọi phần đo ở cỡ nhỏ)', ['run', 'bench', 'smoke']],
  ['E2E (Playwright, Chromium)', ['--filter', '@tongdai/e2e', 'test']],
];

const [bin, ...pre] = pnpmCommand();
for (const [title, args] of steps) {
  console.log(`\n▶ ${title}`);
  const t = Date.now();
  const r = spawnSync(bin, [...pre, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} thất bại (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
  console.log(`✓ ${title} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
}
console.log(`\nTất cả kiểm thử đều đạt trong ${((Date.now() - started) / 1000).toFixed(0)} s.`);
