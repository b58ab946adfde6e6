import type { FastifyInstance } from 'fastify';
import { registerContact } from '@tongdai/testkit/register-contact';
import { DEMO_SIP } from '../src/db/seed-data';
import { INTERNAL_HEADERS } from './helpers';

const DOMAIN = 'demo.tongdai.local';

/**
 * The demo tenant's 101 and 102 registered through Kamailio with their passwords, contacts at
 * `ports` (sipp phones, or nothing), for 10 minutes (a suite runs past the 60 s default); resolves
 * once the API counts both online and reads Kamailio's call events. For the suites that run the real
 * call chain (calls.integration does the same inline, written before this helper).
 */
export async function registerDemoPhones(internal: FastifyInstance, proxyPort: number, ports: Record<'101' | '102', number>): Promise<void> {
  for (const [ext, port] of Object.entries(ports)) {
    const password = ext === '101' ? DEMO_SIP.demo.admin.password : DEMO_SIP.demo.staff.password;
    const code = await registerContact({ proxyPort, user: ext, domain: DOMAIN, password, contactPort: port, expires: 600 });
    if (code !== 200) throw new Error(`REGISTER ${ext}: ${code}`);
  }
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    const online = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/registrations?domain=${DOMAIN}` });
    const calls = await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/calls' });
    if (online.json().extensions.length === 2 && calls.json().events_connected) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the API did not see both phones registered and Kamailio\'s events within 5 s');
}
