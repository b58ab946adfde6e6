// Builds the host and the remotes when their sources are newer than their build.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPnpm } from './pnpm.mjs';
import { ROOT } from './paths.mjs';

export const FRONTENDS = ['host', 'mf-crm', 'mf-pbx', 'mf-reports', 'mf-survey', 'mf-softphone'];
const SHARED_SOURCES = ['shared/contracts/src', 'shared/platform/src', 'shared/ui/src', 'shared/build', 'pnpm-lock.yaml'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && e !== 'dist') max = Math.max(max, newest(join(path, e)));
  return max;
}

// Which build a frontend's dist/ holds: `test` (e2e runs against it, data-testid attributes kept)
// or `production` (what ships, none). Recorded beside the build, not in dist/ (which is served).
const variantFile = (app) => join(ROOT, '.tmp', `build-variant-${app}`);
const variantOf = (app) => (existsSync(variantFile(app)) ? readFileSync(variantFile(app), 'utf8').trim() : '');

export function staleFrontends(variant = 'production') {
  const shared = Math.max(...SHARED_SOURCES.map((p) => newest(join(ROOT, p))));
  return FRONTENDS.filter((app) => {
    const built = join(ROOT, app, 'dist', 'mf-manifest.json');
    if (!existsSync(built) || variantOf(app) !== variant) return true;
    const sources = Math.max(shared, newest(join(ROOT, app, 'src')), newest(join(ROOT, app, 'webpack.config.js')), newest(join(ROOT, app, 'public')));
    return sources > statSync(built).mtimeMs;
  });
}

/** One build at a time in this checkout (two test runs at once would write the same dist/). */
function withBuildLock(fn) {
  const lock = join(ROOT, '.tmp', 'build.lock');
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const until = Date.now() + 15 * 60_000;
  for (;;) {
    try { mkdirSync(lock); break; } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) { rmSync(lock, { recursive: true, force: true }); continue; }
      if (Date.now() > until) throw new Error(`build lock ${lock} held for too long`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try { return fn(); } finally { rmSync(lock, { recursive: true, force: true }); }
}

/** `test`: the e2e build (npm test, e2e's global setup); otherwise the production build. */
export function ensureBuilt({ force = false, test = false } = {}) {
  const variant = test ? 'test' : 'production';
  withBuildLock(() => {
    const apps = force ? FRONTENDS : staleFrontends(variant);
    if (apps.length) buildLocked(apps, { test });
  });
}

/**
 * Builds exactly `apps` (no staleness check), e.g. one remote for a release (scripts/release.mjs):
 * `env` is added to the build's environment (RELEASE_VERSION).
 */
export function buildFrontends(apps, { test = false, env = {} } = {}) {
  withBuildLock(() => buildLocked(apps, { test, env }));
}

function buildLocked(apps, { test = false, env = {} }) {
  const variant = test ? 'test' : 'production';
  console.log(`Đang build giao diện (${variant === 'test' ? 'bản kiểm thử' : 'bản chính thức'}): ${apps.join(', ')}`);
  const started = new Date();
  runPnpm(['-r', '--workspace-concurrency=2', ...apps.flatMap((a) => ['--filter', `./${a}`]), 'build'], { cwd: ROOT, env: { ...process.env, ...env, TONGDAI_TEST_BUILD: test ? '1' : '0' } });
  // Built elsewhere (a release, TONGDAI_BUILD_OUT): the apps' dist/ and their variant are untouched.
  if (env.TONGDAI_BUILD_OUT) return;
  // A build is as fresh as the sources it read: a file saved while it ran stays newer than it.
  for (const app of apps) {
    const built = join(ROOT, app, 'dist', 'mf-manifest.json');
    if (!existsSync(built)) continue;
    utimesSync(built, started, started);
    writeFileSync(variantFile(app), `${variant}\n`);
  }
}

export function ensureInstalled() {
  const marker = join(ROOT, 'node_modules', '.modules.yaml');
  const lock = join(ROOT, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= newest(lock) && !anyPackageNewer(statSync(marker).mtimeMs)) return;
  console.log('Đang cài đặt các gói phụ thuộc (pnpm install)…');
  runPnpm(['install', '--frozen-lockfile'], { cwd: ROOT });
}

function anyPackageNewer(t) {
  return [...FRONTENDS, 'api', 'e2e', 'media', 'demo-carrier', 'shared/contracts', 'shared/platform', 'shared/ui', 'shared/build', 'shared/testkit', '.']
    .some((d) => newest(join(ROOT, d, 'package.json')) > t);
}
