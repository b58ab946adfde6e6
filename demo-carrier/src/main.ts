/**
 * The demo carrier process (dev/demo tooling: `npm start` runs it; never part of a deployment).
 * Environment:
 *   DEMO_CARRIER_ADDRESS   address to bind SIP, RTP and HTTP (default 127.0.0.1)
 *   DEMO_CARRIER_PORT      SIP UDP port (default 5090)
 *   DEMO_CARRIER_HTTP_PORT control API port (default SIP port + 1)
 *   DEMO_CARRIER_ACCOUNTS  "user:password,…" allowed to REGISTER and call (required)
 *   DEMO_CARRIER_REALM     digest realm (default demo-carrier)
 *   DEMO_CARRIER_PROXY     the PBX's UDP address host:port, where POST /call sends INVITEs
 *   DEMO_CARRIER_CACHE     folder for the generated announcement WAVs (default: a temp folder)
 *   DEMO_CARRIER_RING_MS   ringing before the carrier answers (default 800; not the population's
 *                          numbers, which answer like people: population.ts, PUT /population)
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAccounts, parseRemote, startCarrier } from './carrier';
import { controlServer } from './control';
import { DEFAULT_POPULATION, describePopulation } from './population';
import { Voice } from './voice';

const log = (m: string) => console.log(`${new Date().toISOString()} [demo-carrier] ${m}`);

async function main() {
  const address = process.env.DEMO_CARRIER_ADDRESS ?? '127.0.0.1';
  const port = Number(process.env.DEMO_CARRIER_PORT ?? 5090);
  const accounts = parseAccounts(process.env.DEMO_CARRIER_ACCOUNTS ?? '');
  if (!accounts.length) throw new Error('DEMO_CARRIER_ACCOUNTS is empty: nobody could register or call');
  const proxy = process.env.DEMO_CARRIER_PROXY ? parseRemote(process.env.DEMO_CARRIER_PROXY) : null;
  const voice = Voice.load({ cacheDir: process.env.DEMO_CARRIER_CACHE ?? join(tmpdir(), 'tongdai-demo-carrier'), log });
  const carrier = await startCarrier({
    address,
    port,
    accounts,
    voice,
    proxy,
    log,
    ...(process.env.DEMO_CARRIER_REALM ? { realm: process.env.DEMO_CARRIER_REALM } : {}),
    ...(process.env.DEMO_CARRIER_RING_MS ? { ringMs: Number(process.env.DEMO_CARRIER_RING_MS) } : {}),
  });
  const httpPort = Number(process.env.DEMO_CARRIER_HTTP_PORT ?? carrier.port + 1);
  const http = controlServer(carrier, { hasProxy: !!proxy });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(httpPort, address, () => resolve());
  });
  log(`control API on http://${address}:${httpPort} (GET /calls, GET /registrations, POST /call {"to": "<hotline>", "from": "<number>"}, GET/PUT /population)`);
  log(describePopulation(DEFAULT_POPULATION, `http://${address}:${httpPort}`));
  const stop = () => {
    carrier.stop();
    http.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
