// Starts the whole product: the API (embedded PGlite unless DATABASE_URL), the host and the five
// remotes as static servers. Used by `npm start`, the e2e tests and the benchmarks.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { kamailioAvailable, startKamailio } from './kamailio.mjs';
import { rtpengineAvailable, startRtpengine } from './rtpengine.mjs';
import { mediaAvailable, startMediaWorker } from './media.mjs';
import { demoCarrierAvailable, demoCarrierEnv, startDemoCarrier } from './demo-carrier.mjs';
import { ROOT } from './paths.mjs';
import { releaseRoutes, serveStatic } from './serve-static.mjs';
import securityHeaderKit from '../../shared/build/security-headers.js';

const { contentSecurityPolicy, securityHeaders } = securityHeaderKit;

export const REMOTES = [
  { id: 'mf_softphone', dir: 'mf-softphone', offset: 5 },
  { id: 'mf_crm', dir: 'mf-crm', offset: 1 },
  { id: 'mf_pbx', dir: 'mf-pbx', offset: 2 },
  { id: 'mf_reports', dir: 'mf-reports', offset: 3 },
  { id: 'mf_survey', dir: 'mf-survey', offset: 4 },
];

/**
 * The host's config.json. registry: where the host reads which release of each remote runs
 * (/registry.json when the stack serves a releases folder, docs/adr/0053); a remote it lists is
 * loaded from its `entry` instead of `remotes[id]`.
 */
export function runtimeConfig({ apiUrl, webPort, host = '127.0.0.1', registry }) {
  return {
    ...(registry ? { registry } : {}),
    apis: {
      cp: `${apiUrl}/cp`, identity: `${apiUrl}/identity`, pbx: `${apiUrl}/pbx`,
      tenant: `${apiUrl}/t/{ma_dn}`, telecom: `${apiUrl}/telecom`,
    },
    remotes: Object.fromEntries(REMOTES.map((r) => [r.id, `http://${host}:${webPort + r.offset}/mf-manifest.json`])),
  };
}

/**
 * The host and the five remotes served as startStack serves them (static servers on webPort and
 * webPort + each remote's offset, config.json and the security headers built from one runtime
 * config), for an API that startStack does not run: `apiUrl` is what config.json names, e.g. a proxy
 * in front of several API instances (e2e/support/pair.ts). sipWebSockets: the softphone's SIP
 * WebSocket URLs the page may connect to. Resolves once every server listens.
 */
export async function serveWeb({ webPort, apiUrl, sipWebSockets = [] }) {
  const runtime = runtimeConfig({ apiUrl, webPort });
  const config = Buffer.from(JSON.stringify(runtime, null, 2));
  const headers = securityHeaders(contentSecurityPolicy(runtime, { sipWebSockets }));
  const servers = [];
  const stop = async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(() => r()));
    }
  };
  try {
    servers.push(await serveStatic({ dir: join(ROOT, 'host', 'dist'), port: webPort, spa: true, overrides: { '/config.json': config }, headers }));
    for (const r of REMOTES) servers.push(await serveStatic({ dir: join(ROOT, r.dir, 'dist'), port: webPort + r.offset, headers }));
  } catch (e) {
    await stop();
    throw e;
  }
  return { webUrl: `http://127.0.0.1:${webPort}`, stop };
}

