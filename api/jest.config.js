// Integration tests get a throwaway PostgreSQL cluster from test/pg-cluster.ts.
// `pnpm test` runs Jest with --experimental-vm-modules: PGlite loads its WebAssembly through a
// dynamic import(), which Jest's vm sandbox only allows with that flag.
module.exports = require('../jest.preset.js')({
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30_000,
  // Two workers even on a 2-core machine (Jest's default there is one): the suites mostly wait on
  // PostgreSQL, Kamailio and sipp, so the run takes about half as long (437 s → 221 s measured) and
  // calls.integration, the longest, sets the pace. Every suite takes its own database and free ports.
  maxWorkers: 2,
  // Fastify's newer dependencies ship ESM only; Jest's CommonJS runtime needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(cookie|content-disposition)[@/])'],
});
