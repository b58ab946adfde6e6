const path = require('node:path');

/**
 * @fluentui/react-charts imports Fluent's inner packages directly; sent to the shared
 * @fluentui/react-components instead (shared/ui/src/charts/fluent-shared.ts), so the charts use the
 * host's Fluent (one theme, one styles renderer, one portal context) and a build that charts
 * bundles no Fluent of its own (ADR 0024). Used by every build that loads the charts (mf-reports'
 * summaries, the host's dashboard), always behind a lazy import.
 */
const FLUENT_INNER = [
  '@fluentui/react-shared-contexts', '@fluentui/react-utilities', '@fluentui/react-theme', '@fluentui/react-tabster',
  '@fluentui/react-button', '@fluentui/react-popover', '@fluentui/react-tooltip', '@fluentui/react-overflow',
  '@fluentui/react-menu', '@fluentui/tokens', '@griffel/react',
];
const shim = path.join(__dirname, '../ui/src/charts/fluent-shared.ts');

/**
 * Wraps a createConfig result: the inner Fluent packages imported BY THE CHARTS are aliased to the
 * shim. Only theirs: a build that bundles @fluentui/react-components itself (the host) must keep
 * its inner imports, or react-components would import itself through the shim (a blank shell).
 */
function withFluentCharts(configFn) {
  return (env, argv) => {
    const config = configFn(env, argv);
    config.module.rules.push({
      issuer: /[\\/]@fluentui[\\/](react-charts|chart-utilities)[\\/]/,
      resolve: { alias: Object.fromEntries(FLUENT_INNER.map((p) => [`${p}$`, shim])) },
    });
    return config;
  };
}

module.exports = { withFluentCharts, FLUENT_INNER };
