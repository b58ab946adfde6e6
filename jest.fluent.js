// Fluent UI in Jest, loaded as the tests use it (issue 31). Every jsdom test file imports
// @fluentui/react-components and, through it, @fluentui/react-icons, and both index modules load
// everything: 1,900 modules and 26,700 icons, compiled again in each test file's module registry —
// about 2 of the 3.7 CPU-s a remote's test file took (a V8 profile of mf-pbx's Jest: 12 of 52 s
// compiling module wrappers, 2.7 s the icons' own code, 2.5 s React elements made at their load).
// Two stand-ins (jest.fluent-components.js, jest.fluent-icons.js) hand out the same exports, each
// loaded from its own package the first time a test asks for it: a component from the package the
// index takes it from (the same module the index would give), an icon from its own file in the
// icons' per-icon modules (lib-cjs/atoms/svg, the same code as the index's chunks). Their map of
// which export lives where is read once from the installed packages and kept in
// node_modules/.cache/tongdai-jest/fluent.json; shared/ui/src/fluent-stand-ins.test.ts checks it
// against the real index modules. The browser builds (webpack) are untouched.
const fs = require('node:fs');
const path = require('node:path');

const UI = path.join(__dirname, 'shared', 'ui');
const CACHE = path.join(__dirname, 'node_modules', '.cache', 'tongdai-jest', 'fluent.json');
/** Utilities the icons' index exports beside the icons (small: loaded with the stand-in). */
const ICON_UTILS = ['utils/wrapIcon.cjs', 'utils/bundleIcon.cjs', 'utils/createFluentIcon.cjs', 'utils/useIconState.cjs', 'utils/constants.cjs', 'contexts/index.cjs'];

/** Where each export of the two index modules lives; read from the installed packages once. */
function fluentMap() {
  const iconsRoot = path.dirname(require.resolve('@fluentui/react-icons/package.json', { paths: [UI] }));
  const componentsIndex = require.resolve('@fluentui/react-components', { paths: [UI] });
  const key = `2|${iconsRoot}|${componentsIndex}`;
  try {
    const cached = JSON.parse(fs.readFileSync(CACHE, 'utf8'));
    if (cached.key === key) return cached;
  } catch { /* none yet */ }
  // Each per-icon module assigns its exports one line each: `exports.AddFilled = (createFluentIcon(…`.
  const svg = path.join(iconsRoot, 'lib-cjs', 'atoms', 'svg');
  const icons = {};
  for (const f of fs.readdirSync(svg)) {
    if (!f.endsWith('.cjs')) continue;
    for (const m of fs.readFileSync(path.join(svg, f), 'utf8').matchAll(/^exports\.([\w$]+) = (?!void 0)/gm)) icons[m[1]] = f;
  }
  // The components' index: `const _reactbutton = require("@fluentui/react-button");` and, per
  // export, `get Button () { return _reactbutton.Button; }` (a comment may sit after `get`).
  const src = fs.readFileSync(componentsIndex, 'utf8');
  const from = {};
  for (const m of src.matchAll(/^const (_\w+) = require\("([^"]+)"\);$/gm)) from[m[1]] = require.resolve(m[2], { paths: [path.dirname(componentsIndex)] });
  const components = {};
  for (const m of src.matchAll(/\bget\s+(?:\/\/[^\n]*\n\s*)*([\w$]+)\s*\(\)\s*\{\s*return\s+(_\w+)\.([\w$]+);/g)) {
    if (!from[m[2]]) throw new Error(`jest.fluent.js: ${m[1]} comes from ${m[2]}, which ${componentsIndex} does not require`);
    components[m[1]] = [from[m[2]], m[3]];
  }
  const map = { key, iconsRoot, iconUtils: ICON_UTILS.map((p) => path.join(iconsRoot, 'lib-cjs', p)), icons, componentsIndex, components };
  fs.mkdirSync(path.dirname(CACHE), { recursive: true });
  fs.writeFileSync(`${CACHE}.${process.pid}`, JSON.stringify(map));
  fs.renameSync(`${CACHE}.${process.pid}`, CACHE); // whole or not at all: Jest's workers read it
  return map;
}

/** The moduleNameMapper entries of the stand-ins (the map made first). */
function fluentStandIns() {
  fluentMap();
  return {
    '^@fluentui/react-components$': path.join(__dirname, 'jest.fluent-components.js'),
    '^@fluentui/react-icons$': path.join(__dirname, 'jest.fluent-icons.js'),
  };
}

module.exports = { fluentStandIns, FLUENT_MAP: CACHE };
