import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseRoutes, serveStatic } from './serve-static.mjs';

test('the host server with a releases folder: versions immutable, the registry no-cache', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tongdai-serve-'));
  const host = join(root, 'host');
  const releases = join(root, 'releases');
  const version = join(releases, 'mf-reports', '0.2.0-rc.1');
  mkdirSync(host, { recursive: true });
  mkdirSync(join(version, 'assets'), { recursive: true });
  mkdirSync(join(releases, 'mf-reports', '.0.3.0.tmp-1'), { recursive: true });
  writeFileSync(join(host, 'index.html'), '<!doctype html><title>host</title>');
  writeFileSync(join(host, '903.e8e87bd9.js'), '1');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  writeFileSync(join(version, 'mf-manifest.json'), '{"id":"mf_reports"}');
  writeFileSync(join(version, 'remoteEntry.js'), 'var mf_reports;');
  writeFileSync(join(version, '12.ab12cd34.js'), '2');
  writeFileSync(join(version, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(releases, 'mf-reports', '.0.3.0.tmp-1', 'remoteEntry.js'), 'half copied');
  writeFileSync(join(releases, 'registry.json'), '{"schema":1,"remotes":{"mf_reports":{"version":"0.1.0"}}}');
  writeFileSync(join(releases, 'registry.history.jsonl'), '{}\n');
  const headers = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'self'" };
  const server = await serveStatic({ dir: host, port: 0, spa: true, overrides: { '/config.json': '{"registry":"/registry.json"}' }, headers, ...releaseRoutes(releases) });
  t.after(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const get = (path) => fetch(`${base}${path}`);

  for (const file of ['mf-manifest.json', 'remoteEntry.js', '12.ab12cd34.js', 'assets/logo.svg']) {
    const res = await get(`/releases/mf-reports/0.2.0-rc.1/${file}`);
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', file);
    assert.ok(res.headers.get('content-security-policy'), file);
  }
  assert.match((await get('/releases/mf-reports/0.2.0-rc.1/remoteEntry.js')).headers.get('content-type'), /^text\/javascript/);
  assert.match((await get('/releases/mf-reports/0.2.0-rc.1/mf-manifest.json')).headers.get('content-type'), /^application\/json/);

  const reg = await get('/registry.json');
  assert.equal(reg.status, 200);
  assert.equal(reg.headers.get('cache-control'), 'no-cache');
  assert.equal(reg.headers.get('x-content-type-options'), 'nosniff');
  assert.equal((await reg.json()).remotes.mf_reports.version, '0.1.0');
  // Read on every request: a promotion is seen at once, without restarting the server.
  writeFileSync(join(releases, 'registry.json'), '{"schema":1,"remotes":{"mf_reports":{"version":"0.2.0-rc.1"}}}');
  assert.equal((await (await get('/registry.json')).json()).remotes.mf_reports.version, '0.2.0-rc.1');

  // Under /releases/ only release files: not the registry (it would be cached a year), its history,
  // a copy in progress, a missing file (no SPA page), or anything outside the folder.
  for (const path of ['/releases/registry.json', '/releases/registry.history.jsonl', '/releases/mf-reports/.0.3.0.tmp-1/remoteEntry.js',
    '/releases/mf-reports/0.2.0-rc.1/missing.js', '/releases/mf-reports/0.2.0-rc.1', '/releases/',
    '/releases/mf-reports/0.2.0-rc.1/..%2f..%2fregistry.json', '/releases/mf-reports/0.2.0-rc.1/..%2f..%2f..%2fsecret.txt']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
  }

  // The host's own files are as before.
  assert.equal((await get('/903.e8e87bd9.js')).headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const page = await get('/customer');
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  assert.match(await page.text(), /<title>host/);
  assert.equal((await get('/config.json')).headers.get('cache-control'), 'no-cache');
});

test('without a registry file /registry.json is a 404 (the host then keeps config.json\'s remotes)', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tongdai-serve-'));
  writeFileSync(join(root, 'index.html'), 'x');
  const server = await serveStatic({ dir: root, port: 0, spa: true, ...releaseRoutes(join(root, 'none')) });
  t.after(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });
  const res = await fetch(`http://127.0.0.1:${server.address().port}/registry.json`);
  assert.equal(res.status, 404);
});
