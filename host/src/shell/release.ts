import type { ReleaseInfo } from '@tongdai/contracts';
import { satisfies } from '../../../shared/contracts/src/semver.cjs';

/**
 * Releases and the platform contract (ADR 0053), in the shell's chunk (not the first load: the login
 * page needs none of it). The host provides the platform (the shared packages,
 * the single-spa props, the routes' contract) at a contract version; a remote declares the range it was
 * built against; a remote whose range the host's contract does not satisfy is not loaded, and its area
 * says it is being updated.
 */

/** The platform contract this build provides (the host) or was built against (a remote). */
export const PLATFORM_CONTRACT: string = process.env.TONGDAI_PLATFORM_CONTRACT ?? '0.0.0';
/** This build's release (RELEASE_VERSION at build, else its package's version). */
export const RELEASE: string = process.env.TONGDAI_RELEASE ?? '0.0.0';

/**
 * Whether `version` is in `range`: the one semver `npm run promote` judges by too (^, ~, exact, >=, *,
 * partials; a prerelease only in a range that names one of the same x.y.z).
 */
export { satisfies };

/** The release.json beside a remote's mf-manifest.json. */
export const releaseUrl = (manifestUrl: string): string => new URL('release.json', new URL(manifestUrl, globalThis.location?.href ?? 'http://localhost/')).href;

export type ReleaseCheck =
  | { ok: true; release: ReleaseInfo }
  | { ok: false; reason: 'incompatible'; release: ReleaseInfo | null }
  | { ok: false; reason: 'unreachable' };

/**
 * A remote's release, read and judged before any of its code runs: compatible when the host's contract
 * satisfies the range it declares. No release.json (404) or one that declares nothing: incompatible (a
 * build this host cannot vouch for); the network failing: unreachable (the area is down, retried).
 */
export async function checkRelease(manifestUrl: string, hostContract: string = PLATFORM_CONTRACT, get: typeof fetch = fetch): Promise<ReleaseCheck> {
  let res: Response;
  try {
    res = await get(releaseUrl(manifestUrl), { cache: 'no-cache' });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (res.status >= 500) return { ok: false, reason: 'unreachable' };
  const release = res.ok ? ((await res.json().catch(() => null)) as ReleaseInfo | null) : null;
  if (!release || typeof release.platform !== 'string' || !satisfies(hostContract, release.platform)) return { ok: false, reason: 'incompatible', release };
  return { ok: true, release };
}
