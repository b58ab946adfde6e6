import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PORT, CONTROL_PORT, WEB_PORT } from './ports.ts';
import { createE2eSwitchboards } from './switchboards.ts';

/**
 * Starts the product once for all tests on a fresh embedded database, and a small control
 * server through which a test can stop and restart one remote's server, or restart or freeze Kamailio.
 */
export default async function globalSetup() {
  const { ensureBuilt } = await import('../../scripts/lib/build.mjs');
  ensureBuilt({ test: true });
  const { startStack } = await import('../../scripts/lib/stack.mjs');
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-e2e-'));
  // The specs' carriers (sipp, the demo carrier) listen on loopback: the operator's allow-list opens
  // 127.0.0.1 to switchboards, as a deployment would list its carriers' networks (ADR 0043).
  const stack = await startStack({ webPort: WEB_PORT, apiPort: API_PORT, dataDir, quiet: true, trunkAllowedNetworks: '127.0.0.1/32', apiEnv: { LOGIN_IP_LIMIT: '1000', TONGDAI_TEST_CLOCK: '1' } });
  // Carriers are switchboards in the database (ADR 0036): sipp carriers call in from CARRIER_PORT
  // (switchboard "e2e-nha-mang"), calls out go to a sipp carrier on TRUNK_PORT ("e2e-trunk").
  // Kamailio picks them up within seconds (it polls the API every 3 s).
  await createE2eSwitchboards();
  await new Promise((r) => setTimeout(r, 5500));
  const control = createServer(async (req, res) => {
    // Kamailio restarted in place (same ports): the softphone tests check the phones come back.
    if (req.url === '/sip/restart' && req.method === 'POST') {
      if (!stack.sip) return void res.writeHead(409).end('Kamailio is not running');
      await stack.sip.restart();
      return void res.writeHead(204).end();
    }
    // Kamailio hung (frozen) and back: a call placed meanwhile must say the server is unreachable.
    const freeze = req.url?.match(/^\/sip\/(freeze|thaw)$/);
    if (freeze && req.method === 'POST') {
      if (!stack.sip) return void res.writeHead(409).end('Kamailio is not running');
      stack.sip.freeze(freeze[1] === 'freeze');
      return void res.writeHead(204).end();
    }
    const m = req.url?.match(/^\/remote\/(\w+)\/(stop|start)$/);
    if (!m || req.method !== 'POST') return void res.writeHead(404).end();
    if (m[2] === 'stop') await stack.stopRemote(m[1]);
    else await stack.startRemote(m[1]);
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => control.listen(CONTROL_PORT, '127.0.0.1', () => r()));
  return async () => {
    control.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
