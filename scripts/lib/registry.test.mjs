import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareVersions, copyRelease, endCanary, history, promote, readRegistry, rollback, satisfies, sharedMismatches, validRange } from './registry.mjs';

const tmp = (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-registry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** What a remote's build leaves in dist/ (release.json written by hand here, as the build will). */
function fakeDist(dir, { pkg = 'mf-reports', version = '0.1.0', platform = '^1.0.0', marker = version } = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ id: pkg.replaceAll('-', '_'), metaData: { publicPath: 'auto' } }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* ${marker} */`);
  writeFileSync(join(dir, '12.ab12cd34.js'), `/* chunk ${marker} */`);
  writeFileSync(join(dir, 'release.json'), JSON.stringify({ remote: pkg.replaceAll('-', '_'), package: pkg, version, platform, shared: { react: '19.1.0' }, built_at: new Date().toISOString() }));
  return dir;
}
const release = (releases, opts) => fakeDist(join(releases, opts.pkg ?? 'mf-reports', opts.version), opts);
const codeOf = (code) => (e) => e.code === code;

test('satisfies: ^, ~, exact, *, partials and prereleases', () => {
  const table = [
    ['1.0.0', '^1.0.0', true], ['1.9.3', '^1.0.0', true], ['2.0.0', '^1.0.0', false], ['0.9.9', '^1.0.0', false],
    ['1.2.3', '^1.2.0', true], ['1.1.9', '^1.2.0', false],
    ['0.2.5', '^0.2.3', true], ['0.3.0', '^0.2.3', false], ['0.0.3', '^0.0.3', true], ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true], ['1.3.0', '~1.2.3', false], ['1.2.2', '~1.2.3', false],
    ['1.2.3', '1.2.3', true], ['1.2.4', '1.2.3', false], ['1.2.3', '=1.2.3', true], ['1.2.3', 'v1.2.3', true],
    ['7.0.0', '*', true], ['0.0.1', '', true], ['1.4.0', '1', true], ['2.0.0', '1.x', false], ['1.2.7', '1.2', true], ['1.3.0', '1.2.x', false],
    ['1.5.0', '^1', true], ['1.5.0', '~1.4', false],
    // Prereleases: only opted into by a range naming one of the same x.y.z; ordered as semver says.
    ['1.1.0-rc.1', '^1.0.0', false], ['1.1.0-rc.1', '^1.1.0-rc.0', true], ['1.1.0', '^1.1.0-rc.0', true],
    ['1.2.0-rc.1', '^1.1.0-rc.0', false], ['2.0.0-rc.1', '^1.0.0', false], ['1.0.0-rc.1', '*', false],
    ['1.0.0-rc.10', '~1.0.0-rc.9', true], ['1.0.0-rc.2', '1.0.0-rc.2', true], ['1.0.0-rc.2', '1.0.0', false],
    ['1.0.0-alpha', '^1.0.0-alpha.1', false], ['1.0.0-beta', '^1.0.0-alpha.1', true],
    ['1.0.0+build.7', '^1.0.0', true],
    // Invalid input never satisfies.
    ['1.0', '^1.0.0', false], ['banana', '*', false], ['1.0.0', '^banana', false],
    ['1.0.0', '>=1.0.0', true], ['3.2.0', '>=1.0.0', true], ['0.9.0', '>=1.0.0', false], ['1.0.0-rc.1', '>=1.0.0-rc.0', true], ['1.0.0', '>=1', false],
  ];
  for (const [version, range, expected] of table) assert.equal(satisfies(version, range), expected, `${version} in ${JSON.stringify(range)}`);
  assert.equal(validRange('^1.0.0'), true);
  assert.equal(validRange('>=1 <2'), false);
  const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '2.0.0'];
  for (let i = 1; i < order.length; i++) assert.equal(compareVersions(order[i - 1], order[i]), -1, `${order[i - 1]} < ${order[i]}`);
});

test('promote writes the entry and a history line', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0' });
  const change = promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  assert.equal(change.before, null);
  const reg = readRegistry(dir);
  assert.equal(reg.schema, 1);
  assert.deepEqual(reg.remotes, { mf_reports: { version: '0.1.0', entry: '/releases/mf-reports/0.1.0/mf-manifest.json', platform: '^1.0.0' } });
  assert.ok(!Number.isNaN(Date.parse(reg.updated_at)));
  const lines = history(dir, 'mf_reports');
  assert.equal(lines.length, 1);
  assert.deepEqual({ ...lines[0], at: undefined }, { at: undefined, remote: 'mf_reports', from: null, to: '0.1.0', action: 'promote' });
  // A second remote leaves the first entry as it was.
  release(dir, { pkg: 'mf-survey', version: '0.3.0' });
  promote(dir, { package: 'mf-survey', version: '0.3.0', hostContract: '1.0.0' });
  assert.deepEqual(Object.keys(readRegistry(dir).remotes).sort(), ['mf_reports', 'mf_survey']);
  assert.equal(history(dir).length, 2);
  // No temporary file or lock is left behind.
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.')), []);
});

test('an incompatible release is refused and the registry stays as it was', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0' });
  release(dir, { version: '0.2.0', platform: '^2.0.0' });
  promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  const before = readFileSync(join(dir, 'registry.json'), 'utf8');
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.4.0' }), (e) => e.code === 'INCOMPATIBLE_PLATFORM' && /\^2\.0\.0/.test(e.message) && /1\.4\.0/.test(e.message));
  assert.equal(readFileSync(join(dir, 'registry.json'), 'utf8'), before);
  assert.equal(history(dir).length, 1);
  // force is the operator's explicit override.
  assert.equal(promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.4.0', force: true }).after.version, '0.2.0');
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: 'one' }), codeOf('INVALID_HOST_CONTRACT'));
});

test('a missing or incomplete release folder is refused', (t) => {
  const dir = tmp(t);
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.9.0', hostContract: '1.0.0' }), codeOf('RELEASE_NOT_FOUND'));
  const noManifest = release(dir, { version: '0.1.0' });
  rmSync(join(noManifest, 'mf-manifest.json'));
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' }), (e) => e.code === 'INVALID_RELEASE' && /mf-manifest\.json/.test(e.message));
  const noRelease = release(dir, { version: '0.2.0' });
  rmSync(join(noRelease, 'release.json'));
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0' }), (e) => e.code === 'INVALID_RELEASE' && /release\.json/.test(e.message));
  // A folder whose release.json names another version (copied by hand into the wrong place).
  release(dir, { version: '0.3.0' });
  writeFileSync(join(dir, 'mf-reports', '0.3.0', 'release.json'), JSON.stringify({ remote: 'mf_reports', package: 'mf-reports', version: '0.4.0', platform: '^1.0.0' }));
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.3.0', hostContract: '1.0.0' }), codeOf('INVALID_RELEASE'));
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '../../etc', hostContract: '1.0.0' }), codeOf('INVALID_VERSION'));
  assert.throws(() => promote(dir, { package: '../x', version: '0.1.0', hostContract: '1.0.0' }), codeOf('INVALID_PACKAGE'));
  assert.equal(existsSync(join(dir, 'registry.json')), false);
  assert.deepEqual(history(dir), []);
});

test('rollback returns to the version that ran before, and again to the one before that', (t) => {
  const dir = tmp(t);
  for (const v of ['0.1.0', '0.2.0', '0.3.0']) {
    release(dir, { version: v });
    promote(dir, { package: 'mf-reports', version: v, hostContract: '1.0.0' });
  }
  const first = rollback(dir, { package: 'mf-reports', hostContract: '1.0.0' });
  assert.equal(first.before.version, '0.3.0');
  assert.equal(first.after.version, '0.2.0');
  assert.equal(readRegistry(dir).remotes.mf_reports.entry, '/releases/mf-reports/0.2.0/mf-manifest.json');
  assert.equal(rollback(dir, { package: 'mf-reports', hostContract: '1.0.0' }).after.version, '0.1.0');
  assert.throws(() => rollback(dir, { package: 'mf-reports', hostContract: '1.0.0' }), codeOf('NO_PREVIOUS_VERSION'));
  assert.deepEqual(history(dir, 'mf_reports').map((l) => [l.action, l.from, l.to]), [
    ['promote', null, '0.1.0'], ['promote', '0.1.0', '0.2.0'], ['promote', '0.2.0', '0.3.0'],
    ['rollback', '0.3.0', '0.2.0'], ['rollback', '0.2.0', '0.1.0'],
  ]);
  // Promoting after a rollback: rolling back returns to where the rollback had gone.
  promote(dir, { package: 'mf-reports', version: '0.3.0', hostContract: '1.0.0' });
  assert.equal(rollback(dir, { package: 'mf-reports', hostContract: '1.0.0' }).after.version, '0.1.0');
  // A remote never promoted has nothing to roll back to.
  assert.throws(() => rollback(dir, { package: 'mf-survey', hostContract: '1.0.0' }), codeOf('NO_PREVIOUS_VERSION'));
});

test('a rollback is checked like a promotion: a release the host no longer satisfies is refused', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0', platform: '^1.0.0' });
  release(dir, { version: '0.2.0', platform: '^1.0.0' });
  promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0' });
  assert.throws(() => rollback(dir, { package: 'mf-reports', hostContract: '2.0.0' }), codeOf('INCOMPATIBLE_PLATFORM'));
  assert.equal(readRegistry(dir).remotes.mf_reports.version, '0.2.0');
});

test('a registry changed between read and write is not overwritten (REGISTRY_CHANGED)', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0' });
  release(dir, { pkg: 'mf-survey', version: '0.5.0' });
  promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  let theirs;
  const racing = () => {
    // Another CI job promotes mf-survey while this promotion is between its read and its write.
    promote(dir, { package: 'mf-survey', version: '0.5.0', hostContract: '1.0.0' });
    theirs = readFileSync(join(dir, 'registry.json'), 'utf8');
  };
  release(dir, { version: '0.2.0' });
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0', hooks: { beforeCommit: racing } }), codeOf('REGISTRY_CHANGED'));
  assert.equal(readFileSync(join(dir, 'registry.json'), 'utf8'), theirs, "the other job's change is kept");
  assert.equal(readRegistry(dir).remotes.mf_reports.version, '0.1.0');
  assert.deepEqual(history(dir).map((l) => l.to), ['0.1.0', '0.5.0']);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.')), [], 'the temporary file is removed');
  // Retried, it goes through.
  assert.equal(promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0' }).after.version, '0.2.0');
  assert.equal(readRegistry(dir).remotes.mf_survey.version, '0.5.0');
  // The first promotion of all races too: a registry created meanwhile is not replaced.
  const fresh = tmp(t);
  release(fresh, { version: '0.1.0' });
  const other = { schema: 1, updated_at: 'x', remotes: {} };
  assert.throws(() => promote(fresh, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0', hooks: { beforeCommit: () => writeFileSync(join(fresh, 'registry.json'), JSON.stringify(other)) } }), codeOf('REGISTRY_CHANGED'));
  assert.deepEqual(readRegistry(fresh), other);
});

test('release folders are immutable: copying onto an existing version is refused', (t) => {
  const root = tmp(t);
  const out = join(root, 'releases');
  const dist = fakeDist(join(root, 'dist'), { version: '0.1.0', marker: 'first' });
  const dest = copyRelease({ from: dist, out, package: 'mf-reports', version: '0.1.0' });
  assert.equal(dest, join(out, 'mf-reports', '0.1.0'));
  assert.deepEqual(readdirSync(dest).sort(), ['12.ab12cd34.js', 'mf-manifest.json', 'release.json', 'remoteEntry.js']);
  // A second build of the same version (a visible change) does not replace the first.
  fakeDist(dist, { version: '0.1.0', marker: 'second' });
  assert.throws(() => copyRelease({ from: dist, out, package: 'mf-reports', version: '0.1.0' }), codeOf('RELEASE_EXISTS'));
  assert.equal(readFileSync(join(dest, 'remoteEntry.js'), 'utf8'), '/* first */');
  assert.deepEqual(readdirSync(join(out, 'mf-reports')), ['0.1.0'], 'no temporary copy is left');
  // A dist built for another version (RELEASE_VERSION not applied) is refused, not filed under the wrong name.
  assert.throws(() => copyRelease({ from: dist, out, package: 'mf-reports', version: '0.2.0' }), codeOf('INVALID_RELEASE'));
  assert.throws(() => copyRelease({ from: join(root, 'nothing'), out, package: 'mf-reports', version: '0.2.0' }), codeOf('BUILD_NOT_FOUND'));
  // Promoting never writes into a release folder.
  promote(out, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  assert.deepEqual(readdirSync(dest).sort(), ['12.ab12cd34.js', 'mf-manifest.json', 'release.json', 'remoteEntry.js']);
});

test('a release built with shared packages the host does not serve in range is refused (INCOMPATIBLE_SHARED)', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0' }); // built with react 19.1.0
  // The host serves react 19.3.1: ^19.1.0 is satisfied; packages only one side names are not judged.
  assert.deepEqual(sharedMismatches({ react: '19.1.0', rxjs: '7.8.2' }, { react: '19.3.1' }), []);
  assert.deepEqual(sharedMismatches({ react: '19.4.0', '@tongdai/ui': '2.0.0' }, { react: '19.3.1', '@tongdai/ui': '1.0.0' }), ['react 19.4.0 (host 19.3.1)', '@tongdai/ui 2.0.0 (host 1.0.0)']);
  assert.throws(
    () => promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0', hostShared: { react: '19.0.2' } }),
    (e) => e.code === 'INCOMPATIBLE_SHARED' && /react 19\.1\.0 \(host 19\.0\.2\)/.test(e.message),
  );
  assert.equal(existsSync(join(dir, 'registry.json')), false);
  assert.equal(promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0', hostShared: { react: '19.3.1' } }).after.version, '0.1.0');
});

test('a canary runs beside the current release for a share; a promotion ends it; it can be ended; rollback ignores it', (t) => {
  const dir = tmp(t);
  release(dir, { version: '0.1.0' });
  release(dir, { version: '0.2.0' });
  release(dir, { version: '0.3.0' });
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0', canary: 10 }), codeOf('NO_CURRENT_RELEASE'));
  promote(dir, { package: 'mf-reports', version: '0.1.0', hostContract: '1.0.0' });
  assert.throws(() => promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0', canary: 100 }), codeOf('INVALID_CANARY'));
  promote(dir, { package: 'mf-reports', version: '0.2.0', hostContract: '1.0.0', canary: 10 });
  assert.deepEqual(readRegistry(dir).remotes.mf_reports, {
    version: '0.1.0', entry: '/releases/mf-reports/0.1.0/mf-manifest.json', platform: '^1.0.0',
    canary: { version: '0.2.0', entry: '/releases/mf-reports/0.2.0/mf-manifest.json', platform: '^1.0.0', percent: 10 },
  });
  assert.equal(endCanary(dir, { package: 'mf-reports' }).after.canary, undefined);
  assert.equal(readRegistry(dir).remotes.mf_reports.version, '0.1.0');
  assert.throws(() => endCanary(dir, { package: 'mf-reports' }), codeOf('NO_CANARY'));
  // A canary, then everyone on it: the canary is gone; a rollback goes to what everyone ran before.
  promote(dir, { package: 'mf-reports', version: '0.3.0', hostContract: '1.0.0', canary: 25 });
  promote(dir, { package: 'mf-reports', version: '0.3.0', hostContract: '1.0.0' });
  assert.equal(readRegistry(dir).remotes.mf_reports.canary, undefined);
  assert.equal(rollback(dir, { package: 'mf-reports', hostContract: '1.0.0' }).after.version, '0.1.0');
  assert.deepEqual(history(dir).map((l) => [l.action, l.to, l.percent]), [
    ['promote', '0.1.0', undefined], ['canary', '0.2.0', 10], ['end-canary', '0.1.0', undefined], ['canary', '0.3.0', 25], ['promote', '0.3.0', undefined], ['rollback', '0.1.0', undefined],
  ]);
});
