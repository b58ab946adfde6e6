const { createConfig } = require('@tongdai/build');
const { withFluentCharts } = require('@tongdai/build/fluent-charts');

// The voice-OTP list's answered-rate chart (@fluentui/react-charts, lazily loaded) on the shared Fluent (ADR 0024).
module.exports = withFluentCharts(createConfig({
  name: 'mf_pbx',
  dir: __dirname,
  exposes: { './manifest': './src/manifest.ts', './app': './src/app.tsx' },
}));
