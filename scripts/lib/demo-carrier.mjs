// Runs the demo carrier (demo-carrier/: dev/demo tooling, ADR 0037) for `npm start`: a stand-in
// for the PSTN on 127.0.0.1 that the demo tenant's switchboard "Nhà mạng demo" registers to and
// calls out through, with an HTTP control API that rings the demo hotline. Never in a deployment.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { logTail, spawnDaemon } from './daemon.mjs';
import { sipOptions } from './kamailio.mjs';
import { ROOT } from './paths.mjs';

const DIR = join(ROOT, 'demo-carrier');

/** The switchboard account the simulator accepts and the API seeds (demo only, loopback only). */
export const DEMO_CARRIER_ACCOUNT = { user: '02873001234', password: 'NhaMangDemo@2026' };

export const demoCarrierAvailable = () => existsSync(join(DIR, 'node_modules', 'tsx'));

/** SIP (UDP) and control API (HTTP) ports of a stack's demo carrier. */
export const demoCarrierPorts = (apiPort) => ({ sipPort: apiPort + 94, httpPort: apiPort + 95 });

/** What the API needs to seed the switchboard (seed-demo-carrier.ts reads these). */
export function demoCarrierEnv(apiPort, account = DEMO_CARRIER_ACCOUNT) {
  return { DEMO_CARRIER: `127.0.0.1:${demoCarrierPorts(apiPort).sipPort}`, DEMO_CARRIER_USER: account.user, DEMO_CARRIER_PASSWORD: account.password };
}

/**
 * Starts the simulator; resolves once it answers SIP OPTIONS. proxyPort: Kamailio's UDP port (where
 * POST /call sends INVITEs). cacheDir: where the spoken announcements are kept between runs.
 * ports: its SIP and HTTP ports (default: the stack's, from apiPort; an e2e spec passes free ones).
 */
export async function startDemoCarrier({ apiPort, proxyPort, log, cacheDir = join(ROOT, '.data', 'demo-carrier'), account = DEMO_CARRIER_ACCOUNT, timeoutMs = 20_000, ports = demoCarrierPorts(apiPort) }) {
  const { sipPort, httpPort } = ports;
  const { proc, stop, exited } = spawnDaemon(process.execPath, ['--import', 'tsx', join(DIR, 'src', 'main.ts')], {
    cwd: DIR,
    log,
    env: {
      ...process.env,
      DEMO_CARRIER_PORT: String(sipPort),
      DEMO_CARRIER_HTTP_PORT: String(httpPort),
      DEMO_CARRIER_ACCOUNTS: `${account.user}:${account.password}`,
      DEMO_CARRIER_PROXY: `127.0.0.1:${proxyPort}`,
      DEMO_CARRIER_CACHE: cacheDir,
    },
  });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`demo carrier exited with code ${proc.exitCode}:\n${logTail(log)}`);
    if ((await sipOptions(sipPort, 300)) === 200) return { stop, exited, address: `127.0.0.1:${sipPort}`, controlUrl: `http://127.0.0.1:${httpPort}`, log };
    await new Promise((r) => setTimeout(r, 150));
  }
  await stop();
  throw new Error(`demo carrier did not answer on udp ${sipPort} within ${timeoutMs} ms:\n${logTail(log)}`);
}
