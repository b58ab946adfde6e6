const { createConfig } = require('@tongdai/build');
const { withFluentCharts } = require('@tongdai/build/fluent-charts');

// The summaries' charts (@fluentui/react-charts) on the shared Fluent (ADR 0024).
module.exports = withFluentCharts(createConfig({
  name: 'mf_reports',
  dir: __dirname,
  exposes: { './manifest': './src/manifest.ts', './app': './src/app.tsx' },
}));
