// sip/kamailio.cfg must parse and load its modules with the installed Kamailio.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const cfg = path.resolve(__dirname, '../../sip/kamailio.cfg');
const kamailio = ['/usr/sbin/kamailio', '/usr/local/sbin/kamailio'].find((p) => fs.existsSync(p));

(kamailio ? describe : describe.skip)('sip/kamailio.cfg (kamailio -c)', () => {
  it('is accepted by Kamailio', () => {
    const run = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-check-'));
    const r = spawnSync(kamailio, ['-c', '-f', cfg, '-Y', run], { encoding: 'utf8' });
    fs.rmSync(run, { recursive: true, force: true });
    expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
  });

  it('refuses a broken configuration (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-bad-'));
    fs.writeFileSync(path.join(dir, 'bad.cfg'), fs.readFileSync(cfg, 'utf8').replace('request_route {', 'request_route {\n\tno_such_function();'));
    const r = spawnSync(kamailio, ['-c', '-f', path.join(dir, 'bad.cfg'), '-Y', dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.status).not.toBe(0);
  });
});
