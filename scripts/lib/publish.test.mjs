import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishRelease } from './publish.mjs';
import { history, readRegistry } from './registry.mjs';

const ENTRY = fileURLToPath(new URL('../publish-release.mjs', import.meta.url));

const tmp = (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-publish-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** An image's /release: one remote's build at a version (release.json as the build writes it). */
function image(root, { pkg = 'mf-reports', version = '0.2.0', platform = '^1.0.0' } = {}) {
  const dir = join(root, 'image', pkg, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ id: pkg.replaceAll('-', '_'), metaData: { publicPath: 'auto' } }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* ${version} */`);
  writeFileSync(join(dir, 'release.json'), JSON.stringify({ remote: pkg.replaceAll('-', '_'), package: pkg, version, platform, shared: { react: '19.1.0' }, built_at: new Date().toISOString() }));
  return join(root, 'image');
}

const host = { platformContract: '1.0.0', shared: { react: '19.1.0' } };

test("a remote's image puts its release into the volume and promotes it against the running host; started again it changes nothing", async (t) => {
  const root = tmp(t);
  const src = image(root);
  const dir = join(root, 'releases');
  mkdirSync(dir);
  let asked = 0;
  const getHost = async () => {
    asked++;
    if (asked < 3) throw new Error('connect ECONNREFUSED'); // the web container not up yet
    return host;
  };
  const first = await publishRelease({ src, dir, getHost, everyMs: 10 });
  assert.deepEqual(first, { package: 'mf-reports', version: '0.2.0', copied: true, promoted: true });
  assert.equal(asked, 3);
  assert.equal(readFileSync(join(dir, 'mf-reports', '0.2.0', 'remoteEntry.js'), 'utf8'), '/* 0.2.0 */');
  assert.deepEqual(readRegistry(dir).remotes.mf_reports, { version: '0.2.0', entry: '/releases/mf-reports/0.2.0/mf-manifest.json', platform: '^1.0.0' });
  const again = await publishRelease({ src, dir, getHost });
  assert.deepEqual(again, { package: 'mf-reports', version: '0.2.0', copied: false, promoted: false });
  assert.equal(history(dir, 'mf_reports').length, 1);
});

test('PROMOTE=0 only copies; a host whose contract the release does not suit refuses it (the release stays, not running)', async (t) => {
  const root = tmp(t);
  const dir = join(root, 'releases');
  mkdirSync(dir);
  const copyOnly = await publishRelease({ src: image(root), dir, getHost: async () => assert.fail('not asked'), promoteIt: false });
  assert.deepEqual(copyOnly, { package: 'mf-reports', version: '0.2.0', copied: true, promoted: false });
  assert.equal(readRegistry(dir).remotes.mf_reports, undefined);

  const other = tmp(t);
  const odir = join(other, 'releases');
  mkdirSync(odir);
  await assert.rejects(publishRelease({ src: image(other, { platform: '^2.0.0' }), dir: odir, getHost: async () => host }), (e) => e.code === 'INCOMPATIBLE_PLATFORM');
  assert.equal(readRegistry(odir).remotes.mf_reports, undefined);
  await assert.rejects(publishRelease({ src: image(tmp(t)), dir: odir, getHost: async () => { throw new Error('down'); }, waitMs: 50, everyMs: 10 }), (e) => e.code === 'HOST_UNKNOWN' && /down/.test(e.message));
});

test('the image entry point reads the host over HTTP and says what it did; an image with two releases is refused', async (t) => {
  const root = tmp(t);
  const src = image(root);
  const dir = join(root, 'releases');
  mkdirSync(dir);
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/release.json' ? host : {}));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const run = (env) => new Promise((resolve) => {
    execFile(process.execPath, [ENTRY], { env: { ...process.env, RELEASE_SRC: src, RELEASES_DIR: dir, HOST_RELEASE: `http://127.0.0.1:${server.address().port}/release.json`, HOST_WAIT_S: '2', ...env } }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
  const ok = await run({});
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /publish: mf-reports 0\.2\.0: copied into .*\npublish: mf-reports 0\.2\.0: promoted \(was config\.json's built-in copy; host platform contract 1\.0\.0\)/);
  image(root, { version: '0.3.0' });
  const two = await run({});
  assert.equal(two.code, 1);
  assert.match(two.stderr, /\[INVALID_RELEASE\] .* holds 2 releases \(mf-reports\/0\.2\.0, mf-reports\/0\.3\.0\)/);
});
