// The one shared-dependency list (STYLE.md): every app shares these as strict singletons,
// with versions read from the pnpm catalog so host and remotes can never disagree.
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

const workspaceVersion = (dir) => require(path.join(root, dir, 'package.json')).version;

const fromCatalog = (name, pkg = name) => ({ singleton: true, strictVersion: true, requiredVersion: catalog[pkg], version: catalog[pkg] });
const workspace = (dir) => ({ singleton: true, strictVersion: true, requiredVersion: workspaceVersion(dir), version: workspaceVersion(dir) });

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
  '@tongdai/contracts': workspace('shared/contracts'),
  '@tongdai/platform': workspace('shared/platform'),
  '@tongdai/platform/react': workspace('shared/platform'),
  '@tongdai/ui': workspace('shared/ui'),
};

module.exports = { sharedDeps, catalog };
