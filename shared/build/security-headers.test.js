// The UI's Content-Security-Policy (docs/adr/0020): built from the host's config.json, and the
// production nginx configuration carrying the same policy in every location that serves the UI.
const fs = require('node:fs');
const path = require('node:path');
const { contentSecurityPolicy, inlineScriptHashes, securityHeaders } = require('./security-headers');

const root = path.resolve(__dirname, '../..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');

/** directive → sources */
const parse = (csp) => Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

describe('contentSecurityPolicy', () => {
  const config = {
    apis: { cp: 'http://127.0.0.1:4000/cp', tenant: 'http://127.0.0.1:4000/t/{ma_dn}', telecom: 'http://127.0.0.1:4000/telecom' },
    remotes: { mf_crm: 'http://127.0.0.1:3001/mf-manifest.json', mf_pbx: 'https://cdn.example.vn/pbx/mf-manifest.json' },
  };
  const csp = parse(contentSecurityPolicy(config, { sipWebSockets: ['wss://sip.example.vn:8089/ws'] }));

  test("allows the remotes' origins for scripts, styles and manifests, and nothing else from afar", () => {
    expect(csp['script-src']).toEqual(["'self'", ...inlineScriptHashes(), 'http://127.0.0.1:3001', 'https://cdn.example.vn']);
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(csp['style-src']).toEqual(expect.arrayContaining(["'unsafe-inline'", 'https://cdn.example.vn']));
    expect(csp['connect-src']).toEqual(expect.arrayContaining(['http://127.0.0.1:3001', 'https://cdn.example.vn']));
  });

  test('allows the API over HTTP and WebSocket, and the softphone SIP WebSocket', () => {
    expect(csp['connect-src']).toEqual(expect.arrayContaining(['http://127.0.0.1:4000', 'ws://127.0.0.1:4000', 'wss://sip.example.vn:8089']));
    expect(csp['img-src']).toContain('http://127.0.0.1:4000');
    expect(csp['media-src']).toEqual(["'self'", 'blob:', 'http://127.0.0.1:4000']);
  });

  test("the host page's one inline script (the theme before first paint) is allowed by its hash, no other", () => {
    expect(inlineScriptHashes()).toHaveLength(1);
    expect(inlineScriptHashes('<script>a()</script>')).toEqual(["'sha256-" + require('node:crypto').createHash('sha256').update('a()').digest('base64') + "'"]);
  });

  test('refuses framing, plugins and foreign base URLs', () => {
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
  });

  test('relative bases (production: one origin behind nginx) are the host itself', () => {
    const prod = parse(contentSecurityPolicy(JSON.parse(read('host/config.production.json'))));
    expect(prod['script-src']).toEqual(["'self'", ...inlineScriptHashes()]);
    expect(prod['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  test('the other headers: nosniff, a referrer policy, no framing', () => {
    expect(securityHeaders('x')).toEqual({
      'Content-Security-Policy': 'x',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
    });
  });
});

describe('production nginx (host/nginx.conf, host/security-headers.conf)', () => {
  const snippet = read('host/security-headers.conf');
  const nginx = read('host/nginx.conf');
  const header = (name) => new RegExp(`^add_header ${name} "([^"]*)" always;$`, 'm').exec(snippet)?.[1];

  test('sends the policy security-headers.js builds for config.production.json, with the SIP WebSocket from the environment', () => {
    const expected = contentSecurityPolicy(JSON.parse(read('host/config.production.json')), { sipWebSockets: ['${SIP_WS_URL}'] });
    expect(header('Content-Security-Policy')).toBe(expected);
    const others = securityHeaders();
    for (const name of Object.keys(others)) expect(header(name)).toBe(others[name]);
  });

  test('every UI location includes the headers (an add_header in a location drops the server-level ones); /api/ keeps the API’s own', () => {
    // Directives only: a comment that says "location" is not one.
    const locations = [...nginx.matchAll(/^\s*location ([^{\n]+)\{([^}]*)\}/gm)].map(([, where, body]) => [where.trim(), body]);
    expect(locations.length).toBeGreaterThanOrEqual(4);
    for (const [where, body] of locations) {
      expect([where, body.includes('include /etc/nginx/conf.d/security-headers.inc;')]).toEqual([where, where !== '/api/']);
    }
  });

  test('the image installs both files as templates, so ${SIP_WS_URL} is filled in at start-up', () => {
    const dockerfile = read('host/Dockerfile');
    expect(dockerfile).toContain('COPY host/nginx.conf /etc/nginx/templates/default.conf.template');
    expect(dockerfile).toContain('COPY host/security-headers.conf /etc/nginx/templates/security-headers.inc.template');
  });
});
