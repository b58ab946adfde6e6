// Releases of one remote and the registry of which release runs (issue 36, docs/adr/0053).
//
// <dir>/<package>/<version>/         a copy of that remote's dist/ (mf-manifest.json, remoteEntry.js,
//                                     hashed chunks, release.json); immutable, never overwritten
// <dir>/registry.json                { schema: 1, updated_at, remotes: { mf_reports: { version, entry, platform } } }
// <dir>/registry.history.jsonl       one line per change { at, remote, from, to, action }
//
// The registry is written atomically (a temporary file renamed over it) and only if it still holds
// what was read before the change (compare-and-swap, under a lock directory): two CI jobs promoting
// at once never lose one another's change silently; the second gets REGISTRY_CHANGED and retries.
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import semver from '../../shared/contracts/src/semver.cjs';

export const REGISTRY_FILE = 'registry.json';
export const HISTORY_FILE = 'registry.history.jsonl';
export const REGISTRY_SCHEMA = 1;

/** An error with a machine-checkable `code` (INCOMPATIBLE_PLATFORM, REGISTRY_CHANGED, …). */
export class RegistryError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'RegistryError';
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------------
// Versions and ranges: the one semver the host's check uses too (shared/contracts/src/semver.cjs).

export const { parseVersion, compareVersions, validRange, satisfies } = semver;

// ---------------------------------------------------------------------------------------------
// Releases

const PACKAGE = /^[a-z0-9][a-z0-9-]*$/;

/** The remote id of a package: mf-reports → mf_reports. */
export const remoteId = (pkg) => pkg.replaceAll('-', '_');

function checkNames(pkg, version) {
  if (typeof pkg !== 'string' || !PACKAGE.test(pkg)) throw new RegistryError('INVALID_PACKAGE', `not a remote package name: ${JSON.stringify(pkg)}`);
  if (!parseVersion(version) || version.startsWith('v')) throw new RegistryError('INVALID_VERSION', `not a release version (x.y.z[-pre]): ${JSON.stringify(version)}`);
}

function readJson(file, code, what) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RegistryError(code, `${what} ${file} is not readable JSON: ${e instanceof Error ? e.message : e}`);
  }
}

/** Checks that a built dist (or a release folder) is a release of `pkg` at `version`; returns its release.json. */
function checkReleaseFolder(folder, pkg, version, missingCode) {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new RegistryError(missingCode, `no release folder ${folder}`);
  for (const f of ['mf-manifest.json', 'release.json']) {
    if (!existsSync(join(folder, f))) throw new RegistryError('INVALID_RELEASE', `${folder} has no ${f}: not a release of a remote build`);
  }
  const release = readJson(join(folder, 'release.json'), 'INVALID_RELEASE', 'release.json');
  const problems = [];
  if (release.package !== pkg) problems.push(`package is ${JSON.stringify(release.package)}, not ${pkg}`);
  if (release.version !== version) problems.push(`version is ${JSON.stringify(release.version)}, not ${version}`);
  if (release.remote !== undefined && release.remote !== remoteId(pkg)) problems.push(`remote is ${JSON.stringify(release.remote)}, not ${remoteId(pkg)}`);
  if (!validRange(release.platform)) problems.push(`platform ${JSON.stringify(release.platform)} is not a version range`);
  if (problems.length) throw new RegistryError('INVALID_RELEASE', `${join(folder, 'release.json')}: ${problems.join('; ')}`);
  return release;
}

/** The release.json of `<dir>/<package>/<version>/`, after checking the folder is a whole release. */
export function readRelease(dir, { package: pkg, version }) {
  checkNames(pkg, version);
  return checkReleaseFolder(join(dir, pkg, version), pkg, version, 'RELEASE_NOT_FOUND');
}

/**
 * Copies a remote's built dist/ to `<out>/<package>/<version>/`. Refuses (RELEASE_EXISTS) when that
 * folder exists: a release is never overwritten. Copied beside it first, then renamed into place.
 * @returns {string} the release folder
 */
