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
  const port = await freePort();
  const api = await freePort(); // nothing listens there: /api/ answers nginx's own 502
  fs.writeFileSync(path.join(dir, 'security-headers.inc'), fill('host/security-headers.conf'));
  fs.writeFileSync(
    path.join(dir, 'default.conf'),
    fill('host/nginx.conf')
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replace('root /usr/share/nginx/html;', `root ${html};`)
      .replace('http://api:4000/', `http://127.0.0.1:${api}/`)
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
  nginx?.kill();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('production nginx serves the UI with its security headers', () => {
  test.each(['/', '/customer', '/config.json', '/903.e8e87bd9.js', '/remotes/mf_crm/remoteEntry.js', '/remotes/mf_crm/12.ab12cd34.js', '/remotes/mf_crm/missing.js'])('%s', async (url) => {
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

  test("/api/ is the API's: nginx adds no UI policy to it", async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
