// What the bench trusts on the stack it starts, in one place, set the way an operator sets it for a
// deployment (never by switching the product's protection off): its load generators all send from
// 127.0.0.1, the address every other client of this machine has too.
import { spawnSync } from 'node:child_process';
import { freeUdpPort } from '../../scripts/lib/ports.mjs';

/**
 * Kamailio's flood limit (pike, `FLOOD_DENSITY`: requests per 2 s from one address) on the bench's
 * Kamailios. The product's default (16) bans any address past it, loopback included, for 300 s: the
 * bench's phones register, and its carriers call, thousands of times a second from 127.0.0.1. The
 * carriers are spared anyway once Kamailio has read their switchboards; the phones are not.
 */
export const BENCH_FLOOD_DENSITY = 1_000_000;

/**
 * The switchboard hosts the operator allows (`TRUNK_ALLOWED_NETWORKS`, issue 32's host policy: a CIDR
 * list; loopback is refused unless listed), for the API and for Kamailio (`startStack` /
 * `startKamailio` option `trunkAllowedNetworks` once that lands). The bench's carriers are sipp
 * processes on this machine.
 */
export const BENCH_TRUNK_NETWORKS = '127.0.0.1/32';

/** What the bench's own Kamailios (calls, wall, carrier sections) are started with beside their ports. */
export const BENCH_KAMAILIO = { floodDensity: BENCH_FLOOD_DENSITY, trunkAllowedNetworks: BENCH_TRUNK_NETWORKS };

/** The carrier bench's sipp carrier: its digest credentials (it challenges every INVITE). */
export const BENCH_TRUNK = { user: 'bench-trunk', password: 'Bench-Carrier-Digest-1' };

/** The sipp carrier's SIP port for a stack on apiPort (beside the demo carrier's apiPort + 94/95). */
export const benchCarrierPort = (apiPort: number) => apiPort + 96;

/**
 * API environment that points the demo tenant's switchboard (the seed's) at the carrier bench's sipp
 * carrier, register off (it answers INVITEs only), 2000 channels (the tenant's limit follows).
 */
export function carrierBenchEnv(apiPort: number): Record<string, string> {
  return {
    DEMO_CARRIER: `127.0.0.1:${benchCarrierPort(apiPort)}`,
    DEMO_CARRIER_USER: BENCH_TRUNK.user,
    DEMO_CARRIER_PASSWORD: BENCH_TRUNK.password,
    DEMO_CARRIER_MAX_CHANNELS: '2000',
    DEMO_CARRIER_REGISTER: '0',
  };
}

/** The API's environment on the bench's stacks. */
export function benchApiEnv(apiPort: number): Record<string, string> {
  return {
    // The bench's logins all come from 127.0.0.1.
    LOGIN_IP_LIMIT: '1000',
    TRUNK_ALLOWED_NETWORKS: BENCH_TRUNK_NETWORKS,
    // The demo carrier's link points the demo tenant's switchboard at the carrier bench's sipp and
    // raises the tenant's channel limit (2000) so hundreds of live calls fit.
    ...carrierBenchEnv(apiPort),
    // The dialer's real calls ring an unanswered contact as long as its simulation does (notes/dialer.md: 25 s).
    DIALER_RING_SECONDS: process.env.BENCH_DIALER_RING_S ?? '25',
  };
}

/** startStack's options for a bench stack on these ports. */
export function benchStackOptions(o: { webPort: number; apiPort: number; dataDir: string }) {
  return { ...o, quiet: true, ...BENCH_KAMAILIO, apiEnv: benchApiEnv(o.apiPort) };
}

/**
 * Resolves once calls from the switchboards created at `since` (ms) are let in: Kamailio has loaded
 * 127.0.0.1 among the carriers' addresses (it asks the API every 3 s; read over its ctl socket) and
 * the API's directory, which it rereads every 2 s, is newer than them.
 */
export async function carriersLoaded(ctlSocket: string, since: number, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = spawnSync('kamcmd', ['-s', `unix:${ctlSocket}`, 'htable.get', 'carriers', '127.0.0.1'], { encoding: 'utf8' });
    if (r.status === 0 && /value/.test(r.stdout) && Date.now() - since > DIRECTORY_MS) return;
    if (Date.now() > until) throw new Error(`Kamailio did not load the bench's switchboards within ${timeoutMs} ms: ${(r.stderr || r.stdout).trim()}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}
/** The API's switchboard directory's age at most (switchboard-directory.ts), plus a margin. */
const DIRECTORY_MS = 2_300;

/**
 * A switchboard of the demo tenant for a bench carrier (a sipp on 127.0.0.1 calling from the port
 * returned): carriers call in only from a switchboard of the tenant, IP and port (ADR 0036), as a
 * tenant's administrator configures one. The API reads the switchboards every 2 s, Kamailio every 3 s.
 */
export async function benchSwitchboard(o: { apiUrl: string; token: string }, name: string, channels = 2000): Promise<number> {
  return (await benchSwitchboardRow(o, name, channels)).port;
}

/** benchSwitchboard, answering the switchboard's id beside its carrier's port (a hotline or a rule names it). */
export async function benchSwitchboardRow(o: { apiUrl: string; token: string }, name: string, channels = 2000): Promise<{ port: number; id: number }> {
  const port = await freeUdpPort();
  const res = await fetch(`${o.apiUrl}/t/demo/etelecom/switchboards`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, host: '127.0.0.1', port, register: false, max_channels: channels }),
  });
  if (!res.ok) throw new Error(`bench setup switchboard ${name}: ${res.status} ${await res.text()}`);
  return { port, id: ((await res.json()) as { data: { id: number } }).data.id };
}
