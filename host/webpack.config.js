const path = require('node:path');
const { createConfig } = require('@tongdai/build');
const { withFluentCharts } = require('@tongdai/build/fluent-charts');

const base = createConfig({ name: 'host', dir: __dirname, host: true, title: 'Tongdai — Tổng đài' });

// The dashboard's chart (lazy chunk) on the shared Fluent, as mf-reports' summaries (ADR 0024).
module.exports = withFluentCharts((env, argv) => {
  const config = base(env, argv);
  // The runtime config ships beside the build; `npm start` rewrites it with the real addresses.
  config.plugins.push({
    apply(compiler) {
      compiler.hooks.thisCompilation.tap('CopyConfig', (compilation) => {
        compilation.hooks.processAssets.tap({ name: 'CopyConfig', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
          const src = require('node:fs').readFileSync(path.join(__dirname, 'public/config.json'));
          compilation.emitAsset('config.json', new compiler.webpack.sources.RawSource(src));
        });
      });
    },
  });
  return config;
});
