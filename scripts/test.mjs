// npm test: every test. System packages, dependencies and builds first, then types, unit and
// API tests per package, then the e2e tests against the whole product in Chromium.
//
// Steps that do not depend on each other run side by side (lanes): the API's Jest suites mostly wait
// on PostgreSQL, Kamailio and sipp, so the type check and the other packages' Jest run beside them.
// Each step prints its time; a step's failure ends its own lane (the e2e tests do not start after a
// failed API Jest), the other lanes finish, and npm test fails with every failed step named.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { ensureInstalled } from './lib/build.mjs';
import { cpuGroup } from './lib/cpu-group.mjs';
import { failureDigest } from './lib/failure-digest.mjs';
import { ROOT } from './lib/paths.mjs';
import { pnpmCommand } from './lib/pnpm.mjs';
import { ensureSystemPackages } from './lib/system.mjs';

const started = Date.now();
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(0)} s`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

ensureSystemPackages('test');
ensureInstalled();
let t;

/** Phases run one after the other; the lanes of a phase side by side, each lane's steps in order. */
const phases = [
  [
    // The e2e suite is the longest step (524 s alone on a quiet 2-core machine against the API Jest's
    // 137 s, the calls and faults' 404 s, types + the other packages + the bench smoke's 182 s; session
    // 20), so it starts first, in a lane of its own: the whole run is CPU-bound, and the other lanes
    // fill the cores beside it instead of holding its start back. Its stacks' fixed ports (3100-4999)
    // are apart from the suites' (20100-30000, scripts/lib/ports.mjs), each lane's random ones its own.
    // E2E_SCREENSHOTS=0: the screens the specs photograph for a developer to look at are not taken
    // (e2e/support/fixtures.ts; 161 → 126 CPU-s on the four specs that take most of them).
    // At the normal priority (BUSY_NICE below): real calls in browsers.
    // The e2e build first in its lane (the production one plus the data-testid attributes the e2e suite
    // finds elements by), not before every lane: nothing else needs it but the bench smoke, which starts
    // after the serial suites' second half. The API's lane, the longest (705 + 244 + 171 s in ci1 of the thirty-sixth
    // session), no longer waits its 39 s. Ahead of the others (nice -5): beside them at the normal priority it took 92 s
    // (ci3 of that session) where it takes 39 alone, and the e2e suite waits for it.
    [
      ['Build (giao diện, bản kiểm thử)', ['run', 'build', '--test'], {}, { nice: -5 }],
      ['E2E (Playwright, Chromium)', ['--filter', '@tongdai/e2e', 'test'], { TONGDAI_PORT_RANGE: '22000-23399', E2E_SCREENSHOTS: '0' }, { nice: 0 }],
    ],
    [
      ['Unit + API (Jest, api)', ['--filter', '@tongdai/api', 'test'], { TONGDAI_JEST_PART: 'main', TONGDAI_PORT_RANGE: '20100-21999' }, { nice: 0 }],
    ],
    // The API suites that run one at a time (api/jest.config.js): the fault suites (issue 41: the API
    // killed, PostgreSQL stopped, npm start's supervisor; the ghost burst) and calls.integration. They
    // mostly wait on real call timelines (124 CPU-s in 404 s alone), so they run beside the busy lanes
    // instead of after them: their timelines hold at load 8+ since recordings are encoded on a thread
    // of their own (1c50124), and each suite runs whole stacks on ports of its own.
    // (Two of these suites at a time, and the other packages' Jest after them, were tried in the thirty-seventh
    // session: this lane took 530 s instead of 914, the run no less — it was CPU-bound then, 1879 CPU-s in
    // 985 s — and faults-outages' calls failed beside voice-calls, ci3: they are in one half, in turn.)
    // The steps with real-time checks (this lane, with the API's suites that judge the wall clock, the
    // e2e suite, and the API's main part, whose suites' setup missed Jest's 30 s when niced: ci7 of the
    // twenty-third session) run at the normal priority; the steps that assert no time (the other
    // packages' Jest, types) at nice 10 (BUSY_NICE) and take what the others leave. All at the
    // same priority, at load 12–13 these suites' API fell behind Kamailio's calls (ci1 and ci5 of the
    // twenty-third session); with this lane favoured it passed (ci3, ci4), and with the e2e niced too a
    // voicemail prompt came with a 400 ms hole (ci3). The whole run does the same work.
    [
      // Ahead of everything (nice -5; CI runs as root, elsewhere nice says it may not and runs it at 0): this lane
      // takes about a tenth of the run's CPU (278–342 of ~3500 CPU-s) but needs it on time — its media timelines
      // failed at load 15–16 beside the e2e suite and the API's Jest at the same priority (ci1–ci4 of the
      // thirty-first session: a supervisor's tones, *97's prompts, a mailbox's greeting never heard in 20 s).
      ['Cuộc gọi và sự cố A (Jest, api: calls, faults)', ['--filter', '@tongdai/api', 'test'], { TONGDAI_JEST_PART: 'serial-a', TONGDAI_PORT_RANGE: '26700-28299' }, { nice: -5 }],
      // The other packages' Jest and the type check after the serial suites' first half (they need nothing of it:
      // they run when it failed too), not after the API's Jest: that lane was the run's longest in ci5 of the
      // forty-first session (638 + 180 + 40 s of 860) while this half took 533 s.
      // After another step, not from the run's start in a lane of their own (tried in the thirty-sixth
      // session: ci2, ci3): at load 14–17 the media worker's real-time tests missed a key's 600 ms (csat.test)
      // and the bench smoke's API answered Kamailio's plans too late (503: the wall and the soak measured
      // nothing); and the run took no less (1128 s against 1163 s, for more CPU: 2124 against 1980 CPU-s).
      // At the normal priority: the media worker's and the demo carrier's tests are real-time RTP (at nice 10 at
      // load 12 the carrier's population-calls heard 41 of 75 packets in 1.5 s: ci5 of the thirty-sixth session).
      ['Unit (Jest, các gói khác)', ['-r', '--workspace-concurrency=1', '--filter', '!@tongdai/e2e', '--filter', '!@tongdai/api', 'test'], { TONGDAI_PORT_RANGE: '25000-26699' }, { nice: 0, alsoAfterFailure: true }],
      // Five programs, not one per package (the root package.json's typecheck: the Node packages, the
      // browser packages, shared/ui, contracts, e2e): each remote's program read Fluent UI's types again,
      // 331 s in CI where the five take about a minute. It needs nothing of the suites before it: it runs
      // (and says what it found) even when they failed.
      ['Kiểm tra kiểu (tsc)', ['run', 'typecheck'], {}, { alsoAfterFailure: true }],
    ],
    // The serial suites in two halves side by side (api/jest.config.js), each one suite at a time: one lane of
    // them took 858 s of ci1's 910 (forty-first session) for 139 CPU-s — waiting on call timelines, not on the
    // machine (1466 CPU-s in the whole run: 1.6 of its 2 cores). The second half is the shorter: the bench
    // smoke follows it.
    [
      ['Cuộc gọi và sự cố B (Jest, api: calls, faults)', ['--filter', '@tongdai/api', 'test'], { TONGDAI_JEST_PART: 'serial-b', TONGDAI_PORT_RANGE: '28300-29999' }, { nice: -5 }],
      // Every bench section at a tiny size: each must still measure something real (scripts/bench.mjs). It takes
      // the e2e build (the first step of the first lane, done by then). After the serial suites' second half, not
      // after the e2e suite (ci1 of the forty-first session: build, e2e and this made a lane of 904 s of the run's
      // 910). It runs when the suites before it failed too: its figures say something of their own.
      // At the normal priority: it judges no figure, but its calls run on the clock (Kamailio asks its API for each
      // plan and gives up after its timeout). At nice 10 beside the busy lanes (load 12–17) its API missed /health
      // for 180 s (CI of stop 57) or answered Kamailio's plans too late (503 for every call: ci3, ci4 of that session).
      ['Bench smoke (mọi phần đo ở cỡ nhỏ)', ['run', 'bench', 'smoke'], { TONGDAI_PORT_RANGE: '23400-24999' }, { nice: 0, alsoAfterFailure: true }],
    ],
  ],
];

const [bin, ...pre] = pnpmCommand();
/** The niceness of every step but the timeline suites' (above); its children inherit it. */
const BUSY_NICE = 10;
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

/**
 * One step. Alone in its phase it writes straight to the terminal; beside others each line is
 * prefixed with the step's name, so interleaved output still says whose it is.
 */
function runStep(title, args, alone, stepEnv = {}, { nice = BUSY_NICE } = {}) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${title} (tải ${load()}${nice ? `, nice ${nice}` : ''})`);
    const t0 = Date.now();
    // coreutils' nice (Debian's essential set): the step's first process and all it starts run at it.
    // Through bash, whose `times` (fd 3) says the CPU the step's processes used (those waited for), where
    // no cgroup counts them all (lib/cpu-group.mjs): what a step costs on a 2-core machine, beside its wall time.
    // Every process of the step counted (its daemons too) where a cgroup can be made (CI, as root): bash
    // joins it before it starts the step (lib/cpu-group.mjs).
    const group = cpuGroup(title);
    const join = group ? `echo $$ > '${group.procs}' 2>/dev/null; ` : '';
    const timed = ['bash', '-c', `${join}"$@"; rc=$?; times >&3; exit $rc`, 'bash', bin, ...pre, ...args];
    const command = nice ? ['nice', '-n', String(nice), ...timed] : timed;
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, env: { ...env, ...stepEnv }, stdio: alone ? ['inherit', 'inherit', 'inherit', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'] });
    let times = '';
    child.stdio[3].on('data', (b) => (times += b.toString()));
    /** The step's last lines, for the digest a failure repeats at the end (failure-digest.mjs). */
    const kept = [];
    if (!alone) {
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        let rest = '';
        from.on('data', (b) => {
          const lines = (rest + b.toString()).split('\n');
          rest = lines.pop();
          for (const line of lines) to.write(`[${title}] ${line}\n`);
          keep(lines);
        });
        from.on('end', () => {
          if (!rest) return;
          to.write(`[${title}] ${rest}\n`);
          keep([rest]);
        });
      }
    }
    function keep(lines) {
      kept.push(...lines);
      if (kept.length > 20_000) kept.splice(0, kept.length - 10_000);
    }
    child.on('close', (code) => {
      const ok = code === 0;
      const cpu = group ? `${group.seconds().toFixed(0)} s` : stepCpu(times);
      group?.remove();
      console.log(ok ? `✓ ${title} (${secs(t0)}, CPU ${cpu}, tải ${load()})` : `\n✗ ${title} thất bại (exit ${code}, ${secs(t0)}, CPU ${cpu})`);
      resolve({ title, ok, code, digest: ok || alone ? [] : failureDigest(kept) });
    });
  });
}

