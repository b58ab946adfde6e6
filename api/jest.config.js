// Integration tests get a throwaway PostgreSQL cluster from test/pg-cluster.ts.
// `pnpm test` runs Jest with --experimental-vm-modules: PGlite loads its WebAssembly through a
// dynamic import(), which Jest's vm sandbox only allows with that flag.
module.exports = require('../jest.preset.js')({
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30_000,
  // Fastify's newer dependencies ship ESM only; Jest's CommonJS runtime needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(cookie|content-disposition)[@/])'],
});
