// createConfig builds the webpack config of the host or of one remote.
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { sharedDeps, PLATFORM_CONTRACT } = require('./shared-deps');

/**
 * What a build says of itself (ADR 0053), as `release.json` beside its mf-manifest.json and inlined
 * in its code: its release (RELEASE_VERSION, else its package's version), and for a remote the range of
 * the platform contract it was built against (`^` the contract; TONGDAI_PLATFORM_RANGE overrides it,
 * to make a release the host must refuse in the tests), for the host the contract it provides.
 */
function releaseInfo(opts) {
  const pkg = require(path.join(opts.dir, 'package.json'));
  const shared = Object.fromEntries(Object.entries(sharedDeps).map(([k, v]) => [k, v.version]));
  const base = { remote: opts.name, package: path.basename(opts.dir), version: process.env.RELEASE_VERSION || pkg.version };
  return opts.host
    ? { ...base, platformContract: PLATFORM_CONTRACT, shared }
    : { ...base, platform: process.env.TONGDAI_PLATFORM_RANGE || `^${PLATFORM_CONTRACT}`, shared };
}

/** Emits release.json (built_at added) into the build's output. */
const emitRelease = (info) => ({
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('TongdaiRelease', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'TongdaiRelease', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset('release.json', new compiler.webpack.sources.RawSource(`${JSON.stringify({ ...info, built_at: new Date().toISOString() }, null, 2)}\n`));
      });
    });
  },
});

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
    const release = releaseInfo(opts);
    return {
      mode: dev ? 'development' : 'production',
      context: opts.dir,
      entry: { main: './src/index.ts' },
      // No eval-* source maps: the UI's CSP (docs/adr/0020) allows no 'unsafe-eval', in development either.
      devtool: dev ? 'cheap-module-source-map' : false,
      output: {
        // TONGDAI_BUILD_OUT: a release's build goes to a folder of its own (scripts/release.mjs), not dist/.
        path: process.env.TONGDAI_BUILD_OUT ? path.resolve(process.env.TONGDAI_BUILD_OUT) : path.join(opts.dir, 'dist'),
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
        emitRelease(release),
        // The release and the contract, readable by the code: the host checks each remote's against its own.
        {
          apply: (compiler) =>
            new compiler.webpack.DefinePlugin({
              'process.env.TONGDAI_RELEASE': JSON.stringify(release.version),
              'process.env.TONGDAI_PLATFORM_CONTRACT': JSON.stringify(PLATFORM_CONTRACT),
            }).apply(compiler),
        },
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
