import type { ReleaseInfo } from '@tongdai/contracts';

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

type Version = [number, number, number, string];

function parse(v: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''] : null;
}

/** a − b by semver's precedence (a prerelease sorts before its release). */
function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  if (a[3] === b[3]) return 0;
  if (!a[3]) return 1;
  if (!b[3]) return -1;
  return a[3] < b[3] ? -1 : 1;
}

/**
 * Whether `version` is in `range`: `*`, an exact version, `^x.y.z` (same major — same minor under 1.0.0 —
 * and not older), `~x.y.z` (same minor, not older), `>=x.y.z`. Anything else satisfies nothing.
 */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  const r = range.trim();
  if (!v) return false;
  if (r === '*') return true;
  const op = /^(\^|~|>=)?(.*)$/.exec(r)!;
  const base = parse(op[2]);
  if (!base) return false;
  if (compare(v, base) < 0) return false;
  switch (op[1]) {
    case undefined:
      return compare(v, base) === 0;
    case '>=':
      return true;
    case '~':
      return v[0] === base[0] && v[1] === base[1];
    default:
      return base[0] > 0 ? v[0] === base[0] : base[1] > 0 ? v[0] === 0 && v[1] === base[1] : v[0] === 0 && v[1] === 0 && v[2] === base[2];
  }
}

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
