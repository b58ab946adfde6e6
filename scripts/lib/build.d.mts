export const FRONTENDS: string[];
export function staleFrontends(variant?: 'production' | 'test'): string[];
/** `test`: the e2e build, with data-testid attributes; otherwise the production build (none). */
export function ensureBuilt(o?: { force?: boolean; test?: boolean }): void;
export function ensureInstalled(): void;
/** Builds exactly these frontends (no staleness check), with `env` added (RELEASE_VERSION); under the build lock. */
export function buildFrontends(apps: string[], o?: { test?: boolean; env?: Record<string, string> }): void;
