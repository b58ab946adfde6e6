// What a remote's own image does when it starts (shared/build/remote.Dockerfile; issue 36, ADR 0053):
// the release folder baked into the image goes into the releases volume the web server reads — never
// over an existing one, a release being immutable — and, unless told not to, is promoted against the
// host that runs (its /release.json: the platform contract it provides and its shared packages).
// Replacing one remote in production is then `docker compose up -d --build mf-reports`: neither the
// web image nor another remote is touched, and browsers get the release at their next load.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyRelease, promote, readRegistry, readRelease, RegistryError, remoteId } from './registry.mjs';

/** The one `<package>/<version>/` an image holds under `src`. */
export function bakedRelease(src) {
  const found = [];
  for (const pkg of existsSync(src) ? readdirSync(src) : []) {
    for (const version of readdirSync(join(src, pkg))) found.push({ package: pkg, version });
  }
  if (found.length !== 1) throw new RegistryError('INVALID_RELEASE', `${src} holds ${found.length} releases (${found.map((r) => `${r.package}/${r.version}`).join(', ') || 'none'}); an image carries exactly one`);
  return found[0];
}

/**
 * Asks `getHost()` (the running host's release.json) until it answers, every `everyMs`, for at most
 * `waitMs`: the web container may start after this one.
 */
async function hostRelease(getHost, waitMs, everyMs) {
  const end = Date.now() + waitMs;
  let last;
  for (;;) {
    try {
      const host = await getHost();
      if (host && typeof host.platformContract === 'string') return host;
      last = new Error(`its release.json names no platformContract: ${JSON.stringify(host)}`);
    } catch (e) {
      last = e;
    }
    if (Date.now() >= end) throw new RegistryError('HOST_UNKNOWN', `the host that runs did not say its platform contract within ${waitMs / 1000} s: ${last instanceof Error ? last.message : last}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Publishes the image's release into `dir` and promotes it (unless `promoteIt` is false). Running it
 * again changes nothing: a release already in the volume is kept (it must be the same package and
 * version, and whole), one already running is not promoted twice (no history line).
 * @returns {Promise<{ package: string, version: string, copied: boolean, promoted: boolean }>}
 */
export async function publishRelease({ src, dir, getHost, promoteIt = true, waitMs = 120_000, everyMs = 1000, log = () => {} }) {
  const { package: pkg, version } = bakedRelease(src);
  let copied = false;
  if (existsSync(join(dir, pkg, version))) {
    readRelease(dir, { package: pkg, version }); // whole, and this package's
    log(`${pkg} ${version}: already in ${dir}, kept as it is`);
  } else {
    copyRelease({ from: join(src, pkg, version), out: dir, package: pkg, version });
    copied = true;
    log(`${pkg} ${version}: copied into ${dir}`);
  }
  if (!promoteIt) return { package: pkg, version, copied, promoted: false };
  if (readRegistry(dir).remotes[remoteId(pkg)]?.version === version) {
    log(`${pkg} ${version}: already the release that runs`);
    return { package: pkg, version, copied, promoted: false };
  }
  const host = await hostRelease(getHost, waitMs, everyMs);
  const change = promote(dir, { package: pkg, version, hostContract: host.platformContract, hostShared: host.shared });
  log(`${pkg} ${version}: promoted (was ${change.before?.version ?? "config.json's built-in copy"}; host platform contract ${host.platformContract})`);
  return { package: pkg, version, copied, promoted: true };
}
