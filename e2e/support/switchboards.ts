import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stackPorts, WORKER_SLOT } from './ports.ts';
import { sipPorts } from '../../scripts/lib/stack.mjs';

type Ports = ReturnType<typeof stackPorts>;

/** The demo tenant's admin (pages/LoginPage DEMO), as global-setup logs in before any browser. */
const ADMIN = { ma_dn: 'demo', username: 'admin', password: 'Admin@123' };

/** Names of the e2e stack's switchboards: calls out go to "e2e-trunk", calls in come from "e2e-nha-mang". */
export const E2E_TRUNK = 'e2e-trunk';
export const E2E_CARRIER = 'e2e-nha-mang';
export const E2E_CARRIER_2 = 'e2e-nha-mang-2';

async function json(res: Response, what: string): Promise<{ data: { id: number; token?: string } }> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: { id: number; token?: string } };
}

/**
 * Carriers are the tenants' switchboards (ADR 0036), created here through the telecom API as an
 * admin would on /etelecom/switchboards: IP-authenticated trunks on loopback (no registration),
 * one for calls out (a sipp carrier on TRUNK_PORT), one that carriers call in from (CARRIER_PORT).
 * Returns their ids.
 */
export async function createE2eSwitchboards(ports: Ports = stackPorts(WORKER_SLOT)): Promise<Record<'trunk' | 'carrier' | 'carrier2', number>> {
  const API_URL = ports.apiUrl;
  const login = await json(await fetch(`${API_URL}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) }), 'login');
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${login.data.token}` };
  const create = async (name: string, port: number) =>
    (await json(await fetch(`${API_URL}/t/demo/etelecom/switchboards`, {
      method: 'POST', headers,
      body: JSON.stringify({ name, host: '127.0.0.1', port, transport: 'udp', register: false, max_channels: 10, description: 'e2e (sipp)' }),
    }), `switchboard ${name}`)).data.id;
  return { trunk: await create(E2E_TRUNK, ports.trunkPort), carrier: await create(E2E_CARRIER, ports.carrierPort), carrier2: await create(E2E_CARRIER_2, ports.carrierPort2) };
}

/**
 * Resolves once Kamailio holds the API's current switchboards (it polls every 3 s, route
 * SWITCHBOARDS): the version it last loaded ($shv(sbver), read over its control socket) is the one
 * the API would answer 204 to. Fails after `timeoutMs` saying what it last saw.
 */
export async function kamailioHasSwitchboards(ports: Ports, sip: { dir: string; internalSecret: string }, timeoutMs = 30_000): Promise<void> {
  const ctl = `unix:${join(sip.dir, 'kamailio_ctl')}`;
  const internal = `http://127.0.0.1:${sipPorts(ports.apiPort).internalPort}/internal/sip/switchboards`;
  const auth = `Basic ${Buffer.from(`e2e:${sip.internalSecret}`).toString('base64')}`;
  const until = Date.now() + timeoutMs;
  let seen = '';
  while (Date.now() < until) {
    try {
      const { stdout } = await promisify(execFile)('kamcmd', ['-s', ctl, 'pv.shvGet', 'sbver'], { timeout: 5000 });
      const version = /value:\s*(\S+)/.exec(stdout)?.[1] ?? '';
      const res = await fetch(`${internal}?version=${encodeURIComponent(version)}`, { headers: { authorization: auth } });
      seen = `Kamailio has version "${version}", the API answers ${res.status}`;
      if (res.status === 204) return;
    } catch (e) {
      seen = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Kamailio did not load the e2e switchboards within ${timeoutMs} ms: ${seen}`);
}
