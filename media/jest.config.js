module.exports = require('../jest.preset.js')({ testTimeout: 15_000 });
