import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MONITOR_API, type MonitorSnapshot } from '@tongdai/contracts';
import type { RunningKamailio } from '../../../../scripts/lib/kamailio.mjs';
import type { RunningMediaWorker } from '../../../../scripts/lib/media.mjs';
import { INTERNAL_HEADERS, LOOPBACK_CARRIERS, demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import { registerDemoPhones } from '../../../test/call-plane';
import { kamailioLib, mediaLib } from '../../../test/script-libs';
import { pbxConfigChanged } from '../pbx/config-cache';
import { buildInternalServer } from '../sip/internal-server';
import { cancellingCallerScenario, carrierScenario, PCMA_ONLY_SDP, ringScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { toneWav } from '@tongdai/testkit/wav';

/**
 * No ghost calls under a burst (issue 30): many calls that fail in different ways at once — refused
 * by the plan, cancelled by the caller, timed out ringing, nothing to ring, refused by the media
 * worker — each leave
 * the live state (/monitor's snapshot) within a second of their final answer; while calls are up the
 * live state holds exactly Kamailio's dialogs, and after the burst neither holds anything. Real
 * processes: Kamailio, a media worker, sipp carriers and phones. The reconciliation with Kamailio's
 * dialog snapshots (every 5 s) is given a minute's grace here, so what is measured is the immediate
 * path (each failure's own event), not the sweep behind it.
 */
const mediaInstalled = () => existsSync(resolve(__dirname, '../../../../media/node_modules/tsx'));
const DOMAIN = 'demo.tongdai.local';
const MONDAY_MORNING = '2024-06-10T09:00:00+07:00';
/**
 * Calls per failing kind, offered at this many per second (the five kinds at once: 40 calls a second). At 15 a
 * second each (75 a second) the API inside this Jest process, beside the e2e suite and the API's other suites at
 * load 13–14, took over Kamailio's 2 s to plan a call in two of three whole runs of the thirty-third session (503
 * "Routing Unavailable": the sipp carrier fails); what this suite judges is that every failed call leaves the live
 * state, which the API's speed at plans under that load does not change.
 */
const BURST = 15;
const RATE = 8;

/** One kind of call of the burst: its DID, its caller number (how the snapshot tells it apart), its scenario. */
interface Kind {
  name: string;
  did: string;
  caller: string;
  xml: string;
  calls: number;
}

describe('no ghost calls after a burst of failures (Kamailio + media worker + sipp)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled(), media: mediaInstalled() }, 'sudo node scripts/lib/system.mjs test; pnpm install (media worker)');
  let t: TestApp;
  let internal: FastifyInstance;
  let kamailio: RunningKamailio;
  let worker: RunningMediaWorker;
  let dir: string;
  let sipUdp: number;
  let headers: ReturnType<typeof demoHeaders>;
  /** 101 registers (for the API) with nothing behind its contact; 102 is a sipp phone that rings. */
  const phonePort: Record<'101' | '102', number> = { '101': 0, '102': 0 };
  /** The carrier's address of each kind: one switchboard each (a sipp process binds its port). */
  const carrierPort: Record<string, number> = {};

  const api = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: (await headers).admin, payload });
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const snapshot = async (): Promise<MonitorSnapshot> => (await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: (await headers).admin })).json().data;
  /**
   * The Call-IDs of Kamailio's dialogs in progress now (kamcmd dlg.list): an ended dialog (state 5,
   * "deleted") stays listed a few seconds until the module frees it, and is not a call.
   */
  const dialogs = (): string[] =>
    [...execFileSync('kamcmd', ['-s', `unix:${kamailio.ctlSocket}`, 'dlg.list']).toString().matchAll(/call-id:\s*(\S+)[\s\S]*?\bstate:\s*(\d+)/gi)]
      .filter((m) => m[2] !== '5')
      .map((m) => m[1])
      .sort();
  const liveCallIds = async () => (await snapshot()).calls.map((c) => c.call_id).sort();
  /** How long after `since` the snapshot held no call of `caller` (ms), or -1 when it still did after 1 s. */
  async function goneWithin1s(caller: string, since: number): Promise<number> {
    while (Date.now() - since <= 1000) {
      if (!(await snapshot()).calls.some((c) => c.caller === caller)) return Date.now() - since;
      await new Promise((r) => setTimeout(r, 20));
    }
    return -1;
  }
  /** Every sipp of the test, stopped at the end whatever happened (a failed one leaves the others waiting). */
  const running: { stop(): void }[] = [];
  const track = <T extends { stop(): void }>(run: T): T => (running.push(run), run);
  const carrier = (k: Kind) =>
    track(runSipp({
      dir,
      name: k.name,
      xml: k.xml,
      args: [`127.0.0.1:${sipUdp}`, '-i', '127.0.0.1', '-p', String(carrierPort[k.name]), '-s', k.did, '-m', String(k.calls), '-r', String(RATE), '-l', String(k.calls)],
      keys: { caller: k.caller, at: MONDAY_MORNING },
      timeoutS: k === HELD ? HELD_S + 40 : 40,
    }));
  const phone = (ext: '102', calls: number) => track(runSipp({ dir, name: `phone-${ext}`, xml: ringScenario(), args: ['-i', '127.0.0.1', '-p', String(phonePort[ext]), '-m', String(calls)], timeoutS: 60 }));

  const KINDS: Kind[] = [
    // The plan refuses a blocked caller (603) before anything rings.
    { name: 'refused', did: '02873009003', caller: '0999888001', xml: carrierScenario(603), calls: BURST },
    // The caller gives up while 102 rings.
    { name: 'cancelled', did: '02873009003', caller: '0903100002', xml: cancellingCallerScenario(300), calls: BURST },
    // A ring group of 102 rings 5 s, nobody answers, nothing follows: the caller gets 408.
    { name: 'timeout', did: '02873009002', caller: '0903100003', xml: carrierScenario(408), calls: BURST },
    // 101 online for the API but gone from Kamailio's location: nothing to ring, Kamailio answers 480
    // itself before the call has a dialog (what the bench's flood left behind as ghosts).
    { name: 'unreachable', did: '02873009004', caller: '0903100006', xml: carrierScenario(480), calls: BURST },
    // The media worker refuses the IVR call: the carrier offers A-law only (488).
    // The worker refuses the A-law offer (488), or, at load 11 and more, Kamailio's 2 s for a worker's first answer run
    // out first (408, ci3 of the thirty-fourth session): either way a failed call, which must leave the live state.
    { name: 'worker', did: '02873009001', caller: '0903100004', xml: carrierScenario([488, 408], 300, PCMA_ONLY_SDP), calls: BURST },
  ];
  /**
   * Calls that are up through the burst: the IVR answers, the caller listens HELD_S (the menu waits
   * 60 s) and hangs up. Long enough for the burst on a loaded machine (ci1 of 2026-11-26 saw them
   * gone before a burst that outlasted 25 s).
   */
  const HELD_S = 45;
  const HELD: Kind = { name: 'held', did: '02873009001', caller: '0903100005', xml: carrierScenario(200, HELD_S * 1000), calls: 4 };

  beforeAll(async () => {
    t = await startTestApp({ switchboardHosts: loopbackCarrierHosts() });
    headers = demoHeaders(t.app);
    const lib = await kamailioLib();
    const media = await mediaLib();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-ghosts-'));
    const evapiPort = await lib.freeTcpPort();
    internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub, testClock: true, cdrFlushMs: 20, switchboardsTtlMs: 100, reconcileGraceMs: 60_000, evapi: `127.0.0.1:${evapiPort}`, switchboardHosts: t.app.deps.switchboardHosts } });
    await internal.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(internal.server.address() as { port: number }).port}/internal/sip`;
    sipUdp = await lib.freeUdpPort();
    for (const ext of ['101', '102'] as const) phonePort[ext] = await lib.freeUdpPort();
    for (const k of [...KINDS, HELD]) carrierPort[k.name] = await lib.freeUdpPort();
    const workerPort = await lib.freeUdpPort();
    const internalSecret = process.env.INTERNAL_SECRET!;
    // A burst from one address: a flood limit above it (the shipped 16 / 2 s is for one real source).
    kamailio = await lib.startKamailio({ wsPort: await lib.freeTcpPort(), udpPort: sipUdp, apiInternalUrl: apiUrl, internalSecret, dir, evapiPort, trunkAllowedNetworks: LOOPBACK_CARRIERS, mediaWorkers: [`127.0.0.1:${workerPort}`], floodDensity: 2000 });
    worker = await media.startMediaWorker({ port: workerPort, apiInternalUrl: apiUrl, internalSecret, proxyPort: sipUdp, log: join(dir, 'media.log') });

    const tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    await t.db.withTenant(tenantId, async (tx) => {
      for (const k of [...KINDS, HELD]) await insertSwitchboard(tx, tenantId, { name: `carrier-${k.name}`, port: carrierPort[k.name] });
    });
    const greeting = await t.db.withTenant(tenantId, async (tx) => {
      const wav = toneWav();
      const { rows } = await tx.query<{ id: number }>(
        "insert into pbx_audio (tenant_id, kind, name, file_name, mime, size_bytes, duration_seconds, bytes) values ($1, 'greeting', 'Lời chào burst', 'burst.wav', 'audio/wav', $2, 1, $3) returning id",
        [tenantId, wav.length, wav],
      );
      return rows[0].id;
    });
    const ivr = await api('/pbx/partner/ivr_detail?CodeCompany=demo', { name: 'Menu burst', greeting_id: greeting, entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }], timeout: 60, invalid_retries: 1 });
    const group = await api('/pbx/partner/group-inbounds?CodeCompany=demo', { name: 'Nhóm hết giờ', extensions: ['102'], strategy: 'ringall', ring_time: 5 });
    await api('/pbx/partner/blocked-in?CodeCompany=demo', { number: '0999888001', match: 'exact', note: 'Burst' });
    for (const [did, destination] of [
      ['02873009001', { type: 'ivr', target: String(ivr.id) }],
      ['02873009002', { type: 'group', target: String(group.id) }],
      ['02873009003', { type: 'direct', target: '102' }],
      ['02873009004', { type: 'direct', target: '101' }],
    ] as const) {
      await api('/pbx/partner/number?CodeCompany=demo', { number: did });
      await api('/pbx/partner/inbound?CodeCompany=demo', { did, destination });
    }
    pbxConfigChanged(tenantId);
    await registerDemoPhones(internal, sipUdp, phonePort);
    // The worker counted in by Kamailio's next ping (2 s), the carriers' addresses by its next look (3 s).
    await new Promise((r) => setTimeout(r, 3500));
    // 101's contact gone from Kamailio while the API still counts it registered (its end not heard yet).
    execFileSync('kamcmd', ['-s', `unix:${kamailio.ctlSocket}`, 'ul.rm', 'location', `101@${DOMAIN}`]);
  }, 60_000);

  afterAll(async () => {
    for (const r of running) r.stop();
    await worker?.stop();
    await kamailio?.stop();
    await internal?.close();
    await t?.close();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refused, cancelled, timed-out, unreachable and worker-refused calls in a burst each leave the live state within 1 s; the live state is Kamailio\'s dialogs, then nothing', async () => {
    // 102 rings for the cancelled calls and the ring group's (timed out): it never answers.
    const phones = [phone('102', 2 * BURST)];
    await new Promise((r) => setTimeout(r, 300));
    const held = carrier(HELD);
    const heldAt = Date.now();
    // The held calls are up before the failures start: dialogs in Kamailio, and followed by the API
    // (a caller in the IVR is on the wall as ringing: nobody has taken the call yet). The wait this
    // replaces looked for 'answered' calls, which never came, and gave up silently after 5 s.
    const up = async () => ({ live: (await snapshot()).calls.filter((c) => c.caller === HELD.caller).length, dialogs: dialogs().length });
    for (let i = 0; i < 200; i++) {
      const now = await up();
      if (now.live === HELD.calls && now.dialogs === HELD.calls) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await up()).toEqual({ live: HELD.calls, dialogs: HELD.calls });
    const bursts = KINDS.map((k) => ({ k, run: carrier(k) }));
    const left: Record<string, number> = {};
    await Promise.all(bursts.map(async ({ k, run }) => {
      const { code, output } = await run.done;
      if (code !== 0) throw new Error(`${k.name}: sipp exited ${code}\n${output.slice(-1500)}`);
      left[k.name] = await goneWithin1s(k.caller, Date.now());
    }));
    for (const k of KINDS) expect({ kind: k.name, leftWithinMs: left[k.name] >= 0 }).toEqual({ kind: k.name, leftWithinMs: true });

    // The burst over, the held calls still up: the live state is exactly Kamailio's dialogs.
    const burstS = (Date.now() - heldAt) / 1000;
    if (burstS > HELD_S - 2) throw new Error(`the burst took ${burstS.toFixed(1)} s, longer than the held calls (${HELD_S} s): nothing left to compare`);
    const still = await liveCallIds();
    expect(still.length).toBe(HELD.calls);
    expect(dialogs()).toEqual(still);

    expect((await held.done).code).toBe(0);
    // (Its error output with it when it failed: which message it waited for, or which one came instead.)
    for (const p of phones) {
      const { code, output } = await p.done;
      expect({ phone: code, output: code ? output.slice(-1500) : '' }).toEqual({ phone: 0, output: '' });
    }
    // Nothing left on either side within a second of the last caller hanging up.
    const endedAt = Date.now();
    expect(await goneWithin1s(HELD.caller, endedAt)).toBeGreaterThanOrEqual(0);
    expect(await liveCallIds()).toEqual([]);
    expect(dialogs()).toEqual([]);
    expect((await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/calls' })).json().active).toBe(0);
  }, 150_000);
});
