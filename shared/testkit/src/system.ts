import { existsSync } from 'node:fs';

/** Kamailio's binary where Debian's package or a local build puts it. */
export const kamailioInstalled = (): boolean => ['/usr/sbin/kamailio', '/usr/local/sbin/kamailio'].some((p) => existsSync(p));

/**
 * A Jest suite that needs system packages fails, naming what is missing and how to install it,
 * when one is absent: it never skips (a skipped suite passes a run that tested nothing). Call it
 * first inside the suite's `describe`.
 */
export function requireSystem(needs: Record<string, boolean>, install: string): void {
  beforeAll(() => {
    const missing = Object.entries(needs).filter(([, ok]) => !ok).map(([name]) => name);
    if (missing.length) throw new Error(`Not installed: ${missing.join(', ')}. This suite fails rather than skips; install with: ${install}`);
  });
}
