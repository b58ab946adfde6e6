import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { registerContact } from '@tongdai/testkit/register-contact';
import type { RunningKamailio } from '../../scripts/lib/kamailio.mjs';
import type { RunningMediaWorker } from '../../scripts/lib/media.mjs';
import { DEMO_SIP } from '../src/db/seed-data';
import { buildInternalServer } from '../src/modules/sip/internal-server';
import { INTERNAL_HEADERS, LOOPBACK_CARRIERS, type TestApp } from './helpers';
import { kamailioLib, mediaLib, type CallChainLib } from './script-libs';

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

/**
 * The call chain of the suites where the server places calls (voice-OTP, the dialer): the API's
 * internal listener on `t` (with Kamailio's event socket), Kamailio with the loopback carriers
 * allowed and one media worker, each on free ports, logs in `dir`. `workerLog()` reads the worker's
 * log (each line with the time since its INVITE), for a failing wait to show where a call stood.
 */
export async function startCallChain(t: TestApp, dir: string): Promise<CallChain> {
  const lib = await kamailioLib();
  const media = await mediaLib();
  const evapiPort = await lib.freeTcpPort();
  const internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub, cdrFlushMs: 20, switchboardsTtlMs: 100, evapi: `127.0.0.1:${evapiPort}`, switchboardHosts: t.app.deps.switchboardHosts } });
  await internal.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(internal.server.address() as { port: number }).port}/internal/sip`;
  const sipUdp = await lib.freeUdpPort();
  const workerPort = await lib.freeUdpPort();
  const internalSecret = process.env.INTERNAL_SECRET!;
  const kamailio = await lib.startKamailio({ wsPort: await lib.freeTcpPort(), udpPort: sipUdp, apiInternalUrl: apiUrl, internalSecret, dir, evapiPort, trunkAllowedNetworks: LOOPBACK_CARRIERS, mediaWorkers: [`127.0.0.1:${workerPort}`] });
  const workerLogPath = join(dir, `media-${workerPort}.log`);
  const worker = await media.startMediaWorker({ port: workerPort, apiInternalUrl: apiUrl, internalSecret, proxyPort: sipUdp, log: workerLogPath });
  const workerLog = () => {
    try {
      return readFileSync(workerLogPath, 'utf8');
    } catch {
      return '(no log)';
    }
  };
  return {
    internal, kamailio, worker, sipUdp, lib, workerLog,
    async until(what, get, ok, ms = 30_000) {
      const end = Date.now() + ms;
      for (;;) {
        const x = await get();
        if (ok(x)) return x;
        // The worker's log says where the call stood (each line with the time since its INVITE).
        if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(x)}\nmedia worker:\n${workerLog().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await worker.stop();
      await kamailio.stop();
      await internal.close();
    },
  };
}

export interface CallChain {
  internal: FastifyInstance;
  kamailio: RunningKamailio;
  worker: RunningMediaWorker;
  /** Kamailio's UDP port. */
  sipUdp: number;
  lib: CallChainLib;
  workerLog(): string;
  /** `get()` until `ok`, every 100 ms for up to `ms` (30 s); then fails with the last value and the worker's log. */
  until<T>(what: string, get: () => Promise<T>, ok: (x: T) => boolean, ms?: number): Promise<T>;
  stop(): Promise<void>;
}
