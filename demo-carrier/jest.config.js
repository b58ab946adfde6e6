// The simulator's own tests: real UDP sockets on loopback, sipp where it is installed.
const path = require('node:path');
const base = require('../jest.preset.js')({ testTimeout: 20_000 });
module.exports = {
  ...base,
  moduleNameMapper: { ...base.moduleNameMapper, '^@tongdai/media/(.*)$': path.join(__dirname, '../media/src/$1') },
};