async function waitFor(url, ms, proc) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc && proc.exitCode !== null) throw new Error(`API exited with code ${proc.exitCode}`);
    try { if ((await fetch(url)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/**
 * The API as its own process (node with tsx's loader). log: a file its output (stdout and stderr) is
 * appended to, instead of this terminal (a test that starts several instances keeps each one's apart).
 */
export function startApi({ port, databaseUrl, dataDir, env = {}, quiet = false, log }) {
  // The test clock comes only from the caller's `env` (e2e), never from the shell npm start runs in.
  const { TONGDAI_TEST_CLOCK: _inherited, ...inherited } = process.env;
  // node with tsx's loader, not tsx's CLI: the CLI forks, and a signal to it would leave the API
  // itself running (holding its ports) while a supervisor started another.
  // API_CPU_PROF=<dir> (benches): the API writes a V8 CPU profile there when it stops.
  const out = log ? openSync(log, 'a') : null;
  const proc = spawn(process.execPath, [...(process.env.API_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.API_CPU_PROF] : []), '--import', 'tsx', join(ROOT, 'api', 'src', 'main.ts')], {
    cwd: join(ROOT, 'api'),
    env: {
      ...inherited, ...env, PORT: String(port), HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...(dataDir ? { DATA_DIR: dataDir } : {}),
    },
    stdio: out !== null ? ['ignore', out, out] : quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (out !== null) closeSync(out);
  // Taken down with this process, as the daemons are (daemon.mjs): an e2e run whose spec failed to load ended
  // without its teardown, and its API kept the stack's port (the next run's setup met its data: 409).
  const stopWithUs = () => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM'); };
  process.once('exit', stopWithUs);
  proc.once('exit', () => process.off('exit', stopWithUs));
  return proc;
}

/**
 * npm start's supervision (issue 41): a process of the stack that fails (a non-zero exit, a signal)
 * is started again, with a line in the log, after 1 s, doubling up to 30 s while it keeps dying within
 * a minute of its start. `launch` starts it and resolves to something with `stop()` and `exited` (a
 * promise of how it ended). Without `enabled` it is started once and left alone (the tests restart
 * and freeze Kamailio on purpose). Resolves once the first start succeeded; a first start that
 * fails throws, as without supervision.
 */
export async function supervised(name, launch, { enabled = true, log = (line) => console.error(line) } = {}) {
  let current = await launch();
  let stopped = false;
  let delay = 1000;
  let timer = null;
  let startedAt = Date.now();
  /** A start again in progress: a stop waits for it and stops what it started (else that outlives the stop). */
  let relaunch = null;
  const watch = () => {
    if (!enabled) return;
    const mine = current;
    mine.exited.then((how) => {
      // Exit 0 is a stop it was asked for (Ctrl+C reaches the API too): only a failure is restarted.
      if (stopped || current !== mine || how === 0) return;
      if (Date.now() - startedAt > 60_000) delay = 1000;
      log(`[giám sát] ${name} đã dừng (${how}); khởi động lại sau ${delay / 1000} s`);
      schedule();
    });
  };
  const schedule = () => {
    timer = setTimeout(async () => {
      if (stopped) return;
      try {
        startedAt = Date.now();
        relaunch = launch();
        current = await relaunch;
        if (stopped) return void (await current.stop());
        log(`[giám sát] ${name} đã chạy lại`);
        watch();
      } catch (e) {
        if (stopped) return;
        log(`[giám sát] ${name} không khởi động lại được: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
        schedule();
      } finally {
        relaunch = null;
      }
    }, delay);
    delay = Math.min(delay * 2, 30_000);
  };
  watch();
  return {
    current: () => current,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Started again but not yet answering (the supervisor still waits on it): the new process,
      // not the dead one, is what must end (faults-supervisor: a worker alive after the stop).
      if (relaunch) await relaunch.then((started) => started.stop(), () => undefined);
      await current.stop();
    },
  };
}

/**
 * SIP ports of a stack: WebSocket on apiPort + 88, UDP on apiPort + 89; API internal listener on
 * apiPort + 1; Kamailio's call events (evapi, the API connects) on apiPort + 87; the media
 * worker's SIP (UDP) on apiPort + 91.
 */
export function sipPorts(apiPort) {
  return { wsPort: apiPort + 88, udpPort: apiPort + 89, internalPort: apiPort + 1, evapiPort: apiPort + 87, mediaPort: apiPort + 91 };
}

/** rtpengine of a stack: ng control on apiPort + 90, media ports in a block of 100 per API port. */
export function rtpPorts(apiPort) {
  const portMin = 30_000 + (apiPort % 250) * 100;
  return { ngPort: apiPort + 90, portMin, portMax: portMin + 99 };
}

/**
 * Kamailio for a stack, restartable in place (the softphone tests restart it), with rtpengine
 * beside it when installed (trunk calls to browsers need it; it keeps running across Kamailio
 * restarts). Failing to start them is reported, not fatal: the admin screens work without SIP.
 * internalSecret: the API's INTERNAL_SECRET, presented by Kamailio and the media worker. Carriers
 * come from the tenants' switchboards in the database (ADR 0036), not from the stack. demoCarrier:
 * run the demo carrier (npm start) before Kamailio, so the switchboard's first REGISTER finds it.
 * floodDensity: Kamailio's flood limit for this stack (requests per 2 s from one address; 16 when
 * not given): a stack whose own load generators share an address with everything else (the bench)
 * sets the limit it needs, the product's default stays.
 */
function sipRunner({ apiPort, quiet, internalSecret, demoCarrier, floodDensity, trunkAllowedNetworks, outboxDir, supervise = false }) {
  const { wsPort, udpPort, internalPort, evapiPort, mediaPort } = sipPorts(apiPort);
  const dir = mkdtempSync(join(tmpdir(), `tongdai-kamailio-${apiPort}-`));
  const apiInternalUrl = `http://127.0.0.1:${internalPort}/internal/sip`;
  let running = null;
  let media = null;
  let worker = null;
  let carrier = null;
  const start = async () => {
    if (demoCarrier && !carrier) {
      try {
        carrier = await supervised('Nhà mạng demo', () => startDemoCarrier({ apiPort, proxyPort: udpPort, log: join(dir, 'demo-carrier.log') }), { enabled: supervise });
      } catch (e) {
        console.error(`The demo carrier did not start; calls to mobiles have nowhere to go: ${e instanceof Error ? e.message : e}`);
      }
    }
    if (!worker && mediaAvailable()) {
      try {
        worker = await supervised('Máy chủ âm thanh', () => startMediaWorker({ port: mediaPort, apiInternalUrl, internalSecret, proxyPort: udpPort, log: join(dir, 'media.log') }), { enabled: supervise });
      } catch (e) {
        console.error(`The media worker did not start; greetings, IVR and queues answer 480: ${e instanceof Error ? e.message : e}`);
      }
    }
    if (!media && rtpengineAvailable()) {
      try {
        media = await startRtpengine({ ...rtpPorts(apiPort), dir: join(dir, 'rtpengine') });
      } catch (e) {
        console.error(`rtpengine did not start; trunk calls to browsers will fail: ${e instanceof Error ? e.message : e}`);
      }
    }
    const workerAddress = worker?.current().address;
    running = await supervised('Kamailio', () => startKamailio({ wsPort, udpPort, apiInternalUrl, internalSecret, dir, evapiPort, floodDensity, trunkAllowedNetworks, outboxDir, mediaWorkers: workerAddress ? [workerAddress] : [], ...(media ? { rtpengine: media.sock } : {}) }), { enabled: supervise });
    if (!quiet) console.log(`Kamailio on ${running.current().wsUrl} (udp 127.0.0.1:${udpPort}), log ${running.current().log}${media ? `; rtpengine ${media.sock}` : ''}${workerAddress ? `; media worker udp ${workerAddress}` : ''}`);
  };
  const stop = async () => {
    await running?.stop();
    running = null;
  };
  return {
    wsUrl: `ws://127.0.0.1:${wsPort}`, udpPort, dir, start, stop,
    mediaAddress: () => worker?.current().address ?? null,
    // The processes running now (a supervised one started again has a new pid): the soak bench reads their memory.
    pids: () => ({ kamailio: running?.current().pid ?? null, mediaWorker: worker?.current().pid ?? null, rtpengine: media?.pid ?? null }),
    demoCarrier: () => {
      const c = carrier?.current();
      return c ? { address: c.address, controlUrl: c.controlUrl, log: c.log } : null;
    },
    restart: async () => { await stop(); await start(); },
    // A hung server (frozen, not gone): its sockets stay open and nothing answers. Kamailio runs
    // as its own process group (spawnDaemon: detached), every worker process is frozen with it.
    freeze: (frozen) => {
      if (running) process.kill(-running.current().pid, frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    cleanup: async () => {
      await stop();
      await media?.stop();
      media = null;
      await worker?.stop();
      worker = null;
      await carrier?.stop();
      carrier = null;
      // KEEP_SIP_LOGS=1 keeps kamailio.log, media.log and rtpengine's files for a look afterwards.
      if (process.env.KEEP_SIP_LOGS) console.log(`SIP logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The ports of a stack's own services beyond those the API knows from its environment (its own,
 * the internal listener, Kamailio's): rtpengine's control and the media worker. Tenants' switchboards
 * may never point there (ADR 0043).
 */
export function servicePorts(apiPort) {
  return [rtpPorts(apiPort).ngPort, sipPorts(apiPort).mediaPort].join(',');
}

/**
 * demoCarrier: run the demo carrier beside Kamailio and let the API seed the demo tenant's switchboard
 * to it (npm start). floodDensity: Kamailio's flood limit (see sipRunner). trunkAllowedNetworks: the
 * operator's TRUNK_ALLOWED_NETWORKS for this stack (the API's host policy and Kamailio's, ADR 0043):
 * networks tenants' switchboards may use although private or loopback. None unless the caller says
 * so; npm start and the test stacks list 127.0.0.1/32 for their carriers on loopback (the demo carrier, sipp).
 * supervise: restart what dies (npm start, issue 41; `supervised`).
 * releasesDir: a releases folder (npm run release / promote, docs/adr/0053): the host's server also
 * serves /releases/<package>/<version>/… (immutable) and /registry.json (no-cache, read on every
 * request: a promotion is seen at the next page load), and config.json names "registry": "/registry.json".
 * @param {{ webPort?: number, apiPort?: number, databaseUrl?: string, dataDir?: string, quiet?: boolean, apiEnv?: Record<string,string>, sip?: boolean, demoCarrier?: boolean, floodDensity?: number, trunkAllowedNetworks?: string, supervise?: boolean, releasesDir?: string }} o
 */
export async function startStack(o = {}) {
  const webPort = o.webPort ?? 3000;
  const apiPort = o.apiPort ?? 4000;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  // One secret per run, shared by the API's internal listener, Kamailio and the media worker (ADR 0019).
  const internalSecret = o.apiEnv?.INTERNAL_SECRET ?? randomBytes(32).toString('base64url');
  const withSip = o.sip ?? kamailioAvailable();
  const demoCarrier = !!(o.demoCarrier && withSip && demoCarrierAvailable());
  const trunkAllowedNetworks = o.trunkAllowedNetworks ?? '';
  const supervise = !!o.supervise;
  // Kamailio's outbox on disk (ADR 0046) beside the API's data: npm start (no dataDir: the API's
  // DATA_DIR, else <repo>/.data) keeps the call events no API acknowledged across its own restarts.
  const outboxDir = o.dataDir ? join(o.dataDir, 'kamailio-outbox') : supervise ? join(process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : join(ROOT, '.data'), 'kamailio-outbox') : undefined;
  const sip = withSip ? sipRunner({ apiPort, quiet: o.quiet, internalSecret, demoCarrier, floodDensity: o.floodDensity, trunkAllowedNetworks, outboxDir, supervise }) : null;
  const ports = sipPorts(apiPort);
  const sipEnv = {
    INTERNAL_PORT: String(ports.internalPort),
    INTERNAL_SECRET: internalSecret,
    TRUNK_ALLOWED_NETWORKS: trunkAllowedNetworks,
    PBX_SERVICE_PORTS: servicePorts(apiPort),
    // KAMAILIO_SIP: where the API sends voicemail's message-waiting NOTIFYs (issue 16).
    ...(sip ? { SIP_WS_URL: sip.wsUrl, KAMAILIO_EVAPI: `127.0.0.1:${ports.evapiPort}`, KAMAILIO_SIP: `127.0.0.1:${sip.udpPort}` } : {}),
    ...(demoCarrier ? demoCarrierEnv(apiPort) : {}),
  };
  // The API: answering /health counts as started (a restart too: migrations and seeds run again).
  const launchApi = async () => {
    const proc = startApi({ port: apiPort, databaseUrl: o.databaseUrl, dataDir: o.dataDir, env: { ...sipEnv, ...o.apiEnv }, quiet: o.quiet });
    const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
    const stop = async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    };
    try {
      // Generous: on a loaded machine (CI runners shared with builds) migrations + seeding took over 60 s.
      await waitFor(`${apiUrl}/health`, 180_000, proc);
    } catch (e) {
      await stop();
      throw e;
    }
    return { proc, exited, stop };
  };
  const apiStarted = supervised('API', launchApi, { enabled: supervise });
  apiStarted.catch(() => undefined);
  let api;
  const servers = new Map();
  const runtime = runtimeConfig({ apiUrl, webPort, registry: o.releasesDir ? '/registry.json' : undefined });
  const config = Buffer.from(JSON.stringify(runtime, null, 2));
  // One policy for the host's page, from the same config it reads; the remotes' files get the rest too.
  const headers = securityHeaders(contentSecurityPolicy(runtime, { sipWebSockets: sip ? [sip.wsUrl] : [] }));
  const startRemote = async (id) => {
    const r = REMOTES.find((x) => x.id === id);
    servers.set(id, await serveStatic({ dir: join(ROOT, r.dir, 'dist'), port: webPort + r.offset, headers }));
  };
  const stopRemote = (id) => new Promise((resolve) => {
    const s = servers.get(id);
    servers.delete(id);
    if (!s) return resolve();
    s.closeAllConnections();
    s.close(() => resolve());
  });
  try {
    const releases = o.releasesDir ? releaseRoutes(resolve(o.releasesDir)) : {};
    servers.set('host', await serveStatic({ dir: join(ROOT, 'host', 'dist'), port: webPort, spa: true, overrides: { '/config.json': config }, headers, ...releases }));
    await Promise.all(REMOTES.map((r) => startRemote(r.id)));
    api = await apiStarted;
  } catch (e) {
    await (await apiStarted.catch(() => null))?.stop();
    for (const id of servers.keys()) await stopRemote(id);
    throw e;
  }
  let sipError = null;
  if (sip) {
    try {
      await sip.start();
    } catch (e) {
      sipError = e instanceof Error ? e.message : String(e);
      console.error(`Kamailio did not start; the softphone stays offline: ${sipError}`);
    }
  }
  const stop = async () => {
    await sip?.cleanup();
    for (const id of [...servers.keys()]) await stopRemote(id);
    await api.stop();
  };
  const sipInfo = sip && !sipError ? { wsUrl: sip.wsUrl, udpPort: sip.udpPort, dir: sip.dir, restart: sip.restart, stop: sip.stop, start: sip.start, freeze: sip.freeze, mediaAddress: sip.mediaAddress, pids: sip.pids, demoCarrier: sip.demoCarrier, internalSecret } : null;
  return {
    webUrl: `http://127.0.0.1:${webPort}`, apiUrl, stop, stopRemote, startRemote, sip: sipInfo, sipError,
    /** The API's process now (a supervised stack's restarts replace it). */
    get api() { return api.current().proc; },
  };
}
