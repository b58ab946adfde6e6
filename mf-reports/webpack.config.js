const path = require('node:path');
const { createConfig } = require('@tongdai/build');

const base = createConfig({
  name: 'mf_reports',
  dir: __dirname,
  exposes: { './manifest': './src/manifest.ts', './app': './src/app.tsx' },
});

// @fluentui/react-charts imports Fluent's inner packages directly; sent to the shared
// @fluentui/react-components instead, so the charts use the host's Fluent (one theme, one
// styles renderer, one portal context) and this remote bundles no Fluent of its own (ADR 0024).
const FLUENT_INNER = [
  '@fluentui/react-shared-contexts', '@fluentui/react-utilities', '@fluentui/react-theme', '@fluentui/react-tabster',
  '@fluentui/react-button', '@fluentui/react-popover', '@fluentui/react-tooltip', '@fluentui/react-overflow',
  '@fluentui/react-menu', '@fluentui/tokens', '@griffel/react',
];
const shim = path.join(__dirname, 'src/summaries/fluent-shared.ts');

module.exports = (env, argv) => {
  const config = base(env, argv);
  config.resolve.alias = { ...config.resolve.alias, ...Object.fromEntries(FLUENT_INNER.map((p) => [`${p}$`, shim])) };
  return config;
};