/** bash's `times` (its own, then its children's user and system time) as the children's CPU seconds. */
function stepCpu(times) {
  const children = times.trim().split('\n')[1];
  if (!children) return '?';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  return `${seconds.toFixed(0)} s`;
}

/** A lane's steps in order; after a failed one, only those that do not need it (`alsoAfterFailure`). */
async function runLane(steps, alone) {
  const results = [];
  for (const [title, args, stepEnv, options] of steps) {
    if (results.some((r) => !r.ok) && !options?.alsoAfterFailure) break;
    results.push(await runStep(title, args, alone, stepEnv, options));
  }
  return results;
}

for (const lanes of phases) {
  t = Date.now();
  const alone = lanes.length === 1 && lanes[0].length === 1;
  const results = (await Promise.all(lanes.map((steps) => runLane(steps, alone)))).flat();
  if (lanes.length > 1) console.log(`✓ ${lanes.length} luồng song song xong sau ${secs(t)}`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) {
    // What each failed step said, again: CI shows only the tail of the output.
    for (const r of failed.filter((f) => f.digest.length)) console.error(`\n── ${r.title}: ──\n${r.digest.join('\n')}`);
    console.error(`\n✗ Thất bại: ${failed.map((r) => r.title).join(', ')}`);
    process.exit(failed[0].code ?? 1);
  }
}
console.log(`\nTất cả kiểm thử đều đạt trong ${secs(started)} (tải ${load()}).`);
