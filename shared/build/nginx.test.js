// The production nginx configuration (host/nginx.conf + host/security-headers.conf), run by the
// real nginx as the image runs it: templates filled with SIP_WS_URL, then every UI answer checked
// for the security headers (docs/adr/0020). nginx-light is a test package (scripts/lib/system.mjs).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const SIP_WS_URL = 'wss://sip.example.vn:8089';

/** What the image's entrypoint does with a template: only variables set in the environment are replaced. */
const fill = (file) => fs.readFileSync(path.join(root, file), 'utf8').replaceAll('${SIP_WS_URL}', SIP_WS_URL);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

let dir;
let nginx;
let base;
let api;
let wsServer;

beforeAll(async () => {
  if (!NGINX) throw new Error('nginx is not installed: sudo apt-get install nginx-light (npm test installs it)');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tongdai-nginx-'));
  const html = path.join(dir, 'html');
  fs.mkdirSync(path.join(html, 'remotes/mf_crm'), { recursive: true });
  fs.writeFileSync(path.join(html, 'index.html'), '<!doctype html><title>t</title>');
  fs.writeFileSync(path.join(html, 'config.json'), '{}');
  fs.writeFileSync(path.join(html, 'remotes/mf_crm/remoteEntry.js'), '1');
  fs.writeFileSync(path.join(html, '903.e8e87bd9.js'), '1');
  fs.writeFileSync(path.join(html, 'remotes/mf_crm/12.ab12cd34.js'), '1');
  // The releases volume (docs/adr/0053): one release of mf-reports, the registry and its history.
  const release = path.join(html, 'releases/mf-reports/0.2.0-rc.1');
  fs.mkdirSync(release, { recursive: true });
  fs.mkdirSync(path.join(html, 'releases/mf-reports/.0.3.0.tmp-1'));
  fs.writeFileSync(path.join(release, 'mf-manifest.json'), '{"id":"mf_reports"}');
  fs.writeFileSync(path.join(release, 'remoteEntry.js'), 'var mf_reports;');
  fs.writeFileSync(path.join(release, '12.ab12cd34.js'), '1');
  fs.writeFileSync(path.join(html, 'releases/mf-reports/.0.3.0.tmp-1/remoteEntry.js'), 'half copied');
  fs.writeFileSync(path.join(html, 'releases/registry.json'), '{"schema":1,"remotes":{"mf_reports":{"version":"0.2.0-rc.1"}}}');
  fs.writeFileSync(path.join(html, 'releases/registry.history.jsonl'), '{}\n');
  const port = await freePort();
  api = await freePort(); // nothing listens there (502) except while the WebSocket test runs
  fs.writeFileSync(path.join(dir, 'security-headers.inc'), fill('host/security-headers.conf'));
  fs.writeFileSync(
    path.join(dir, 'default.conf'),
    fill('host/nginx.conf')
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replace('root /usr/share/nginx/html;', `root ${html};`)
      .replace(/server api-1:4000[^;]*;\s*server api-2:4000[^;]*;/, `server 127.0.0.1:${api};`)
      .replaceAll('/etc/nginx/conf.d/security-headers.inc', path.join(dir, 'security-headers.inc')),
  );
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir};`).join(' ');
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;\nevents {}\nhttp { include /etc/nginx/mime.types; access_log off; ${temp} include ${dir}/default.conf; }\n`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(check.stderr);
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${base}/config.json`).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
});

afterAll(() => {
  wsServer?.close();
  nginx?.kill();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('production nginx serves the UI with its security headers', () => {
  test.each([
    '/', '/customer', '/config.json', '/903.e8e87bd9.js', '/remotes/mf_crm/remoteEntry.js', '/remotes/mf_crm/12.ab12cd34.js', '/remotes/mf_crm/missing.js',
    '/registry.json', '/releases/mf-reports/0.2.0-rc.1/mf-manifest.json', '/releases/mf-reports/0.2.0-rc.1/remoteEntry.js', '/releases/registry.history.jsonl',
  ])('%s', async (url) => {
    const res = await fetch(`${base}${url}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toContain("frame-ancestors 'none'");
    // The template was filled: the softphone's SIP WebSocket is allowed, no placeholder is left.
    expect(csp).toContain(`connect-src 'self' ${SIP_WS_URL} `);
  });

  test("the locations' own headers stay beside them (no-cache entries, cross-origin remote chunks)", async () => {
    expect((await fetch(`${base}/config.json`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${base}/remotes/mf_crm/12.ab12cd34.js`)).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  test('releases: a version folder immutable (its manifest and entry too), the registry no-cache', async () => {
    for (const file of ['mf-manifest.json', 'remoteEntry.js', '12.ab12cd34.js']) {
      const res = await fetch(`${base}/releases/mf-reports/0.2.0-rc.1/${file}`);
      expect([file, res.status, res.headers.get('cache-control')]).toEqual([file, 200, 'public, max-age=31536000, immutable']);
    }
    expect((await fetch(`${base}/releases/mf-reports/0.2.0-rc.1/remoteEntry.js`)).headers.get('content-type')).toMatch(/javascript/);
    const registry = await fetch(`${base}/registry.json`);
    expect(registry.headers.get('cache-control')).toBe('no-cache');
    expect((await registry.json()).remotes.mf_reports.version).toBe('0.2.0-rc.1');
  });

  test.each([
    '/releases/registry.json', '/releases/registry.history.jsonl', '/releases/mf-reports/.0.3.0.tmp-1/remoteEntry.js',
    '/releases/mf-reports/0.2.0-rc.1/missing.js', '/releases/mf-reports/0.2.0-rc.1/..%2f..%2fregistry.json',
  ])('under /releases/ only release files: %s is a 404, cached nowhere', async (url) => {
    const res = await fetch(`${base}${url}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test("/api/ is the API's: nginx adds no UI policy to it", async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

test('/api/ passes the events WebSocket through (Upgrade kept, HTTP/1.1)', async () => {
  // A stand-in upstream on the API's port: answers an upgrade with 101, any plain request with 400.
  wsServer = require('node:http').createServer((_req, res) => res.writeHead(400).end('no upgrade'));
  const open = new Set();
  wsServer.on('upgrade', (req, socket) => {
    open.add(socket);
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Seen-Path: ${req.url}\r\n\r\n`);
    socket.on('data', (d) => socket.write(d));
  });
  await new Promise((r) => wsServer.listen(api, '127.0.0.1', r));
  const { port } = new URL(base);
  const answer = await new Promise((resolve, reject) => {
    const s = net.connect(Number(port), '127.0.0.1', () =>
      s.write('GET /api/t/demo/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'),
    );
    let got = '';
    const timer = setTimeout(() => { s.destroy(); resolve(got); }, 3000);
    s.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n\r\n') && !got.includes('ping')) s.write('ping');
      if (got.endsWith('ping')) { clearTimeout(timer); s.end(); resolve(got); }
    });
    s.on('error', reject);
  });
  for (const s of open) s.destroy();
  await new Promise((r) => wsServer.close(r));
  wsServer = null;
  expect(answer).toMatch(/^HTTP\/1\.1 101/);
  expect(answer).toContain('X-Seen-Path: /t/demo/events');
  expect(answer.endsWith('ping')).toBe(true);
});
