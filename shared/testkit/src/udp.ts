import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inodes bound to this local UDP port (any address), from /proc/net/udp and udp6. */
export function udpInodes(port: number): Set<string> {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/udp', '/proc/net/udp6']) {
    let text = '';
    try { text = readFileSync(table, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(hex)) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/**
 * Whether something already listens on this UDP port, read from the kernel's table. Never by
 * binding the port to see: a probe bound at the moment sipp starts made sipp fail with EADDRINUSE
 * (errno 98) — the carrier sipp "bind" flake of the e2e runs.
 */
export const udpBound = async (port: number): Promise<boolean> => udpInodes(port).size > 0;

/** The processes holding a UDP port ("pid command"), read from /proc: for a message that says who. */
export function udpHolders(port: number): string[] {
  const inodes = udpInodes(port);
  const holders: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) {
          holders.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 200)}`);
          break;
        }
      }
    } catch { /* gone, or not ours to read */ }
  }
  return holders.length ? holders : [`${inodes.size} socket(s), owner not readable`];
}

/** Waits until something listens on this UDP port (a sipp phone started a moment ago); false after `timeoutMs`. */
export async function waitUdpBound(port: number, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!(await udpBound(port))) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}
