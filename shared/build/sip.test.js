// sip/kamailio.cfg must parse and load its modules with the installed Kamailio, both as shipped
// (the container) and through the file scripts/lib/kamailio.mjs generates (npm start, tests).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const cfg = path.resolve(__dirname, '../../sip/kamailio.cfg');
const kamailio = ['/usr/sbin/kamailio', '/usr/local/sbin/kamailio'].find((p) => fs.existsSync(p));

describe('sip/kamailio.cfg (kamailio -c)', () => {
  // Without Kamailio this fails saying so: a skipped check would pass a run that checked nothing.
  beforeAll(() => {
    if (!kamailio) throw new Error('Kamailio is not installed: sudo apt-get install kamailio kamailio-websocket-modules kamailio-utils-modules kamailio-extra-modules kamailio-json-modules (or: sudo node scripts/lib/system.mjs test)');
  });
  it('is accepted by Kamailio', () => {
    const run = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-check-'));
    const r = spawnSync(kamailio, ['-c', '-f', cfg, '-Y', run], { encoding: 'utf8' });
    fs.rmSync(run, { recursive: true, force: true });
    expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
  });

  it('is accepted as run by scripts/lib/kamailio.mjs (ports, API URL and ctl socket injected)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-gen-'));
    // The helper is an ES module: ask a child node for the generated file instead of requiring it.
    const lib = path.resolve(__dirname, '../../scripts/lib/kamailio.mjs');
    // With rtpengine and a carrier network too: the media relay part of the config is checked as well.
    const opts = { wsPort: 18088, udpPort: 15060, apiInternalUrl: 'http://127.0.0.1:14001/internal/sip', dir, rtpengine: 'udp:127.0.0.1:12223' };
    const gen = spawnSync(process.execPath, ['--input-type=module', '-e', `import { kamailioConfig } from ${JSON.stringify(lib)}; process.stdout.write(kamailioConfig(${JSON.stringify(opts)}));`], { encoding: 'utf8' });
    expect(gen.stderr).toBe('');
    expect(gen.stdout).toContain('listen=udp:127.0.0.1:15060');
    expect(gen.stdout).toContain('!API_URL!http://127.0.0.1:14001/internal/sip!');
    expect(gen.stdout).toContain('!RTPENGINE_SOCK!udp:127.0.0.1:12223!');
    fs.writeFileSync(path.join(dir, 'kamailio.cfg'), gen.stdout);
    const r = spawnSync(kamailio, ['-c', '-f', path.join(dir, 'kamailio.cfg'), '-Y', dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
    // `kamailio -c` lists the sockets it would open: only the injected ones.
    const listening = r.stdout + r.stderr;
    expect(listening).toMatch(/udp: (127\.0\.0\.1|localhost):15060/);
    expect(listening).toMatch(/tcp: (127\.0\.0\.1|localhost):18088/);
    expect(listening).not.toMatch(/:5060\b|:8088\b/);
  });

  it('carries the internal secret in the API URL and the evapi handshake; carriers come from the API, none from the environment', () => {
    const lib = path.resolve(__dirname, '../../scripts/lib/kamailio.mjs');
    const opts = { wsPort: 18088, udpPort: 15060, apiInternalUrl: 'http://127.0.0.1:14001/internal/sip', dir: '/tmp/x', internalSecret: 'S3cret_S3cret_S3cret_S3cret_S3cret-1' };
    const gen = spawnSync(process.execPath, ['--input-type=module', '-e', `import { kamailioConfig } from ${JSON.stringify(lib)}; process.stdout.write(kamailioConfig(${JSON.stringify(opts)}));`], { encoding: 'utf8' });
    expect(gen.stdout).toContain('!API_URL!http://kamailio:S3cret_S3cret_S3cret_S3cret_S3cret-1@127.0.0.1:14001/internal/sip!');
    expect(gen.stdout).toContain('!INTERNAL_SECRET!S3cret_S3cret_S3cret_S3cret_S3cret-1!');
    // Carrier registrations: their Contact is this Kamailio's UDP socket; uac's (empty) table in the work dir.
    expect(gen.stdout).toContain('!SIP_CONTACT_ADDR!127.0.0.1:15060!');
    expect(gen.stdout).toContain('!UACREG_DB!text:///tmp/x/dbtext!');
    // As shipped, no carrier address is trusted by configuration and loopback has no exception as a
    // source. The only subnet checks are on where a carrier step is sent (ADR 0043: never to
    // loopback, link-local or multicast unless the operator allows it).
    const shipped = fs.readFileSync(cfg, 'utf8');
    expect(shipped).not.toMatch(/TRUNK_NET/);
    expect(shipped).not.toMatch(/\$si == "127\.0\.0\.1"/);
    const subnetChecks = [...shipped.matchAll(/is_in_subnet\("([^"]+)"/g)].map((m) => m[1]);
    expect(subnetChecks.length).toBeGreaterThan(0);
    expect(new Set(subnetChecks)).toEqual(new Set(['$var(dhost)']));
  });

  it('refuses a broken configuration (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-bad-'));
    fs.writeFileSync(path.join(dir, 'bad.cfg'), fs.readFileSync(cfg, 'utf8').replace('request_route {', 'request_route {\n\tno_such_function();'));
    const r = spawnSync(kamailio, ['-c', '-f', path.join(dir, 'bad.cfg'), '-Y', dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.status).not.toBe(0);
  });
});
