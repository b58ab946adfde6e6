/** A parsed version: numbers and the prerelease's identifiers (numeric ones as numbers). */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: (string | number)[];
}
/** The version, or null when `v` is not one (MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD], a leading v allowed). */
export function parseVersion(v: unknown): Version | null;
/** -1, 0 or 1 by semver's precedence; throws a TypeError when either is not a version. */
export function compareVersions(a: string, b: string): -1 | 0 | 1;
/** Whether `range` is one `satisfies` understands: `^x.y.z`, `~x.y.z`, exact, `>=x.y.z`, `*`, partials. */
export function validRange(range: unknown): boolean;
/** Whether `version` is within `range` (false when either is invalid); prereleases by npm's rule. */
export function satisfies(version: string, range: string): boolean;
