// npm run bench: see e2e/bench/run.ts. Sections by name run alone (BENCH_ONLY), e.g. `npm run bench --
// media` or `npm run bench -- calls sip`; the sections: plan dialer ui list dialer-calls calls wall carrier sip
// media otp import soak postgres reports ('dialer' runs dialer-calls too; 'soak', 30 minutes of mixed load, runs
// only by name or with BENCH_SOAK_S set). `npm run bench -- smoke` (npm test runs it): every section at a tiny size, to
// prove each still measures something real; no figure is judged against its goal there (the soak still fails on an error).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, staleFrontends } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';
import { ensureSystemPackages } from './lib/system.mjs';

/**
 * The smoke's sizes (seconds per section on 2 cores). Ports of their own, so a bench and a test run
 * of one checkout never meet; BENCH_WEB_PORT / BENCH_API_PORT (and every size here) still win.
 */
const SMOKE_ENV = {
  BENCH_WEB_PORT: '3370',
  BENCH_API_PORT: '4370',
  PLAN_RATE: '200',
  PLAN_SECONDS: '1',
  BENCH_CLICKS: '1',
  BENCH_RATE: '20',
  BENCH_SECONDS: '2',
  BENCH_CPS: '5',
  BENCH_CALL_SECONDS: '1',
  // 40, as the full bench: a 40-agent hunt group's plan (~11.6 KB) is what overflowed Kamailio's 8 KB
  // parameter buffer and refused every call, which 3 agents never showed.
  BENCH_AGENTS: '40',
  BENCH_WALLS: '2',
  BENCH_LIVE_CALLS: '3',
  BENCH_WALL_HOLD_S: '2',
  BENCH_SCREEN_WALLS: '1',
  BENCH_CARRIER_CPS: '5',
  BENCH_CARRIER_WARM_UP: '2,1',
  BENCH_SIP_ROUNDS: '2',
  BENCH_MEDIA_CALLS: '3',
  BENCH_MEDIA_TALK_MS: '2000',
  BENCH_OTP_RATE: '3',
  BENCH_OTP_SECONDS: '1',
  // One level (3 calls, ~15 s): the burst differs only in how its starts are sent.
  BENCH_OTP_BURST: '0',
  BENCH_IMPORT_ROWS: '200',
  BENCH_CDR_ROWS: '5000',
  BENCH_CDR_PGLITE_ROWS: '2000',
  BENCH_REPORT_RUNS: '2',
  // One seed, one hour of the dialer's shift per workload (about 4 s in all).
  BENCH_DIALER_SEEDS: '1',
  BENCH_DIALER_HOURS: '1',
  // The dialer's real calls: 2 agents for 30 s meeting quick people (60 % answer after 1–3 s, talk ~4 s, 5 s unanswered).
  BENCH_DIALER_AGENTS: '2',
  BENCH_DIALER_CALL_S: '30',
  BENCH_DIALER_ANSWER: '0.6',
  BENCH_DIALER_ANSWER_DELAY_S: '1,3',
  BENCH_DIALER_TALK_S: '4',
  BENCH_DIALER_RING_S: '5',
  // The soak (issue 42) for seconds: every load at a trickle (1 call a second each way talking 2 s, 5 list requests
  // and 1 report a second, a campaign of 1 agent); memory growth is printed, not judged (BENCH_SOAK_JUDGE_S).
  BENCH_SOAK_S: '12',
  BENCH_SOAK_CPS: '1',
  BENCH_SOAK_TALK_S: '2',
  BENCH_SOAK_API_RATE: '5',
  BENCH_SOAK_REPORT_RATE: '1',
  BENCH_SOAK_AGENTS: '1',
};

// What the tests need (Kamailio, rtpengine, sipp, Chromium, PostgreSQL): a section without them measures nothing.
ensureSystemPackages('test');
ensureInstalled();
const args = process.argv.slice(2);
const smoke = args.includes('smoke');
const sections = args.filter((a) => a !== 'smoke');
const only = sections.length ? { BENCH_ONLY: sections.join(',') } : {};
const sizes = smoke ? SMOKE_ENV : {};
// The full bench measures the production build. Screens alone (ui, wall, the smoke) take any fresh
// build, as they find things by label: the smoke takes the e2e one npm test has just made.
const screens = !sections.length || sections.some((s) => s === 'ui' || s === 'wall');
if (!sections.length && !smoke) ensureBuilt();
else if (screens && staleFrontends('test').length && staleFrontends('production').length) ensureBuilt({ test: true });
// The wall bench opens WebSockets: Node 20 has them behind a flag (later versions by default).
const env = { ...sizes, ...process.env, ...only, ...(typeof WebSocket === 'undefined' ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-websocket`.trim() } : {}) };
const r = spawnSync(join(ROOT, 'e2e', 'node_modules', '.bin', 'tsx'), [join(ROOT, 'e2e', 'bench', 'run.ts')], { stdio: 'inherit', cwd: join(ROOT, 'e2e'), env });
process.exit(r.status ?? 1);
