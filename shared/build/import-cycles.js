// Import circles inside one source tree: static imports, re-exports and lazy import() alike
// (a remote's routes file importing its screens lazily, and a screen importing the routes back,
// is a circle too). Relative imports only: packages cannot import back into a remote.
const fs = require('node:fs');
const path = require('node:path');

const EXT = ['.ts', '.tsx', '.js', '.jsx'];
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s*['"](\.[^'"]+)['"]/gm;

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return EXT.includes(path.extname(e.name)) && !/\.test\.[jt]sx?$/.test(e.name) ? [p] : [];
  });
}

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, ...EXT.map((x) => base + x), ...EXT.map((x) => path.join(base, 'index' + x))]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

/** Every circle of imports under `dir`, each as the list of files (relative to `dir`) it runs through. */
function importCycles(root) {
  const dir = path.resolve(root);
  const graph = new Map();
  for (const f of files(dir)) {
    const src = fs.readFileSync(f, 'utf8');
    const deps = [...src.matchAll(IMPORT)].map((m) => resolve(f, m[1] ?? m[2] ?? m[3])).filter(Boolean);
    graph.set(f, [...new Set(deps)]);
  }
  const cycles = [];
  const state = new Map(); // 1 = on the current path, 2 = done
  const stack = [];
  const visit = (f) => {
    state.set(f, 1);
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 1) cycles.push(stack.slice(stack.indexOf(d)).map((x) => path.relative(dir, x)));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

module.exports = { importCycles };
