// The one shared-dependency list (STYLE.md): every app shares these as singletons (one React, one
// Fluent, one QueryClient on a page), the host providing them and the remotes taking them (ADR 0053).
// Versions: the libraries' from the pnpm catalog, asked for as ranges (a patch or minor of the host's
// copy serves a remote built before it; a new major refuses it); the workspace packages' (@tongdai/*)
// as the platform contract (shared/platform's package.json `tongdai.platformContract`): what a remote
// may rely on of the host, semver, a breaking change is a new major.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const catalog = {};
let inCatalog = false;
for (const line of fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n')) {
  if (/^catalog:\s*$/.test(line)) { inCatalog = true; continue; }
  if (inCatalog && /^\S/.test(line)) inCatalog = false;
  const m = inCatalog && line.match(/^\s+"?([^":]+)"?:\s*(\S+)/);
  if (m) catalog[m[1]] = m[2];
}

/** The platform contract's version (semver) this checkout builds: the host provides it, a remote asks for `^` it. */
const PLATFORM_CONTRACT = require(path.join(root, 'shared/platform/package.json')).tongdai.platformContract;

/**
 * The range a remote asks of a library: same major, this version or later (`^`). React, React DOM,
 * the router and the query client hold state a second copy would split: strict (a mismatch refuses the
 * remote, which the host shows as an area being updated); the others warn.
 */
const STRICT = new Set(['react', 'react-dom', 'react-router-dom', '@tanstack/react-query', '@fluentui/react-components']);
const fromCatalog = (name, pkg = name) => ({ singleton: true, strictVersion: STRICT.has(pkg), requiredVersion: `^${catalog[pkg]}`, version: catalog[pkg] });
const workspace = () => ({ singleton: true, strictVersion: true, requiredVersion: `^${PLATFORM_CONTRACT}`, version: PLATFORM_CONTRACT });

const sharedDeps = {
  react: fromCatalog('react'),
  'react/jsx-runtime': fromCatalog('react/jsx-runtime', 'react'),
  'react-dom': fromCatalog('react-dom'),
  'react-dom/client': fromCatalog('react-dom/client', 'react-dom'),
  'react-router-dom': fromCatalog('react-router-dom'),
  '@tanstack/react-query': fromCatalog('@tanstack/react-query'),
  '@fluentui/react-components': fromCatalog('@fluentui/react-components'),
  rxjs: fromCatalog('rxjs'),
  i18next: fromCatalog('i18next'),
  'react-i18next': fromCatalog('react-i18next'),
  '@tongdai/contracts': workspace(),
  '@tongdai/platform': workspace(),
  '@tongdai/platform/react': workspace(),
  '@tongdai/ui': workspace(),
};

module.exports = { sharedDeps, catalog, PLATFORM_CONTRACT };