export function copyRelease({ from, out, package: pkg, version }) {
  checkNames(pkg, version);
  const dest = join(out, pkg, version);
  if (existsSync(dest)) throw new RegistryError('RELEASE_EXISTS', `${dest} exists: a release is immutable, choose another version (--version)`);
  checkReleaseFolder(from, pkg, version, 'BUILD_NOT_FOUND');
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = join(dirname(dest), `.${version}.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  cpSync(from, tmp, { recursive: true });
  try {
    // rename refuses a non-empty folder; the check above covers the empty one (a race left aside).
    if (existsSync(dest)) throw new RegistryError('RELEASE_EXISTS', `${dest} appeared while copying: left as it was`);
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof RegistryError) throw e;
    throw new RegistryError('RELEASE_EXISTS', `${dest} could not be created: ${e instanceof Error ? e.message : e}`);
  }
  return dest;
}

// ---------------------------------------------------------------------------------------------
// The registry

const emptyRegistry = () => ({ schema: REGISTRY_SCHEMA, updated_at: null, remotes: {} });

function readRaw(dir) {
  try {
    return readFileSync(join(dir, REGISTRY_FILE), 'utf8');
  } catch (e) {
    if (e && e.code === 'ENOENT') return null;
    throw e;
  }
}

function parseRegistry(raw, dir) {
  if (raw === null) return emptyRegistry();
  let reg;
  try {
    reg = JSON.parse(raw);
  } catch (e) {
    throw new RegistryError('INVALID_REGISTRY', `${join(dir, REGISTRY_FILE)} is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  if (!reg || reg.schema !== REGISTRY_SCHEMA || typeof reg.remotes !== 'object' || reg.remotes === null) {
    throw new RegistryError('INVALID_REGISTRY', `${join(dir, REGISTRY_FILE)} is not a schema ${REGISTRY_SCHEMA} registry`);
  }
  return reg;
}

/** The registry of `dir` ({ schema: 1, updated_at: null, remotes: {} } when there is none yet). */
export function readRegistry(dir) {
  return parseRegistry(readRaw(dir), dir);
}

/** The history lines of `dir`, oldest first; only those of `remote` (an id, mf_reports) when given. */
export function history(dir, remote) {
  let text;
  try {
    text = readFileSync(join(dir, HISTORY_FILE), 'utf8');
  } catch (e) {
    if (e && e.code === 'ENOENT') return [];
    throw e;
  }
  const lines = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  return remote ? lines.filter((l) => l.remote === remote) : lines;
}

/** One writer at a time between the compare and the rename (a lock directory, like the build lock). */
function withLock(dir, fn) {
  const lock = join(dir, '.registry.lock');
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (!e || e.code !== 'EEXIST') throw e;
      // A writer holds it for milliseconds; one a minute old died while holding it.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) { rmSync(lock, { recursive: true, force: true }); continue; }
      if (Date.now() > until) throw new RegistryError('REGISTRY_LOCKED', `${lock} is held by another promotion; try again`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try { return fn(); } finally { rmSync(lock, { recursive: true, force: true }); }
}

/**
 * Writes `next` as the registry if the file still holds `expected` (its text when read, null: no
 * file); otherwise REGISTRY_CHANGED and nothing is written. Atomic: a temporary file renamed over it.
 */
export function writeRegistry(dir, next, { expected }) {
  mkdirSync(dir, { recursive: true });
  withLock(dir, () => {
    const tmp = join(dir, `.${REGISTRY_FILE}.${process.pid}.${Date.now()}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
    try {
      if (readRaw(dir) !== expected) {
        throw new RegistryError('REGISTRY_CHANGED', `${join(dir, REGISTRY_FILE)} changed since it was read (another promotion?): nothing written, read it again and retry`);
      }
      renameSync(tmp, join(dir, REGISTRY_FILE));
    } finally {
      rmSync(tmp, { force: true });
    }
  });
}

/** The path on the host's origin of a release's manifest. */
export const entryOf = (pkg, version, prefix = '/releases') => `${prefix}/${pkg}/${version}/mf-manifest.json`;

/**
 * The shared packages a release was built with that the host does not serve in range: each asks for
 * `^` the version it was built with (as its mf-manifest.json's requiredVersion does), so a host with an
 * older minor, or another major, would have the runtime refuse or warn. Packages only one side names
 * are not judged. Answers "react 19.4.0 (host 19.3.1)" lines; empty when all agree.
 */
export function sharedMismatches(releaseShared = {}, hostShared = {}) {
  return Object.entries(releaseShared)
    .filter(([name, built]) => typeof hostShared[name] === 'string' && !satisfies(hostShared[name], `^${built}`))
    .map(([name, built]) => `${name} ${built} (host ${hostShared[name]})`);
}

function change(dir, { package: pkg, version, hostContract, hostShared, force = false, canary, action, hooks = {} }) {
  if (canary !== undefined && !(Number.isInteger(canary) && canary >= 1 && canary <= 99)) throw new RegistryError('INVALID_CANARY', `a canary is a share of 1 to 99 %, got ${JSON.stringify(canary)}`);
  checkNames(pkg, version);
  if (!parseVersion(hostContract)) throw new RegistryError('INVALID_HOST_CONTRACT', `the host's platform contract must be a version (x.y.z), got ${JSON.stringify(hostContract)}`);
  const raw = readRaw(dir);
  const before = parseRegistry(raw, dir);
  const release = readRelease(dir, { package: pkg, version });
  const id = release.remote ?? remoteId(pkg);
  if (!satisfies(hostContract, release.platform) && !force) {
    throw new RegistryError('INCOMPATIBLE_PLATFORM', `${pkg} ${version} needs platform ${release.platform}; the host provides ${hostContract}: not promoted (--force to override)`);
  }
  const mismatched = hostShared ? sharedMismatches(release.shared, hostShared) : [];
  if (mismatched.length && !force) {
    throw new RegistryError('INCOMPATIBLE_SHARED', `${pkg} ${version} was built with shared packages the host does not serve in range: ${mismatched.join(', ')}: not promoted (--force to override)`);
  }
  const from = before.remotes[id] ?? null;
  const release_ = { version, entry: entryOf(pkg, version), platform: release.platform };
  if (canary !== undefined && !from) throw new RegistryError('NO_CURRENT_RELEASE', `${id} runs no registered release: a canary is shared against one (promote a release first)`);
  // A canary rides beside the current release for a share of users; a promotion (or a rollback) is for
  // everyone and ends any canary.
  const entry = canary !== undefined ? { version: from.version, entry: from.entry, platform: from.platform, canary: { ...release_, percent: canary } } : release_;
  const at = new Date().toISOString();
  const next = { ...before, schema: REGISTRY_SCHEMA, updated_at: at, remotes: { ...before.remotes, [id]: entry } };
  hooks.beforeCommit?.();
  writeRegistry(dir, next, { expected: raw });
  appendFileSync(join(dir, HISTORY_FILE), `${JSON.stringify({ at, remote: id, from: from?.version ?? null, to: version, action, ...(canary !== undefined && { percent: canary }) })}\n`);
  return { remote: id, before: from, after: entry, registry: next };
}

/**
 * Makes `<dir>/<package>/<version>/` the release that runs: refuses a folder that is missing
 * (RELEASE_NOT_FOUND) or not a release (INVALID_RELEASE), a release whose `platform` range the
 * host's contract does not satisfy (INCOMPATIBLE_PLATFORM, unless force), one built with shared packages the
 * host (`hostShared`: its release.json's `shared`) does not serve in range (INCOMPATIBLE_SHARED, unless force), and a registry changed
 * since it was read (REGISTRY_CHANGED). Appends { at, remote, from, to, action: 'promote' } to the history.
 */
export function promote(dir, opts) {
  return change(dir, { ...opts, action: opts.canary !== undefined ? 'canary' : 'promote' });
}

/**
 * Ends a remote's canary without promoting it: everyone runs the current release again. Appends
 * { action: 'end-canary', from: the canary's version, to: the current one } to the history.
 */
export function endCanary(dir, { package: pkg }) {
  if (typeof pkg !== 'string' || !PACKAGE.test(pkg)) throw new RegistryError('INVALID_PACKAGE', `not a remote package name: ${JSON.stringify(pkg)}`);
  const id = remoteId(pkg);
  const raw = readRaw(dir);
  const before = parseRegistry(raw, dir);
  const current = before.remotes[id];
  if (!current?.canary) throw new RegistryError('NO_CANARY', `${id} has no canary to end`);
  const { canary, ...entry } = current;
  const at = new Date().toISOString();
  const next = { ...before, updated_at: at, remotes: { ...before.remotes, [id]: entry } };
  writeRegistry(dir, next, { expected: raw });
  appendFileSync(join(dir, HISTORY_FILE), `${JSON.stringify({ at, remote: id, from: canary.version, to: entry.version, action: 'end-canary' })}\n`);
  return { remote: id, before: current, after: entry, registry: next };
}

/**
 * The version `remote` ran before its current one, from the history (each promotion pushes a version,
 * each rollback pops one: rolling back twice from 0.3.0 goes to 0.2.0, then 0.1.0); null when none.
 */
export function previousVersion(dir, remote) {
  const current = readRegistry(dir).remotes[remote]?.version;
  if (!current) return null;
  const stack = [];
  for (const line of history(dir, remote)) {
    // A canary ran for a share of users only: not a version "it ran before".
    if (line.action === 'canary' || line.action === 'end-canary') continue;
    if (line.action === 'rollback') {
      while (stack.length && stack.at(-1) !== line.to) stack.pop();
      if (!stack.length) stack.push(line.to);
    } else {
      stack.push(line.to);
    }
  }
  // The history ends at the current version unless the registry was edited by hand: then it wins.
  if (stack.at(-1) !== current) stack.push(current);
  for (let i = stack.length - 2; i >= 0; i--) if (stack[i] !== current) return stack[i];
  return null;
}

/** Promotes the version the remote ran before its current one (previousVersion), with promote's checks. */
export function rollback(dir, { package: pkg, hostContract, hostShared, force = false, hooks }) {
  if (typeof pkg !== 'string' || !PACKAGE.test(pkg)) throw new RegistryError('INVALID_PACKAGE', `not a remote package name: ${JSON.stringify(pkg)}`);
  const id = remoteId(pkg);
  const version = previousVersion(dir, id);
  if (!version) throw new RegistryError('NO_PREVIOUS_VERSION', `${id} has no earlier release in ${join(dir, HISTORY_FILE)} to roll back to`);
  return change(dir, { package: pkg, version, hostContract, hostShared, force, action: 'rollback', hooks });
}
