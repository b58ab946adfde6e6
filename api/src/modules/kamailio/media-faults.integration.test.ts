import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MONITOR_API, type CallReportRow, type MonitorSnapshot } from '@tongdai/contracts';
import type { RunningKamailio } from '../../../../scripts/lib/kamailio.mjs';
import type { RunningMediaWorker } from '../../../../scripts/lib/media.mjs';
import { LOOPBACK_CARRIERS, demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import { registerDemoPhones } from '../../../test/call-plane';
import { until } from '../../../test/api-process';
import { mp3Channels } from '../../../test/mp3-channels';
import { kamailioLib, mediaLib } from '../../../test/script-libs';
import { pbxConfigChanged } from '../pbx/config-cache';
import { buildInternalServer } from '../sip/internal-server';
import type { CdrRow } from '../cdr/cdr';
import { Ear, toneUlaw } from '@tongdai/testkit/rtp-ear';
import { carrierScenario, listeningCallerScenario, ringScenario, runSipp, sippInstalled, talkingPhoneScenario } from '@tongdai/testkit/sipp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { waitUdpBound } from '@tongdai/testkit/udp';

/**
 * A media worker killed (SIGKILL) while it holds calls (issue 41, ADR 0046 "A call no media server
 * could take", ADR 0041 "What a dead worker keeps"). Real processes: Kamailio, one media worker
 * (started the way npm start starts it, on a spool folder of this run), sipp carriers and phones.
 * A recorded call keeps what was recorded up to the kill, handed over by the worker started again;
 * calls whose leg still rings end at the fault, the phones ringing for them cancelled.
 */
const mediaInstalled = () => existsSync(resolve(__dirname, '../../../../media/node_modules/tsx'));
const MONDAY_MORNING = '2024-06-10T09:00:00+07:00';
const LOST = /ngừng hoạt động giữa cuộc gọi/;
/** How long the recorded call talks before the kill. */
const TALK_MS = 4000;

describe('a media worker killed while it holds calls (Kamailio + worker + sipp)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled(), media: mediaInstalled() }, 'sudo node scripts/lib/system.mjs test; pnpm install (media worker)');
  let t: TestApp;
  let internal: FastifyInstance;
  let kamailio: RunningKamailio;
  let worker: RunningMediaWorker;
  let dir: string;
  let tenantId: number;
  let sipUdp: number;
  let workerPort: number;
  let startWorker: () => Promise<RunningMediaWorker>;
  let freeMediaPort: () => Promise<number>;
  let headers: ReturnType<typeof demoHeaders>;
  const phonePort: Record<'101' | '102', number> = { '101': 0, '102': 0 };
  /** Two carriers' addresses (switchboards of the demo tenant): one sipp caller each at a time. */
  const carrierPort = { a: 0, b: 0 };
  const running: { stop(): void }[] = [];
  const track = <T extends { stop(): void }>(run: T): T => (running.push(run), run);

  const api = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: (await headers).admin, payload });
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const kamcmd = (...args: string[]) => execFileSync('kamcmd', ['-s', `unix:${kamailio.ctlSocket}`, ...args]).toString();
  /** Kamailio's dispatcher counts the worker in (it answered a ping) or out (two went unanswered). */
  const workerActive = () => /FLAGS:\s*A/.test(kamcmd('dispatcher.list'));
  /** Kamailio's dialogs in progress (an ended one, state 5, stays listed a few seconds and is not a call). */
  const dialogs = () => [...kamcmd('dlg.list').matchAll(/call-id:\s*(\S+)[\s\S]*?\bstate:\s*(\d+)/gi)].filter((m) => m[2] !== '5').map((m) => m[1]);
  const snapshot = async (): Promise<MonitorSnapshot> => (await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: (await headers).admin })).json().data;

  /** The newest record of this caller, once the API has written it. */
  const cdrOf = (caller: string) =>
    until(`the record of ${caller}`, async () => (await t.db.withTenant(tenantId, (tx) => tx.query<CdrRow>('select * from cdrs where caller = $1 order by id desc limit 1', [caller]))).rows[0], (r) => !!r, 10_000);
  const recordingRow = async (callId: string) =>
    (await t.db.withTenant(tenantId, (tx) => tx.query<{ id: number; duration_seconds: string; storage_key: string }>('select id, duration_seconds, storage_key from call_recordings where call_id = $1', [callId]))).rows[0];

  /** A carrier's caller on `did` who listens (an Ear) and stays until the PBX ends the call. */
  const heldCaller = (o: { carrier: 'a' | 'b'; did: string; caller: string; ear: Ear }) =>
    track(runSipp({
      dir,
      name: `caller-${o.caller}`,
      xml: listeningCallerScenario({ keys: [], talkMs: 0, remoteHangsUp: true }),
      args: [`127.0.0.1:${sipUdp}`, '-i', '127.0.0.1', '-p', String(carrierPort[o.carrier]), '-s', o.did, '-m', '1', '-l', '1'],
      keys: { caller: o.caller, at: MONDAY_MORNING, rtp_port: String(o.ear.port) },
      timeoutS: 40,
    }));
  const phone = async (ext: '101' | '102', xml: string, args: string[] = []) => {
    const run = track(runSipp({ dir, name: `phone-${ext}`, xml, args: ['-i', '127.0.0.1', '-p', String(phonePort[ext]), '-m', '1', ...args], timeoutS: 40 }));
    if (!(await waitUdpBound(phonePort[ext]))) throw new Error(`${ext}'s sipp phone did not bind`);
    return run;
  };
  /** SIGKILL, then Kamailio's dispatcher takes it out (two pings unanswered: about 4–8 s). */
  async function killWorker(): Promise<number> {
    worker.kill();
    const at = Date.now();
    await until('the dispatcher takes the dead worker out', workerActive, (a) => !a, 15_000);
    return at;
  }

  beforeAll(async () => {
    t = await startTestApp({ switchboardHosts: loopbackCarrierHosts() });
    headers = demoHeaders(t.app);
    const lib = await kamailioLib();
    const media = await mediaLib();
    freeMediaPort = () => lib.freeMediaPort();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-media-faults-'));
    process.env.RECORDINGS_DIR = join(dir, 'recordings');
    const evapiPort = await lib.freeTcpPort();
    internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub, testClock: true, cdrFlushMs: 20, switchboardsTtlMs: 100, reconcileGraceMs: 60_000, evapi: `127.0.0.1:${evapiPort}`, switchboardHosts: t.app.deps.switchboardHosts } });
    await internal.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(internal.server.address() as { port: number }).port}/internal/sip`;
    sipUdp = await lib.freeUdpPort();
    for (const ext of ['101', '102'] as const) phonePort[ext] = await lib.freeUdpPort();
    for (const c of ['a', 'b'] as const) carrierPort[c] = await lib.freeUdpPort();
    workerPort = await lib.freeUdpPort();
    const internalSecret = process.env.INTERNAL_SECRET!;
    kamailio = await lib.startKamailio({ wsPort: await lib.freeTcpPort(), udpPort: sipUdp, apiInternalUrl: apiUrl, internalSecret, dir, evapiPort, trunkAllowedNetworks: LOOPBACK_CARRIERS, mediaWorkers: [`127.0.0.1:${workerPort}`] });
    // The same port and spool folder each time: a worker started again is this worker back.
    let n = 0;
    startWorker = () => media.startMediaWorker({ port: workerPort, apiInternalUrl: apiUrl, internalSecret, proxyPort: sipUdp, log: join(dir, `media-${++n}.log`), spoolDir: join(dir, 'spool') });
    worker = await startWorker();

    tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    await t.db.withTenant(tenantId, async (tx) => {
      for (const c of ['a', 'b'] as const) await insertSwitchboard(tx, tenantId, { name: `carrier-${c}`, port: carrierPort[c] });
      // 101 records the calls it takes (ADR 0041): a call to it goes through the worker's bridge.
      await tx.query("update subscribers set recording_mode = 'inbound' where extension = '101'");
    });
    // 02873008001 → 101 (recorded); 02873008002 → a queue of 102 that rings it 30 s.
    const queue = await api('/pbx/partner/queues?CodeCompany=demo', { name: 'Hàng đợi máy chủ chết', agents: ['102'], strategy: 'linear', agent_timeout: 30, max_wait: 60 });
    for (const [did, destination] of [
      ['02873008001', { type: 'direct', target: '101' }],
      ['02873008002', { type: 'queue', target: String(queue.id) }],
    ] as const) {
      await api('/pbx/partner/number?CodeCompany=demo', { number: did });
      await api('/pbx/partner/inbound?CodeCompany=demo', { did, destination });
    }
    pbxConfigChanged(tenantId);
    await registerDemoPhones(internal, sipUdp, phonePort);
    // The worker counted in by Kamailio's next ping (2 s), the carriers' addresses by its next look (3 s).
    await new Promise((r) => setTimeout(r, 3500));
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

  it('killed during a recorded call: the record ends at the fault, and the worker started again hands over the audio up to the kill, linked to the call', async () => {
    writeFileSync(join(dir, 'phone-101.ulaw'), toneUlaw(30, 1000));
    // 101 answers and talks (1 kHz) until the PBX hangs up; the caller says 440 Hz.
    const p101 = await phone('101', talkingPhoneScenario('phone-101.ulaw', 300), ['-mi', '127.0.0.1', '-mp', String(await freeMediaPort())]);
    const ear = await Ear.open();
    const caller = heldCaller({ carrier: 'a', did: '02873008001', caller: '0902410001', ear });
    // Bridged: 101's voice reaches the caller through the worker, which records both.
    await until('the caller hears 101', () => ear.tone(1000, Date.now() - 300, Date.now()), (p) => p > 1e5, 15_000);
    // The worker records what it forwards: from here at the latest (the answer's time in the record may come
    // well before it on a loaded machine: ci3 of 2026-11-29, load 12, 2.81 s kept of 4.33 s since the answer).
    const heardAt = Date.now();
    void ear.speak(440, 20_000);
    await new Promise((r) => setTimeout(r, TALK_MS));
    const killedAt = await killWorker();
    // Kamailio ends the call on both sides (the worker cannot).
    expect((await caller.done).code).toBe(0);
    expect((await p101.done).code).toBe(0);
    ear.close();
    const cdr = await cdrOf('0902410001');
    expect(cdr).toMatchObject({ disposition: 'FAILED', extension: '101', reason: expect.stringMatching(LOST) });
    expect(new Date(cdr.ended_at).getTime()).toBeGreaterThanOrEqual(killedAt - 1000);
    const recorded = (killedAt - new Date(cdr.answered_at ?? cdr.started_at).getTime()) / 1000;
    // Nobody handed anything over yet: the worker is dead, its spool on disk.
    expect(await recordingRow(cdr.call_id)).toBeUndefined();
    const left = readdirSync(join(dir, 'spool'));
    expect(left).toHaveLength(2);
    expect(left).toEqual(expect.arrayContaining([expect.stringMatching(/\.json$/), expect.stringMatching(/\.ulaw$/)]));

    const restartedAt = Date.now();
    worker = await startWorker();
    const rec = await until('the recording handed over by the worker started again', () => recordingRow(cdr.call_id), (r) => !!r, 10_000);
    const handedMs = Date.now() - restartedAt;
    const seconds = Number(rec.duration_seconds);
    const { channels, sampleRate } = mp3Channels(join(dir, 'recordings', rec.storage_key));
    const fileSeconds = channels[0].length / sampleRate;
    console.log(`recorded ${recorded.toFixed(2)} s until the kill; the spool kept ${seconds.toFixed(2)} s (file ${fileSeconds.toFixed(2)} s), handed over ${handedMs} ms after the restart`);
    // What was recorded up to the kill, less at most the half second the recorder had not yet written and
    // the jitter it holds back: the recorder writes the audio itself, however far behind its encoder
    // thread is (a worker starved of CPU, ci5 of 2026-11-26, had spooled its MP3 up to 0.72 s of 4.29).
    expect(seconds).toBeGreaterThan((killedAt - heardAt) / 1000 - 1.5);
    expect(seconds).toBeLessThanOrEqual(recorded + 0.5);
    expect(Math.abs(fileSeconds - seconds)).toBeLessThan(0.3);
    // The voices all along: the caller's 440 Hz left, 101's 1 kHz right.
    const rms = (c: Float32Array) => {
      const x = c.subarray(Math.round(0.5 * sampleRate), Math.round((fileSeconds - 0.5) * sampleRate));
      return Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length) * 32767;
    };
    expect(rms(channels[0])).toBeGreaterThan(2000);
    expect(rms(channels[1])).toBeGreaterThan(2000);
    // The call's record points to it (call history, as a user with recording.listen reads it).
    const res = await t.app.inject({ url: '/t/demo/reports/call-history?per_page=20', headers: (await headers).admin });
    const row = (res.json().data as CallReportRow[]).find((r) => r.caller === '0902410001');
    expect(row).toMatchObject({ result: 'failed', recording: { id: rec.id, duration_seconds: seconds } });
    // The spool is empty once the API has the file.
    await until('the spool emptied', () => readdirSync(join(dir, 'spool')), (f) => f.length === 0, 5000);
  }, 40_000);

  it('killed while a queue agent and a recorded call\'s callee ring: both calls end at the fault, the phones stop ringing, nothing is left live', async () => {
    await until('the dispatcher counts the worker in again', workerActive, (a) => a, 10_000);
    // 102 rings for the queue (30 s), 101 for the recorded call (its bridge): neither answers.
    const p102 = await phone('102', ringScenario());
    const p101 = await phone('101', ringScenario());
    const ear = await Ear.open();
    const queued = heldCaller({ carrier: 'a', did: '02873008002', caller: '0902410002', ear });
    // The bridge's caller has only a 180 from the worker: at the fault it gets a final answer.
    const bridged = track(runSipp({
      dir,
      name: 'caller-bridge',
      xml: carrierScenario(480),
      args: [`127.0.0.1:${sipUdp}`, '-i', '127.0.0.1', '-p', String(carrierPort.b), '-s', '02873008001', '-m', '1', '-l', '1'],
      keys: { caller: '0902410003', at: MONDAY_MORNING },
      timeoutS: 40,
    }));
    await until('102 and 101 ring', async () => (await snapshot()).calls.flatMap((c) => c.ringing ?? []).sort(), (r) => r.join() === '101,102', 15_000);
    const killedAt = await killWorker();
    // Both phones cancelled, both callers answered at once — not after 102's 30 s ring time.
    const ends = await Promise.all([queued.done, bridged.done, p102.done, p101.done].map((p) => p.then((r) => ({ code: r.code, ms: Date.now() - killedAt }))));
    ear.close();
    console.log(`after the kill: queue caller ${ends[0].ms} ms, bridge caller ${ends[1].ms} ms, 102 cancelled ${ends[2].ms} ms, 101 ${ends[3].ms} ms`);
    expect(ends.map((e) => e.code)).toEqual([0, 0, 0, 0]);
    for (const e of ends) expect(e.ms).toBeLessThan(12_000);
    // Each recorded FAILED with the reason, ended at the fault (the dispatcher's notice of it), not
    // when a ring time ran out. The queue's caller was answered by the PBX (its music): billed up to
    // the fault, as a carrier bills it; the bridge's caller was never answered.
    const [queue, bridge] = [await cdrOf('0902410002'), await cdrOf('0902410003')];
    for (const cdr of [queue, bridge]) {
      expect(cdr).toMatchObject({ disposition: 'FAILED', reason: expect.stringMatching(LOST) });
      expect(new Date(cdr.ended_at).getTime()).toBeGreaterThanOrEqual(killedAt - 1000);
      expect(new Date(cdr.ended_at).getTime()).toBeLessThanOrEqual(killedAt + ends[0].ms);
    }
    expect(queue.billsec).toBeLessThanOrEqual(Math.ceil((new Date(queue.ended_at).getTime() - new Date(queue.answered_at!).getTime()) / 1000));
    expect(bridge).toMatchObject({ answered_at: null, billsec: 0, extension: '101' });
    // Nothing live: not on the wall, not in Kamailio.
    await until('the wall and Kamailio empty', async () => [(await snapshot()).calls.length, dialogs().length], ([w, k]) => w === 0 && k === 0, 5000);
  }, 40_000);
});
