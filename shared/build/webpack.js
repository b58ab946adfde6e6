// createConfig builds the webpack config of the host or of one remote.
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { sharedDeps } = require('./shared-deps');

/** The e2e build keeps the data-testid attributes (strip-test-ids.js says why); production has none. */
const testBuild = () => process.env.TONGDAI_TEST_BUILD === '1';

const swcOptions = (dev) => ({
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    transform: { react: { runtime: 'automatic', development: dev } },
    target: 'es2020',
  },
});

/**
 * @param {{ name: string, dir: string, exposes?: Record<string,string>, host?: boolean, title?: string }} opts
 */
function createConfig(opts) {
  return (_env, argv) => {
    const dev = argv.mode === 'development';
    return {
      mode: dev ? 'development' : 'production',
      context: opts.dir,
      entry: { main: './src/index.ts' },
      // No eval-* source maps: the UI's CSP (docs/adr/0020) allows no 'unsafe-eval', in development either.
      devtool: dev ? 'cheap-module-source-map' : false,
      output: {
        path: path.join(opts.dir, 'dist'),
        // Remote entries stay unhashed (served no-cache); chunks carry content hashes.
        filename: '[name].js',
        chunkFilename: '[name].[contenthash:8].js',
        publicPath: opts.host ? '/' : 'auto',
        uniqueName: opts.name,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js', '.mjs'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            // Loaders run last to first: test ids are stripped from the source, then swc compiles it.
            use: [{ loader: require.resolve('swc-loader'), options: swcOptions(dev) }, ...(dev || testBuild() ? [] : [require.resolve('./strip-test-ids')])],
          },
          { test: /\.m?js$/, resolve: { fullySpecified: false } },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name: opts.name,
          filename: 'remoteEntry.js',
          exposes: opts.exposes,
          remotes: {},
          // Remotes take every shared module from the host (which always runs first): no fallback
          // copies, so remotes stay small and build fast.
          shared: opts.host ? sharedDeps : Object.fromEntries(Object.entries(sharedDeps).map(([k, v]) => [k, { ...v, import: false }])),
          // loaded-first: a remote is initialised only when used, so one remote being down
          // cannot break the shared-module init of the host and the others.
          shareStrategy: 'loaded-first',
          dts: false,
          manifest: true,
        }),
        opts.host &&
          new HtmlWebpackPlugin({ template: path.join(opts.dir, 'src/index.html'), title: opts.title, scriptLoading: 'defer' }),
      ].filter(Boolean),
      optimization: {
        minimize: !dev,
        minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false, terserOptions: { compress: { passes: 2 } } })],
      },
      performance: { hints: false },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { createConfig };
