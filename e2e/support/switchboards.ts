import { API_URL, CARRIER_PORT, CARRIER_PORT_2, TRUNK_PORT } from './ports.ts';

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
export async function createE2eSwitchboards(): Promise<Record<'trunk' | 'carrier' | 'carrier2', number>> {
  const login = await json(await fetch(`${API_URL}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) }), 'login');
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${login.data.token}` };
  const create = async (name: string, port: number) =>
    (await json(await fetch(`${API_URL}/t/demo/etelecom/switchboards`, {
      method: 'POST', headers,
      body: JSON.stringify({ name, host: '127.0.0.1', port, transport: 'udp', register: false, max_channels: 10, description: 'e2e (sipp)' }),
    }), `switchboard ${name}`)).data.id;
  return { trunk: await create(E2E_TRUNK, TRUNK_PORT), carrier: await create(E2E_CARRIER, CARRIER_PORT), carrier2: await create(E2E_CARRIER_2, CARRIER_PORT_2) };
}
