import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignApi, campaignWorkApi, type WorkNext } from '@tongdai/contracts';
import type { RunningKamailio } from '../../../../scripts/lib/kamailio.mjs';
import type { RunningMediaWorker } from '../../../../scripts/lib/media.mjs';
import { DEMO_SIP } from '../../db/seed-data';
import { LOOPBACK_CARRIERS, startTestApp, type TestApp } from '../../../test/helpers';
import { kamailioLib, mediaLib } from '../../../test/script-libs';
import { startApiProcess, until, type ApiProcess } from '../../../test/api-process';
import { registerContact } from '@tongdai/testkit/register-contact';
import { answerScenario, calleeHangsUpScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { waitUdpBound } from '@tongdai/testkit/udp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { dialerTelecom } from '../../../test/dialer-fixture';

/**
 * The campaign dialer when the API dies mid-campaign (issue 34: "Restart of the API mid-campaign:
 * nothing lost, nothing dialled twice"): the real API process (`src/main.ts` on PostgreSQL) beside
 * Kamailio, the media worker and sipp (the agent's phone, 101; the carrier and the contacts behind it).
 * A progressive campaign's first call is bridged to the agent when the API is SIGKILLed and started
 * again. The call goes on (it is Kamailio's and the worker's), its end reaches the new API, the
 * contact stays the agent's until a result; then the next contact is called once, and every contact
 * was dialled exactly once: the state is the database's, not the dead process's.
 */
const DOMAIN = 'demo.tongdai.local';
const HOTLINE = '02873009898';
const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');
/** The first contact talks this long after answering: the API is killed and back meanwhile. */
const FIRST_TALK_MS = 25_000;

describe('the dialer with its API killed mid-campaign (API process + Kamailio + media worker + sipp)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled() }, 'sudo node scripts/lib/system.mjs test');
  let t: TestApp;
  let dir: string;
  let kamailio: RunningKamailio;
  let worker: RunningMediaWorker;
  let api: ApiProcess | null = null;
  let demo: number;
  let adminId: number;
  let hotlineId: number;
  let token = '';
  const ports = { api: 0, internal: 0, evapi: 0, ws: 0, sip: 0, worker: 0, carrier: 0, agent: 0 };

  const startApi = async () => {
    api = await startApiProcess({
      PORT: String(ports.api), INTERNAL_PORT: String(ports.internal), DATABASE_URL: t.dbUrl, DATA_DIR: join(dir, 'data'),
      KAMAILIO_EVAPI: `127.0.0.1:${ports.evapi}`, KAMAILIO_SIP: `127.0.0.1:${ports.sip}`, TRUNK_ALLOWED_NETWORKS: LOOPBACK_CARRIERS, REDIS_URL: '',
      DIALER_RING_SECONDS: '8', DIALER_AGENT_RING_SECONDS: '5',
    });
    const login = await fetch(`${api.url}/identity/login/tenant`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: 'demo', username: 'admin', password: 'Admin@123' }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
  };
  /** A request of the admin's (the campaign's agent) to the API process. */
  const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await fetch(`${api!.url}/t/demo/${url}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) }, body: payload ? JSON.stringify(payload) : undefined,
    });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as { data?: unknown }) };
  };
  /** The agent's screen asking for its contact (which also renews the agent's readiness). */
  const next = async (campaign: number) => {
    const r = await send('POST', WORK.next(campaign));
    if (r.status !== 200) throw new Error(`next: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body!.data as WorkNext;
  };
  const attempts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; dialer_state: string | null; result: string | null; call_id: string | null; duration_s: number | null }>(
        `select k.name, a.dialer_state, a.result, a.call_id, a.duration_s from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where k.campaign_id = $1 order by a.id`, [campaign])).rows);
  const contacts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; state: string; result: string | null; attempts: number; held_by: number | null }>(
        'select name, state, result, attempts, held_by from campaign_contacts where campaign_id = $1 order by id', [campaign])).rows);
  const workerLog = () => {
    try {
      return readFileSync(join(dir, 'media.log'), 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  };
  /** The contact behind the carrier: answers after 1 s, talks `talkMs`, hangs up. */
  const contactPhone = async (name: string, talkMs: number) => {
    const run = runSipp({ dir, name, xml: calleeHangsUpScenario(1000, talkMs), args: ['-i', '127.0.0.1', '-p', String(ports.carrier), '-m', '1'], timeoutS: 120 });
    if (!(await waitUdpBound(ports.carrier))) throw new Error(`the contact's sipp did not bind udp ${ports.carrier}`);
    return run;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const lib = await kamailioLib();
    const media = await mediaLib();
    dir = mkdtempSync(join(tmpdir(), 'tongdai-dialer-faults-'));
    for (const k of ['api', 'internal', 'evapi', 'ws'] as const) ports[k] = await lib.freeTcpPort();
    for (const k of ['sip', 'worker', 'carrier', 'agent'] as const) ports[k] = await lib.freeUdpPort();
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [adminId, hotlineId] = await dialerTelecom(t.db, demo, ports.carrier, HOTLINE);
    await startApi();
    const apiInternalUrl = `http://127.0.0.1:${ports.internal}/internal/sip`;
    kamailio = await lib.startKamailio({
      wsPort: ports.ws, udpPort: ports.sip, apiInternalUrl, internalSecret: process.env.INTERNAL_SECRET!, dir, evapiPort: ports.evapi,
      trunkAllowedNetworks: LOOPBACK_CARRIERS, mediaWorkers: [`127.0.0.1:${ports.worker}`],
    });
    worker = await media.startMediaWorker({ port: ports.worker, apiInternalUrl, internalSecret: process.env.INTERNAL_SECRET!, proxyPort: ports.sip, log: join(dir, 'media.log') });
    expect(await registerContact({ proxyPort: ports.sip, user: '101', domain: DOMAIN, password: DEMO_SIP.demo.admin.password, contactPort: ports.agent, expires: 600 })).toBe(200);
    // Kamailio's next look at the switchboards (every 3 s) knows the carrier's address.
    await new Promise((r) => setTimeout(r, 3500));
  }, 300_000);

  afterAll(async () => {
    await api?.kill();
    await worker?.stop();
    await kamailio?.stop();
    await t?.close();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a bridged call outlives the API; its end reaches the new process; the next contact is called once', async () => {
    const category = (await send('POST', 'survey-categories', { name: 'Gọi tự động — sự cố' })).body!.data as { id: number };
    const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).body!.data as { id: number };
    const made = await send('POST', SURVEY.base, { name: 'Gọi tự động — API khởi động lại', mode: 'progressive', question_ids: [question.id], agent_ids: [adminId], hotline_id: hotlineId });
    expect(made.status).toBe(201);
    const campaign = (made.body!.data as { id: number }).id;
    await t.db.withTenant(demo, (tx) =>
      tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) values ($1, $2, '84912000801', 'Chị Một', now() - interval '2 minutes'), ($1, $2, '84912000802', 'Anh Hai', now() - interval '1 minute')",
        [demo, campaign]));
    expect((await send('POST', SURVEY.state(campaign), { to: 'running' })).status).toBe(200);

    // The agent's phone answers both calls; the first contact talks through the API's death.
    const agent = runSipp({ dir, name: 'agent', xml: answerScenario(300), args: ['-i', '127.0.0.1', '-p', String(ports.agent), '-m', '2'], timeoutS: 180 });
    if (!(await waitUdpBound(ports.agent))) throw new Error(`the agent's sipp did not bind udp ${ports.agent}`);
    const first = await contactPhone('contact-1', FIRST_TALK_MS);
    expect((await send('PUT', WORK.ready(campaign), { ready: true })).status).toBe(200);
    const failed = (what: string) => (e: unknown) => {
      throw new Error(`${(e as Error).message}\nmedia worker:\n${workerLog()}`, { cause: what });
    };
    await until('the first contact bridged to the agent', () => attempts(campaign), (a) => a[0]?.dialer_state === 'bridged', 30_000).catch(failed('bridged'));

    await api!.kill();
    api = null;
    const killed = Date.now();
    await startApi();
    console.log(`the API killed with the first call bridged; answering again after ${Date.now() - killed} ms`);
    // The new process reads the state the old one left: the call in progress, the contact held for the agent.
    const held = await next(campaign);
    expect(held.contact).toMatchObject({ name: 'Chị Một' });
    expect(['bridged', 'ended']).toContain(held.contact!.dialer?.state);

    // The contact hangs up: the worker's report reaches the new process; the contact waits for the agent's result.
    expect((await first.done).code).toBe(0);
    await until('the first call ended', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 60_000).catch(failed('ended'));
    const [one] = await attempts(campaign);
    expect(one).toMatchObject({ name: 'Chị Một', dialer_state: 'ended', result: null });
    // Its length is the call's, from the answer to the hang-up (the kill did not cut it).
    expect(one.duration_s).toBeGreaterThanOrEqual(FIRST_TALK_MS / 1000 - 2);
    expect((await contacts(campaign))[0]).toMatchObject({ state: 'held', held_by: adminId, attempts: 1 });
    const onScreen = (await next(campaign)).contact!;
    expect(onScreen.name).toBe('Chị Một');
    expect((await send('POST', WORK.result(campaign, onScreen.id), { result: 'agreed' })).status).toBe(204);

    // The next contact, once; nobody twice.
    const second = await contactPhone('contact-2', 2000);
    await until('the second call ended', async () => {
      await next(campaign);
      return attempts(campaign);
    }, (a) => a[1]?.dialer_state === 'ended', 60_000).catch(failed('second'));
    expect((await second.done).code).toBe(0);
    expect((await agent.done).code).toBe(0);
    expect((await attempts(campaign)).map((a) => [a.name, a.dialer_state])).toEqual([['Chị Một', 'ended'], ['Anh Hai', 'ended']]);
    expect((await contacts(campaign)).map((c) => [c.name, c.state, c.attempts])).toEqual([['Chị Một', 'done', 1], ['Anh Hai', 'held', 1]]);
    // Each call has one record (Kamailio's events outlived the process too).
    const calls = (await attempts(campaign)).map((a) => a.call_id);
    const records = await until('both records written', () => t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ call_id: string }>('select call_id from cdrs where call_id = any($1::text[])', [calls])).rows.map((r) => r.call_id).sort()), (r) => r.length >= 2, 30_000);
    expect(records).toEqual([...calls].sort());
    await send('PUT', WORK.ready(campaign), { ready: false });
  }, 300_000);
});
