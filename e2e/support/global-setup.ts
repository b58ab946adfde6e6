import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { stackPorts } from './ports.ts';
import { startE2eSheets } from './google-sheets.ts';
import { createE2eSwitchboards, kamailioHasSwitchboards } from './switchboards.ts';

type Stack = Awaited<ReturnType<typeof import('../../scripts/lib/stack.mjs').startStack>>;

/**
 * Starts the product once per Playwright worker (each on its own ports, see ports.ts) on a fresh
 * embedded database, each with a small control server through which a test can stop and restart
 * one remote's server, or restart or freeze its Kamailio. Two workers never share SIP ports, the
 * demo tenant's extensions or a carrier's UDP port: each has its own.
 */
export default async function globalSetup(config: FullConfig) {
  const { ensureBuilt } = await import('../../scripts/lib/build.mjs');
  ensureBuilt({ test: true });
  const started = Date.now();
  const slots = Array.from({ length: Math.max(1, config.workers) }, (_, i) => i);
  // Google's stand-in (the Google Sheet contact source): every stack's API reads sheets from it.
  const sheets = await startE2eSheets();
  const settled = await Promise.allSettled(slots.map((slot) => startOne(slot, sheets.endpoint)));
  const up = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => { await Promise.all(up.map((stop) => stop())); await sheets.close(); };
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  console.log(`e2e: ${slots.length} stack(s) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return stopAll;
}

async function startOne(slot: number, sheetsEndpoint: string): Promise<() => Promise<void>> {
  const { startStack } = await import('../../scripts/lib/stack.mjs');
  const ports = stackPorts(slot);
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-e2e-'));
  let stack: Stack | null = null;
  let control: Server | null = null;
  const stop = async () => {
    control?.close();
    await stack?.stop();
    recordingsDisk(dataDir, 'unmount');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The specs' carriers (sipp, the demo carrier) listen on loopback: the operator's allow-list opens
    // 127.0.0.1 to switchboards, as a deployment would list its carriers' networks (ADR 0043).
    stack = await startStack({ webPort: ports.webPort, apiPort: ports.apiPort, dataDir, quiet: true, trunkAllowedNetworks: '127.0.0.1/32', apiEnv: { LOGIN_IP_LIMIT: '1000', TONGDAI_TEST_CLOCK: '1', GOOGLE_SHEETS_ENDPOINT: sheetsEndpoint } });
    // Carriers are switchboards in the database (ADR 0036): sipp carriers call in from the carrier
    // port (switchboard "e2e-nha-mang"), calls out go to a sipp carrier on the trunk port ("e2e-trunk").
    // Kamailio polls the API every 3 s: ready once its copy is the API's current version.
    await createE2eSwitchboards(ports);
    if (stack.sip) await kamailioHasSwitchboards(ports, stack.sip);
    control = await controlServer(stack, ports.controlPort, dataDir);
    return stop;
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * The API's recordings folder (DATA_DIR/recordings) on a full disk (issue 41): `full` mounts a
 * 256 KiB tmpfs over it (root only, as CI runs) and fills it until a write fails with ENOSPC;
 * `space` frees it again; `unmount` puts the folder back as it was. Returns an error to tell, or null.
 */
function recordingsDisk(dataDir: string, action: 'full' | 'space' | 'unmount'): string | null {
  const dir = join(dataDir, 'recordings');
  const filler = join(dir, 'e2e-filler');
  const mounted = () => execFileSync('findmnt', ['-rn', '-o', 'TARGET']).toString().split('\n').includes(dir);
  if (action === 'unmount') {
    if (mounted()) execFileSync('umount', [dir]);
    return null;
  }
  if (action === 'space') {
    rmSync(filler, { force: true });
    return null;
  }
  if (process.getuid?.() !== 0) return 'a full disk needs a tmpfs mount: run the e2e as root (CI does)';
  mkdirSync(dir, { recursive: true });
  if (!mounted()) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', dir]);
  try {
    writeFileSync(filler, Buffer.alloc(512 * 1024));
    return 'the tmpfs did not fill';
  } catch (e) {
    return (e as { code?: string }).code === 'ENOSPC' ? null : String(e);
  }
}

function controlServer(stack: Stack, port: number, dataDir: string): Promise<Server> {
  const control = createServer(async (req, res) => {
    // The recordings' storage full, freed, put back (issue 41): the admins' alarm bar.
    const disk = req.url?.match(/^\/recordings-disk\/(full|space|unmount)$/);
    if (disk && req.method === 'POST') {
      const error = recordingsDisk(dataDir, disk[1] as 'full' | 'space' | 'unmount');
      return void (error ? res.writeHead(409).end(error) : res.writeHead(204).end());
    }
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
  return new Promise((resolve, reject) => {
    control.once('error', reject);
    control.listen(port, '127.0.0.1', () => resolve(control));
  });
}
