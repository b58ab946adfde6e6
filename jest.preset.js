// One Jest preset for every package: @swc/jest transforms TS/TSX, tests sit beside the code.
const path = require('node:path');
const { fluentStandIns } = require('./jest.fluent.js');
module.exports = (overrides = {}) => ({
  testEnvironment: 'node',
  // The packages' Jest runs at nice 10 beside the e2e and call suites (scripts/test.mjs): a screen test
  // that renders Fluent in jsdom took over Jest's 5 s there (RecordingStorageAlarm, CI of stop 48).
  // These tests judge no time; a hang still fails, after 30 s.
  testTimeout: 30_000,
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: {
    '^@tongdai/contracts$': path.join(__dirname, 'shared/contracts/src/index.ts'),
    '^@tongdai/platform$': path.join(__dirname, 'shared/platform/src/index.ts'),
    '^@tongdai/ui$': path.join(__dirname, 'shared/ui/src/index.ts'),
    '^@tongdai/testkit/(.*)$': path.join(__dirname, 'shared/testkit/src/$1'),
    '\\.(css)$': path.join(__dirname, 'jest.style-stub.js'),
    // Fluent UI's index modules, loaded a piece at a time (jest.fluent.js).
    ...fluentStandIns(),
  },
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
  // ESM-only packages the code under test imports are compiled too.
  transformIgnorePatterns: ['/node_modules/(?!\\.pnpm/ky@|ky/)'],
  ...overrides,
});
