module.exports = require('../jest.preset.js')({ testEnvironment: 'jsdom', setupFiles: ['<rootDir>/../jest.setup-dom.js'] });
