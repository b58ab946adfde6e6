export const REGISTRY_FILE: 'registry.json';
export const HISTORY_FILE: 'registry.history.jsonl';
export const REGISTRY_SCHEMA: 1;

export type RegistryErrorCode =
  | 'INCOMPATIBLE_PLATFORM' | 'REGISTRY_CHANGED' | 'REGISTRY_LOCKED' | 'RELEASE_NOT_FOUND' | 'RELEASE_EXISTS' | 'BUILD_NOT_FOUND'
  | 'INVALID_RELEASE' | 'INVALID_REGISTRY' | 'INVALID_PACKAGE' | 'INVALID_VERSION' | 'INVALID_HOST_CONTRACT' | 'NO_PREVIOUS_VERSION';
export class RegistryError extends Error {
  constructor(code: RegistryErrorCode, message: string);
  code: RegistryErrorCode;
}

/** release.json in a remote's dist/ and in each release folder. */
export interface ReleaseInfo {
  remote: string;
  package: string;
  version: string;
  /** The range of the host's platform contract this release was built against, e.g. ^1.0.0. */
  platform: string;
  shared?: Record<string, string>;
  built_at?: string;
}
export interface RegistryEntry {
  version: string;
  /** Path on the host's origin: /releases/<package>/<version>/mf-manifest.json */
  entry: string;
  platform: string;
  /** Another release running for `percent` % of users (sticky per user, chosen by the host). */
  canary?: { version: string; entry: string; platform: string; percent: number };
}
export interface Registry {
  schema: 1;
  updated_at: string | null;
  /** Keyed by remote id (mf_reports). */
  remotes: Record<string, RegistryEntry>;
}
export interface HistoryLine {
  at: string;
  remote: string;
  from: string | null;
  to: string;
  action: 'promote' | 'rollback' | 'canary' | 'end-canary';
  /** A canary's share. */
  percent?: number;
}
export interface Change {
  remote: string;
  before: RegistryEntry | null;
  after: RegistryEntry;
  registry: Registry;
}

export function parseVersion(v: string): { major: number; minor: number; patch: number; pre: (string | number)[] } | null;
export function compareVersions(a: string, b: string): -1 | 0 | 1;
export function validRange(range: string): boolean;
/** ^x.y.z, ~x.y.z, exact, *, partials (1, 1.2, 1.x); prereleases only where the range names one of the same x.y.z. */
export function satisfies(version: string, range: string): boolean;
export function remoteId(pkg: string): string;
export function entryOf(pkg: string, version: string, prefix?: string): string;

export function readRelease(dir: string, o: { package: string; version: string }): ReleaseInfo;
/** Copies a built dist/ to <out>/<package>/<version>/; RELEASE_EXISTS if that folder exists. Returns the folder. */
export function copyRelease(o: { from: string; out: string; package: string; version: string }): string;

export function readRegistry(dir: string): Registry;
export function writeRegistry(dir: string, next: Registry, o: { expected: string | null }): void;
export function history(dir: string, remote?: string): HistoryLine[];
export function previousVersion(dir: string, remote: string): string | null;
/** hooks.beforeCommit runs after the checks, before the compare-and-swap (tests use it to change the registry meanwhile). */
/** The shared packages a release was built with that the host does not serve in range ("react 19.4.0 (host 19.3.1)"). */
export function sharedMismatches(releaseShared?: Record<string, string>, hostShared?: Record<string, string>): string[];
/** `canary` (1–99): the release runs for that share of users beside the current one (action 'canary'); without it, for everyone. */
export function promote(dir: string, o: { package: string; version: string; hostContract: string; hostShared?: Record<string, string>; force?: boolean; canary?: number; hooks?: { beforeCommit?(): void } }): Change;
/** Ends a remote's canary: everyone runs its current release (action 'end-canary'). */
export function endCanary(dir: string, o: { package: string }): Change;
export function rollback(dir: string, o: { package: string; hostContract: string; hostShared?: Record<string, string>; force?: boolean; hooks?: { beforeCommit?(): void } }): Change;
