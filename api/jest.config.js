// Integration tests get a throwaway PostgreSQL cluster from test/pg-cluster.ts.
// `pnpm test` runs Jest with --experimental-vm-modules: PGlite loads its WebAssembly through a
// dynamic import(), which Jest's vm sandbox only allows with that flag.
//
// TONGDAI_JEST_PART (npm test sets it; unset runs everything, as a developer expects): `main` leaves
// out the suites that run alone — the fault suites (whole API processes and stacks, call bursts) and
// calls.integration, whose recorded-media timelines (a pause window, a voicemail's tone) failed in
// three CI runs of this session when other API suites shared the machine, while it passed 33 of 33
// alone, beside tsc and the other packages' Jest, and under four busy loops; `serial` runs only those,
// one at a time, in a step after the lanes (scripts/test.mjs).
// With them, the two suites of the main part that judge time on the wall clock (a frozen Redis
// noticed within 3 s; a campaign call within its 30 s): npm test runs the main part at a lower
// priority (scripts/test.mjs), where they missed their times at load 15 (ci4 of the twenty-third session).
const SERIAL_SUITES = [
  '<rootDir>/src/**/*faults*.integration.test.ts',
  '<rootDir>/src/**/ghosts.integration.test.ts',
  '<rootDir>/src/modules/kamailio/calls.integration.test.ts',
  '<rootDir>/src/modules/realtime/redis-away.integration.test.ts',
  '<rootDir>/src/modules/campaigns/call-link.integration.test.ts',
  '<rootDir>/src/modules/campaigns/dialer-calls.integration.test.ts',
  '<rootDir>/src/modules/campaigns/voice-calls.integration.test.ts',
  '<rootDir>/src/modules/voice-otp/otp-calls.integration.test.ts',
  '<rootDir>/src/modules/crm-calls/click-calls.integration.test.ts',
];
// The serial suites in two halves of about the same length (ci1 of the forty-first session: 858 s in all,
// calls.integration 293 s of it), for npm test to run side by side, each half one suite at a time:
// `serial-a` the longest suite and the two fault suites that restart whole stacks, `serial-b` the rest.
// Suites that failed together in one lane's turn (faults-outages beside voice-calls, ci3 of the
// thirty-seventh session) are in the same half, one after the other.
const SERIAL_A = [
  '<rootDir>/src/modules/kamailio/calls.integration.test.ts',
  '<rootDir>/src/modules/sip/faults-api-restart.integration.test.ts',
  '<rootDir>/src/modules/kamailio/faults.integration.test.ts',
];
const part = process.env.TONGDAI_JEST_PART;
const SERIAL_PATH = '/src/.*(faults[^/]*|ghosts|kamailio/calls|realtime/redis-away|campaigns/call-link|campaigns/dialer-calls|campaigns/voice-calls|voice-otp/otp-calls|crm-calls/click-calls)\\.integration\\.test\\.ts$';
const SERIAL_A_PATH = '/src/modules/(kamailio/calls|sip/faults-api-restart|kamailio/faults)\\.integration\\.test\\.ts$';
const serial = part === 'serial' || part === 'serial-a' || part === 'serial-b';
module.exports = require('../jest.preset.js')({
  ...(part === 'serial' && { testMatch: SERIAL_SUITES }),
  ...(part === 'serial-a' && { testMatch: SERIAL_A }),
  ...(part === 'serial-b' && { testMatch: SERIAL_SUITES, testPathIgnorePatterns: ['/node_modules/', SERIAL_A_PATH] }),
  ...(part === 'main' && { testPathIgnorePatterns: ['/node_modules/', SERIAL_PATH] }),
  testEnvironment: '<rootDir>/test/single-context-environment.js',
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30_000,
  // Two workers even on a 2-core machine (Jest's default there is one): the suites mostly wait on
  // PostgreSQL, Kamailio and sipp, so the run takes about half as long (437 s → 221 s measured) and
  // calls.integration, the longest, sets the pace. Every suite takes its own database and free ports.
  // The serial suites one at a time: whole stacks, timed bursts, recorded-media timelines. Two at a time
  // (tried in the thirty-seventh session) took that lane from 914 s to 530 s, but the run no less (the
  // run is CPU-bound: 1879 CPU-s in 985 s), and faults-outages' calls failed beside voice-calls (ci3).
  maxWorkers: serial ? 1 : 2,
  // Under npm test, a run whose suites are over ends even if a failed test left a socket open (ci2 of
  // 2026-11-26: a failing calls.integration test never closed its RTP ear, and the serial lane waited
  // on it for good after printing its result). Jest still names the leak; a developer's run keeps
  // waiting so that --detectOpenHandles can find it.
  forceExit: part !== undefined,
  // Fastify's newer dependencies ship ESM only; Jest's CommonJS runtime needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(cookie|content-disposition)[@/])'],
});
