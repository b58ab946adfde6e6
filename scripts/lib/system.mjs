// The one list of Debian packages the product and its tests need, used by `npm start`
// (`start`), `npm test` (`test`) and .ci/run (`node scripts/lib/system.mjs test`). As root the
// missing ones are installed with apt; otherwise the run names the packages and the command.
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { kamailioAvailable } from './kamailio.mjs';
import { rtpengineAvailable } from './rtpengine.mjs';

function onPath(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
}

function hasInitdb() {
  if (onPath('initdb')) return true;
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((v) => existsSync(`${base}/${v}/bin/initdb`));
}

/** `for`: which runs need the package; `why`: said when it is missing. */
export const SYSTEM_PACKAGES = [
  // kamailio.mjs decides what "usable" means: the binary and the modules sip/kamailio.cfg loads
  // (websocket.so, http_client.so + xhttp.so from utils, jansson.so from extra: plans are JSON).
  { pkgs: ['kamailio', 'kamailio-websocket-modules', 'kamailio-utils-modules', 'kamailio-extra-modules'], for: ['start', 'test'], why: 'Kamailio: tổng đài SIP cho softphone', present: kamailioAvailable },
  // Userspace only: the `rtpengine` package would pull in a kernel module.
  { pkgs: ['rtpengine-daemon'], for: ['start', 'test'], why: 'rtpengine: chuyển tiếp âm thanh giữa trung kế và trình duyệt', present: rtpengineAvailable },
  // The demo carrier's Vietnamese announcement (npm start; its tests): without it, tones.
  { pkgs: ['espeak-ng'], for: ['start', 'test'], why: 'espeak-ng: lời chào tiếng Việt của nhà mạng demo', present: () => onPath('espeak-ng') },
  { pkgs: ['chromium'], for: ['test'], why: 'Chromium cho kiểm thử e2e (Playwright)', present: () => existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') },
  // The e2e suite's browser (e2e/support/chromium.ts): Chromium without its own UI, less CPU per page.
  { pkgs: ['chromium-headless-shell'], for: ['test'], why: 'Chromium headless shell: trình duyệt của kiểm thử e2e', present: () => existsSync('/usr/lib/chromium/chromium-headless-shell') },
  { pkgs: ['postgresql'], for: ['test'], why: 'PostgreSQL tạm cho kiểm thử API', present: hasInitdb },
  { pkgs: ['redis-server'], for: ['test'], why: 'Redis tạm cho kiểm thử sự kiện cuộc gọi giữa nhiều API', present: () => onPath('redis-server') || existsSync('/usr/bin/redis-server') },
  { pkgs: ['sip-tester'], for: ['test'], why: 'sipp cho kiểm thử cuộc gọi và bench', present: () => onPath('sipp') },
  { pkgs: ['nginx-light'], for: ['test'], why: 'nginx cho kiểm thử cấu hình nginx sản xuất (host/nginx.conf)', present: () => onPath('nginx') || existsSync('/usr/sbin/nginx') },
];

/** The packages `use` ('start' or 'test') needs that are not installed. */
export function missingPackages(use) {
  return SYSTEM_PACKAGES.filter((n) => n.for.includes(use) && !n.present());
}

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

/**
 * Installs what `use` needs (as root), else explains in Vietnamese what to install. `npm test`
 * stops then (`required`); `npm start` goes on without SIP. Returns the packages still missing.
 */
export function ensureSystemPackages(use = 'test', { required = use === 'test' } = {}) {
  const missing = missingPackages(use);
  if (!missing.length) return [];
  const pkgs = missing.flatMap((m) => m.pkgs);
  if (process.getuid?.() !== 0) {
    console.error(`Thiếu gói hệ thống: ${pkgs.join(', ')}\n  (${missing.map((m) => m.why).join('; ')}).`);
    console.error(`Cài đặt bằng: sudo apt-get install -y --no-install-recommends ${pkgs.join(' ')}`);
    console.error(`  hoặc chạy lệnh này với quyền root: sudo node scripts/lib/system.mjs ${use}`);
    if (required) process.exit(1);
    return pkgs;
  }
  console.log(`Cài đặt gói hệ thống: ${pkgs.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    withoutServiceStarts(() => spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { stdio: 'inherit', env }).status === 0);
  if (!install()) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    if (!install()) throw new Error(`apt-get install ${pkgs.join(' ')} failed`);
  }
  return missingPackages(use).flatMap((m) => m.pkgs);
}

// `node scripts/lib/system.mjs [start|test]` (.ci/run): install what that run needs.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const use = process.argv[2] ?? 'test';
  if (!['start', 'test'].includes(use)) throw new Error(`usage: node scripts/lib/system.mjs [start|test]`);
  ensureSystemPackages(use);
}
