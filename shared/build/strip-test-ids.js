// Webpack loader: production builds carry no test-only attributes. It removes every JSX
// `data-testid="…"` / `data-testid={…}` attribute from a source file before swc compiles it.
// The e2e suite still finds elements by these ids, so the test build (TONGDAI_TEST_BUILD=1, set
// by npm test and e2e's global setup) and development builds keep them; npm start, npm run build,
// the bench and the container images ship without them.

/** Index just past the attribute value starting at `i` (a quoted string or a balanced {…}). */
function valueEnd(src, i) {
  const open = src[i];
  if (open === '"' || open === "'") return src.indexOf(open, i + 1) + 1;
  if (open !== '{') return -1;
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (c === '"' || c === "'") j = src.indexOf(c, j + 1);
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
  }
  return -1;
}

function stripTestIds(src) {
  const attr = /\s+data-testid=/g;
  let out = '';
  let from = 0;
  for (let m; (m = attr.exec(src)); ) {
    const end = valueEnd(src, m.index + m[0].length);
    if (end <= 0) continue;
    out += src.slice(from, m.index);
    from = end;
    attr.lastIndex = end;
  }
  return out + src.slice(from);
}

module.exports = function stripTestIdsLoader(source) {
  return stripTestIds(source);
};
module.exports.stripTestIds = stripTestIds;
