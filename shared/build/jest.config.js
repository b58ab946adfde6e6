module.exports = require('../../jest.preset.js')({ testEnvironment: 'node', testMatch: ['<rootDir>/*.test.js'] });
