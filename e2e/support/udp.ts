import { expect } from '@playwright/test';
import { udpBound, udpHolders } from '@tongdai/testkit/udp';

export { udpBound, udpHolders };

/**
 * Waits until nothing holds this UDP port (a carrier sipp of an earlier test still ending, a
 * browser's ephemeral socket), or fails naming who holds it.
 */
export async function waitUdpFree(port: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (await udpBound(port)) {
    if (Date.now() > until) expect(false, `UDP ${port} is still held by: ${udpHolders(port).join('; ')}`).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
  }
}
