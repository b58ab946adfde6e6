// npm run release -- mf-reports [--version X] [--out DIR] [--skip-tests]
// A release of one remote (issue 36, docs/adr/0053): its own Jest tests, a production build of that
// remote alone (RELEASE_VERSION set: the build writes it into dist/release.json), then a copy of its
// dist/ to <out>/<package>/<version>/, which is never overwritten. Nothing else is built: not the
// host, not the other remotes. `npm run promote` then makes it the release that runs.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFrontends, ensureInstalled, FRONTENDS } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';
import { runPnpm } from './lib/pnpm.mjs';
import { copyRelease, parseVersion, RegistryError } from './lib/registry.mjs';

const REMOTE_PACKAGES = FRONTENDS.filter((f) => f !== 'host');

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { version: { type: 'string' }, out: { type: 'string' }, 'skip-tests': { type: 'boolean', default: false } },
  });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
const [pkg, ...extra] = args.positionals;
if (!pkg || extra.length) fail(`usage: npm run release -- <${REMOTE_PACKAGES.join('|')}> [--version X] [--out DIR] [--skip-tests]`);
if (!REMOTE_PACKAGES.includes(pkg)) fail(`${pkg} is not a remote (${REMOTE_PACKAGES.join(', ')}); the host is not released this way`);

const version = args.values.version ?? JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')).version;
if (!parseVersion(version) || version.startsWith('v')) fail(`--version ${version} is not a version (x.y.z or x.y.z-pre)`);
// npm run starts in the repository's root; a relative --out means the caller's directory.
const out = args.values.out ? resolve(process.env.INIT_CWD ?? process.cwd(), args.values.out) : join(ROOT, 'releases');
const dest = join(out, pkg, version);
// Before the tests and the build: a release is immutable, so an existing one is an answer already.
if (existsSync(dest)) fail(`[RELEASE_EXISTS] ${dest} exists: a release is never overwritten; choose another --version`);

ensureInstalled();
const started = Date.now();
if (args.values['skip-tests']) {
  console.log(`${pkg}: tests skipped (--skip-tests)`);
} else {
  console.log(`${pkg}: its own tests (pnpm --filter ./${pkg} test)`);
  runPnpm(['--filter', `./${pkg}`, 'test'], { cwd: ROOT });
}
// MF_BUILD_VERSION: Module Federation's metaData.buildInfo.buildVersion in mf-manifest.json. Built
// into a folder of its own (TONGDAI_BUILD_OUT), never the remote's dist/: the checkout's own build (a
// stack or the e2e suite serving it meanwhile) stays as it was.
const dist = mkdtempSync(join(tmpdir(), `tongdai-release-${pkg}-`));
process.on('exit', () => rmSync(dist, { recursive: true, force: true }));
buildFrontends([pkg], { env: { RELEASE_VERSION: version, MF_BUILD_VERSION: version, TONGDAI_BUILD_OUT: dist } });

let folder;
try {
  folder = copyRelease({ from: dist, out, package: pkg, version });
} catch (e) {
  if (e instanceof RegistryError && e.code === 'INVALID_RELEASE' && !existsSync(join(dist, 'release.json'))) {
    fail(`[${e.code}] ${pkg}'s build wrote no release.json (the remote build's release record, issue 36): nothing released`);
  }
  fail(e instanceof RegistryError ? `[${e.code}] ${e.message}` : String(e));
}

const files = [];
const walk = (d) => { for (const f of readdirSync(d)) { const p = join(d, f); if (statSync(p).isDirectory()) walk(p); else files.push(p); } };
walk(folder);
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
const release = JSON.parse(readFileSync(join(folder, 'release.json'), 'utf8'));
console.log(`\nRelease ${pkg} ${version} (${((Date.now() - started) / 1000).toFixed(0)} s): ${folder}`);
console.log(`  remote ${release.remote}, platform ${release.platform}, built ${release.built_at ?? '?'}`);
console.log(`  ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB: ${['mf-manifest.json', 'remoteEntry.js', 'release.json'].filter((f) => existsSync(join(folder, f))).join(', ')}, …`);
if (release.shared) console.log(`  shared: ${Object.entries(release.shared).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`  to run it: npm run promote -- ${pkg} ${version}${args.values.out ? ` --dir ${relative(process.env.INIT_CWD ?? process.cwd(), out) || '.'}` : ''}`);
