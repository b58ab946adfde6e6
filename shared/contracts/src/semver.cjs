'use strict';
// The one semver of the platform contract (issue 36, ADR 0053): the host's check before it loads a remote
// (host/src/shell/release.ts, in the browser) and `npm run promote`'s (scripts/lib/registry.mjs, in Node)
// judge a range the same way. CommonJS so both can load it as it is: the host's Jest and webpack, and the
// scripts' plain Node (which cannot load TypeScript).
//
// A small semver: versions MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]; ranges `^x.y.z`, `~x.y.z`, exact
// (`x.y.z`, `=x.y.z`, `vx.y.z`), `*` / `x` / '' (any), and partials (`1`, `1.2`, `1.x`, `^1.2`).
// Prereleases follow npm's rule: `1.1.0-rc.1` satisfies a range only if one of the range's bounds
// is a prerelease of the same 1.1.0 (`^1.1.0-rc.0`): a prerelease contract is opted into, not
// picked up by `^1.0.0`.

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** { major, minor, patch, pre: (string|number)[] } or null when `v` is not a version. */
function parseVersion(v) {
  const m = typeof v === 'string' ? VERSION.exec(v.trim()) : null;
  if (!m) return null;
  const pre = m[4] ? m[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre };
}

function cmpParsed(a, b) {
  for (const k of ['major', 'minor', 'patch']) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  // A version without prerelease is greater than any prerelease of it.
  if (!a.pre.length || !b.pre.length) return a.pre.length === b.pre.length ? 0 : a.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    // Numeric identifiers compare as numbers and rank below alphanumeric ones.
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** -1, 0 or 1; throws a TypeError when either is not a version. */
function compareVersions(a, b) {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) throw new TypeError(`not a version: ${pa ? b : a}`);
  return cmpParsed(pa, pb);
}

const PARTIAL = /^(\^|~|=|v)?\s*(?:(\d+|[xX*])(?:\.(\d+|[xX*])(?:\.(\d+|[xX*])(?:-([0-9A-Za-z.-]+))?)?)?)?$/;

/** The range as comparators { lower, upper } (lower inclusive, upper exclusive; null: open), or null when invalid. */
function parseRange(range) {
  if (typeof range !== 'string') return null;
  const r = range.trim();
  if (r === '' || r === '*' || r === 'x' || r === 'X') return { lower: null, upper: null };
  // >=x.y.z: no upper bound (a whole version only).
  if (r.startsWith('>=')) {
    const floor = parseVersion(r.slice(2));
    return floor ? { lower: floor, upper: null } : null;
  }
  const full = parseVersion(r.replace(/^[=^~]/, ''));
  const m = PARTIAL.exec(r);
  if (!m && !full) return null;
  const op = /^[\^~]/.test(r) ? r[0] : '';
  let major;
  let minor;
  let patch;
  let pre = [];
  if (full) {
    ({ major, minor, patch, pre } = full);
  } else {
    if (m[5] !== undefined) return null; // a prerelease needs all three numbers
    const num = (s) => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
    major = num(m[2]);
    minor = major === undefined ? undefined : num(m[3]);
    patch = minor === undefined ? undefined : num(m[4]);
    if (major === undefined) return { lower: null, upper: null };
  }
  const v = (a, b, c, p = []) => ({ major: a, minor: b, patch: c, pre: p });
  const zero = (a, b, c) => v(a, b, c, [0]); // x.y.z-0: below every prerelease of x.y.z
  const lower = v(major, minor ?? 0, patch ?? 0, pre);
  if (op === '' && minor !== undefined && patch !== undefined) return { lower, upper: null, exact: true };
  if (op === '' || (op === '~' && minor === undefined) || (op === '^' && minor === undefined)) {
    // 1 / 1.x / ~1 / ^1: >=1.0.0 <2.0.0-0; 1.2 / 1.2.x: >=1.2.0 <1.3.0-0
    return { lower, upper: minor === undefined ? zero(major + 1, 0, 0) : zero(major, minor + 1, 0) };
  }
  if (op === '~') return { lower, upper: zero(major, minor + 1, 0) };
  // ^: the left-most non-zero number may not change.
  if (major > 0) return { lower, upper: zero(major + 1, 0, 0) };
  if (patch === undefined) return { lower, upper: zero(0, minor + 1, 0) };
  if (minor > 0) return { lower, upper: zero(0, minor + 1, 0) };
  return { lower, upper: zero(0, 0, patch + 1) };
}

/** Whether `range` is a range satisfies() understands. */
function validRange(range) {
  return parseRange(range) !== null;
}

/** Whether `version` is within `range` (false when either is invalid). */
function satisfies(version, range) {
  const v = parseVersion(version);
  const r = parseRange(range);
  if (!v || !r) return false;
  if (r.exact) return cmpParsed(v, r.lower) === 0;
  if (r.lower && cmpParsed(v, r.lower) < 0) return false;
  if (r.upper && cmpParsed(v, r.upper) >= 0) return false;
  if (v.pre.length) {
    // A prerelease only within a range that names a prerelease of the same major.minor.patch.
    const same = (b) => b && b.pre.length && b.major === v.major && b.minor === v.minor && b.patch === v.patch;
    const upperNamed = r.upper && !(r.upper.pre.length === 1 && r.upper.pre[0] === 0) ? r.upper : null;
    if (!same(r.lower) && !same(upperNamed)) return false;
  }
  return true;
}


module.exports = { parseVersion, compareVersions, validRange, satisfies };
