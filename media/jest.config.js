// mpg123-decoder (and the encoder the tests use) ship ES modules only: compile them too. The
// encoder's "require" entry is a browser IIFE that exports nothing: map it to its ES module.
const base = require('../jest.preset.js')({ testTimeout: 15_000, transformIgnorePatterns: [] });
module.exports = {
  ...base,
  moduleNameMapper: { ...base.moduleNameMapper, '^@breezystack/lamejs$': '<rootDir>/node_modules/@breezystack/lamejs/dist/lamejs.js' },
};
