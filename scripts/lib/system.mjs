// The system packages the tests need. As root, missing ones are installed with apt; otherwise
// the run stops and names the package and the command.
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { KAMAILIO_PACKAGES, kamailioAvailable } from './kamailio.mjs';
import { RTPENGINE_PACKAGE, rtpengineAvailable } from './rtpengine.mjs';

function onPath(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
}

function hasInitdb() {
  if (onPath('initdb')) return true;
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((v) => existsSync(`${base}/${v}/bin/initdb`));
}

const NEEDS = [
  { pkg: 'chromium', why: 'e2e tests (Playwright drives Debian\'s Chromium)', present: () => existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') },
  { pkg: 'postgresql', why: 'API tests (a throwaway PostgreSQL cluster)', present: hasInitdb },
  { pkg: 'redis-server', why: 'API tests (a throwaway Redis for call events across instances)', present: () => onPath('redis-server') || existsSync('/usr/bin/redis-server') },
  // kamailio.mjs decides what "usable" means: the binary and the modules sip/kamailio.cfg loads.
  { pkg: KAMAILIO_PACKAGES.join(' '), why: 'SIP tests (registrar and proxy for the softphone)', present: kamailioAvailable },
  { pkg: 'sip-tester', why: 'SIP tests and bench (sipp)', present: () => onPath('sipp') },
  // Userspace only: the `rtpengine` package would pull in a kernel module.
  { pkg: RTPENGINE_PACKAGE, why: 'trunk calls to browsers (media relay)', present: rtpengineAvailable },
];

const POLICY_RC = '/usr/sbin/policy-rc.d';

/** apt must not start the distribution's Kamailio on 5060: a policy-rc.d saying 101 while installing. */
function withoutServiceStarts(fn) {
  if (existsSync(POLICY_RC)) return fn();
  writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n');
  chmodSync(POLICY_RC, 0o755);
  try {
    return fn();
  } finally {
    rmSync(POLICY_RC, { force: true });
  }
}

export function ensureSystemPackages() {
  const missing = NEEDS.filter((n) => !n.present());
  if (!missing.length) return;
  const pkgs = missing.flatMap((m) => m.pkg.split(' '));
  if (process.getuid?.() !== 0) {
    console.error(`Thiếu gói hệ thống: ${pkgs.join(', ')} (${missing.map((m) => m.why).join('; ')}).`);
    console.error(`Cài đặt bằng: sudo apt-get install -y ${pkgs.join(' ')}`);
    process.exit(1);
  }
  console.log(`Cài đặt gói hệ thống: ${pkgs.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    withoutServiceStarts(() => spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { stdio: 'inherit', env }).status === 0);
  if (!install()) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    if (!install()) throw new Error(`apt-get install ${pkgs.join(' ')} failed`);
  }
}
