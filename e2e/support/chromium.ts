import { existsSync } from 'node:fs';

/** Debian's Chromium; never a downloaded browser. */
export function chromiumPath(): string {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium']) if (p && existsSync(p)) return p;
  throw new Error('Chromium not found: install the Debian package `chromium` (apt-get install chromium)');
}

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
