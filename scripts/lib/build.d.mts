export const FRONTENDS: string[];
export function staleFrontends(variant?: 'production' | 'test'): string[];
/** `test`: the e2e build, with data-testid attributes; otherwise the production build (none). */
export function ensureBuilt(o?: { force?: boolean; test?: boolean }): void;
export function ensureInstalled(): void;
