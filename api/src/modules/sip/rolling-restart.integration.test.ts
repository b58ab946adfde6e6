import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningKamailio } from '../../../../scripts/lib/kamailio.mjs';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { LOOPBACK_CARRIERS, seededDatabase } from '../../../test/helpers';
import { kamailioLib, mediaLib } from '../../../test/script-libs';
import { startApiProcess, until, type ApiProcess } from '../../../test/api-process';
import { testRedisUrl, stopTestRedis } from '../../../test/redis-server';
import { waitUdpBound } from '@tongdai/testkit/udp';
import { answerScenario, carrierScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { insertHotline, insertOutboundRule, insertSwitchboard } from '@tongdai/testkit/telecom-factory';

afterAll(stopTestRedis);

/**
 * A rolling restart of two API instances (issue 42, ADR 0059) with calls coming in: carrier calls
 * from sipp through Kamailio, forwarded by the hotline's route to a mobile number through a second
 * carrier (a sipp that answers). Kamailio and the worker know both instances; one holds the
 * call plane, the other stands by. The holder is stopped as a deploy stops it (SIGTERM) while calls
 * talk and more arrive; the other takes the calls over; the stopped one comes back as the standby; then
 * the same the other way round. No call may be refused, and every call gets exactly one record.
 */
const missing = [
  ...(['/usr/sbin/kamailio', '/usr/local/sbin/kamailio'].some((p) => existsSync(p)) ? [] : ['kamailio']),
  ...(sippInstalled() ? [] : ['sipp (Debian package sip-tester)']),
];

const DID = '02873009201';
const CALLS = 24;

describe('a rolling restart of two API instances while calls come in (sipp carrier + Kamailio + media worker)', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let db: Db;
  let kamailio: RunningKamailio;
  let worker: { stop(): Promise<void> } | null = null;
  const apis: (ApiProcess | null)[] = [null, null];
  let dir: string;
  let tenantId: number;
  let env: (i: number) => Record<string, string>;
  const ports = { api: [0, 0], internal: [0, 0], evapi: 0, sip: 0, carrier: 0, phone: 0, worker: 0 };

  beforeAll(async () => {
    if (missing.length) throw new Error(`The rolling restart test needs ${missing.join(' and ')}: node scripts/lib/system.mjs test installs them.`);
    fresh = await seededDatabase();
    db = await openDb({ databaseUrl: fresh.url });
    const redisUrl = await testRedisUrl();
    const lib = await kamailioLib();
    const media = await mediaLib();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-rolling-'));
    for (const i of [0, 1]) [ports.api[i], ports.internal[i]] = [await lib.freeTcpPort(), await lib.freeTcpPort()];
    ports.evapi = await lib.freeTcpPort();
    for (const k of ['sip', 'carrier', 'phone', 'worker'] as const) ports[k] = await lib.freeUdpPort();
    tenantId = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    // The hotline's calls go on to a mobile number through a second carrier (the answering sipp):
    // an extension takes one call at a time, and these come eight a second.
    await db.withTenant(tenantId, async (tx) => {
      const inbound = await insertSwitchboard(tx, tenantId, { name: 'nha-mang-a', port: ports.carrier });
      const outbound = await insertSwitchboard(tx, tenantId, { name: 'nha-mang-b', port: ports.phone });
      await insertHotline(tx, tenantId, DID, inbound, '101');
      await tx.query("update pbx_inbounds set destination_type = 'fw', destination_target = '0901234567' where did = $1", [DID]);
      await insertOutboundRule(tx, tenantId, { name: 'Di động', pattern: '09XXXXXXXX', switchboardIds: [outbound], callerId: DID });
    });
    const internalSecret = process.env.INTERNAL_SECRET!;
    const shared = {
      DATABASE_URL: fresh.url, REDIS_URL: redisUrl, JWT_SECRET: randomBytes(32).toString('hex'), SIP_PASSWORD_KEY: process.env.SIP_PASSWORD_KEY!,
      INTERNAL_SECRET: internalSecret, RECORDINGS_DIR: join(dir, 'recordings'), KAMAILIO_EVAPI: `127.0.0.1:${ports.evapi}`, KAMAILIO_SIP: `127.0.0.1:${ports.sip}`,
      TRUNK_ALLOWED_NETWORKS: LOOPBACK_CARRIERS,
    };
    env = (i) => ({ ...shared, PORT: String(ports.api[i]), INTERNAL_PORT: String(ports.internal[i]), DATA_DIR: join(dir, `data-${i}`) });
    // A first: it takes the lease; B, started next, stands by.
    apis[0] = await startApiProcess(env(0));
    apis[1] = await startApiProcess(env(1));
    const internalUrl = (i: number) => `http://127.0.0.1:${ports.internal[i]}/internal/sip`;
    worker = await media.startMediaWorker({ port: ports.worker, apiInternalUrl: `${internalUrl(0)},${internalUrl(1)}`, internalSecret, proxyPort: ports.sip, log: join(dir, 'media.log'), spoolDir: join(dir, 'spool') });
    kamailio = await lib.startKamailio({
      wsPort: await lib.freeTcpPort(), udpPort: ports.sip, apiInternalUrl: internalUrl(0), apiInternalUrl2: internalUrl(1), internalSecret, dir, evapiPort: ports.evapi,
      trunkAllowedNetworks: LOOPBACK_CARRIERS, mediaWorkers: [`127.0.0.1:${ports.worker}`],
    });
    await until('A follows the calls, B stands by', async () => [await plane(0), await plane(1)], ([a, b]) => a.events_connected && b.standby, 15_000);
    await until('Kamailio knows the carrier', () => kamcmd('htable.dump', 'carriers'), (out) => out.includes('127.0.0.1'), 10_000);
    await until('the dispatcher counts the worker in', () => kamcmd('dispatcher.list'), (out) => /FLAGS:\s*A/.test(out), 15_000);
  }, 600_000);

  afterAll(async () => {
    await Promise.all(apis.map((a) => a?.kill()));
    await kamailio?.stop();
    await worker?.stop();
    await db?.close();
    await fresh?.drop();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kamcmd = (...args: string[]) => execFileSync('kamcmd', ['-s', `unix:${kamailio.ctlSocket}`, ...args]).toString();
  const dialogs = () => [...kamcmd('dlg.list').matchAll(/call-id:\s*(\S+)[\s\S]*?\bstate:\s*(\d+)/gi)].filter((m) => m[2] !== '5').map((m) => m[1]);

  /** What instance i's call plane says: following calls (and how many), or standing by (503). */
  async function plane(i: number): Promise<{ events_connected: boolean; active: number; standby: boolean }> {
    const res = await fetch(`http://127.0.0.1:${ports.internal[i]}/internal/sip/calls`, { headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! } }).catch(() => null);
    if (res?.status === 503) return { events_connected: false, active: -1, standby: ((await res.json()) as { code?: string }).code === 'CALL_PLANE_STANDBY' };
    return res?.ok ? { ...((await res.json()) as { events_connected: boolean; active: number }), standby: false } : { events_connected: false, active: -1, standby: false };
  }

  const records = async (caller: string) =>
    (await db.withTenant(tenantId, (tx) => tx.query<{ call_id: string; disposition: string; billsec: number }>('select call_id, disposition, billsec from cdrs where caller = $1', [caller]))).rows;

  /**
   * CALLS carrier calls, eight a second, each talking `holdMs`; 1 s after the first, the instance that
   * holds the call plane is stopped (SIGTERM) and the other takes over while calls still arrive.
   */
  async function handOver(caller: string, from: number, to: number): Promise<void> {
    const holdMs = 10_000;
    const phone = runSipp({ dir, name: `mobile-${caller}`, xml: answerScenario(200), args: ['-i', '127.0.0.1', '-p', String(ports.phone), '-m', String(CALLS)], timeoutS: 120 });
    if (!(await waitUdpBound(ports.phone))) throw new Error(`the answering carrier's sipp did not bind udp ${ports.phone}`);
    const carrier = runSipp({
      dir, name: `carrier-${caller}`, xml: carrierScenario(200, holdMs), timeoutS: 120,
      args: [`127.0.0.1:${ports.sip}`, '-i', '127.0.0.1', '-p', String(ports.carrier), '-s', DID, '-m', String(CALLS), '-l', String(CALLS), '-r', '8'],
      keys: { caller, at: new Date().toISOString() },
    });
    await until('the first calls up', async () => dialogs().length, (n) => n >= 2, 20_000);
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = Date.now();
    await apis[from]!.stop();
    const stopped = Date.now() - t0;
    await until(`instance ${to} follows the calls`, () => plane(to), (p) => p.events_connected && p.active >= 0, 20_000);
    console.log(`${caller}: the holder stopped (SIGTERM) in ${stopped} ms; the other followed the calls ${Date.now() - t0} ms after the SIGTERM`);
    const [carrierDone, phoneDone] = [await carrier.done, await phone.done];
    const retried = (readFileSync(kamailio.log, 'utf8').match(/more tries/g) ?? []).length;
    if (carrierDone.code || phoneDone.code) console.log(`carrier: ${carrierDone.output.slice(-1500)}\nphone: ${phoneDone.output.slice(-1500)}`);
    expect({ carrier: carrierDone.code, phone: phoneDone.code }).toEqual({ carrier: 0, phone: 0 });
    const rows = await until('every record', () => records(caller), (r) => r.length >= CALLS, 30_000);
    await until('no call followed, as Kamailio', async () => ({ api: (await plane(to)).active, kamailio: dialogs().length }), (x) => x.api === 0 && x.kamailio === 0, 20_000);
    const found = await records(caller);
    const duplicates = found.length - new Set(found.map((r) => r.call_id)).size;
    console.log(`${caller}: ${CALLS} calls, ${found.length} records, ${duplicates} duplicates; plans Kamailio asked again during the hand-over so far: ${retried}`);
    expect({ found: found.length, duplicates }).toEqual({ found: CALLS, duplicates: 0 });
    for (const r of rows) {
      expect(r.disposition).toBe('ANSWERED');
      expect(r.billsec).toBeGreaterThanOrEqual(Math.floor(holdMs / 1000) - 1);
    }
  }

  it('A stopped while calls talk and arrive: B takes them over, none refused, each recorded once; then A back as the standby', async () => {
    await handOver('0909100001', 0, 1);
    apis[0] = await startApiProcess(env(0));
    await until('A stands by', () => plane(0), (p) => p.standby, 15_000);
  }, 600_000);

  it('then B stopped the same way: A takes the calls over', async () => {
    await handOver('0909100002', 1, 0);
  }, 300_000);
});
