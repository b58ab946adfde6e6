const { createConfig } = require('@tongdai/build');

module.exports = createConfig({
  name: 'mf_crm',
  dir: __dirname,
  exposes: { './manifest': './src/manifest.ts', './app': './src/app.tsx' },
});
