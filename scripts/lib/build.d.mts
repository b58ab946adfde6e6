export const FRONTENDS: string[];
export function staleFrontends(): string[];
export function ensureBuilt(o?: { force?: boolean }): void;
export function ensureInstalled(): void;
