const { createConfig } = require('@tongdai/build');

module.exports = createConfig({
  name: 'mf_survey',
  dir: __dirname,
  exposes: { './manifest': './src/manifest.ts', './app': './src/app.tsx' },
});
