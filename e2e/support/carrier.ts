import { createSocket } from 'node:dgram';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { API_PORT } from './ports.ts';
import { startDemoCarrier } from '../../scripts/lib/demo-carrier.mjs';
import { sipPorts } from '../../scripts/lib/stack.mjs';

/** A port nobody uses now: bound once on loopback (UDP or TCP) and given back. */
export const freePort = (kind: 'udp' | 'tcp') =>
  new Promise<number>((done, fail) => {
    if (kind === 'udp') {
      const s = createSocket('udp4');
      s.once('error', fail);
      s.bind(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => done(port)); });
    } else {
      const s = createServer();
      s.once('error', fail);
      s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => done(port)); });
    }
  });

/** A call as the demo carrier lists it (GET /calls): 'in' are the calls it received from the PBX. */
export type CarrierCall = { direction: 'in' | 'out'; state: string; status: number | null; from: string; to: string; p_asserted_identity: string | null; caller_id: string; called: string; rtp_sent: number; rtp_received: number };

/**
 * The demo carrier (ADR 0037) for one test, on free ports, toward this worker's stack, with the
 * account a switchboard registers with; its log under ../.tmp/<name>. `calls()` lists its calls.
 */
export async function startTestCarrier(name: string, account: { user: string; password: string }) {
  const work = resolve(`../.tmp/${name}`);
  mkdirSync(work, { recursive: true });
  const ports = { sipPort: await freePort('udp'), httpPort: await freePort('tcp') };
  const carrier = await startDemoCarrier({ apiPort: API_PORT, proxyPort: sipPorts(API_PORT).udpPort, log: `${work}/demo-carrier-${ports.sipPort}.log`, account, ports, timeoutMs: 60_000 });
  const calls = async () => ((await (await fetch(`${carrier.controlUrl}/calls`)).json()) as { calls: CarrierCall[] }).calls;
  return { ...carrier, sipPort: ports.sipPort, calls };
}
