import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignApi, campaignWorkApi, MONITOR_API, RECORDING_INFO_TYPE, type MonitorSnapshot, type WorkNext } from '@tongdai/contracts';
import { demoHeaders, INTERNAL_HEADERS, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import { registerDemoPhones, startCallChain, type CallChain } from '../../../test/call-plane';
import type { CallChainLib } from '../../../test/script-libs';
import { pbxConfigChanged } from '../pbx/config-cache';
import { Ear, toneUlaw } from '@tongdai/testkit/rtp-ear';
import { busyScenario, calleeHangsUpScenario, earPhoneScenario, ringScenario, runSipp, sippInstalled, talkingPhoneScenario } from '@tongdai/testkit/sipp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { dialerTelecom } from '../../../test/dialer-fixture';
import { mp3Channels } from '../../../test/mp3-channels';

/**
 * The campaign dialer's progressive mode (issue 34, ADR 0055) through real processes: an agent ready on
 * a progressive campaign's working screen (extension 101, a sipp phone registered through Kamailio);
 * the media worker, asking the API for calls to place, gets the contact's call, places it out of the
 * campaign's hotline's switchboard (sipp as the carrier and the contact behind it) and, when the
 * contact answers, rings 101 with X-Tongdai-Campaign and bridges the two: what the contact says, the
 * agent hears. The attempt, the contact and the call's record follow.
 */
const HOTLINE = '02873009797';
const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');

/** The contact behind the carrier: answers, talks `audio` (raw µ-law) for `talkMs`, then hangs up itself. */
const contactHangsUpScenario = (audio: string, answerMs: number, talkMs: number) => calleeHangsUpScenario(answerMs, talkMs, audio);

describe('the progressive dialer (Kamailio + media worker + sipp as the contact and the agent)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled() }, 'sudo node scripts/lib/system.mjs test');
  let t: TestApp;
  let chain: CallChain;
  let dir: string;
  let carrierPort: number;
  let agentPort: number;
  let lib: CallChainLib;
  let demo: number;
  let adminId: number;
  let hotlineId: number;
  let admin: Record<string, string>;
  const env = { ring: process.env.DIALER_RING_SECONDS, agent: process.env.DIALER_AGENT_RING_SECONDS, recordings: process.env.RECORDINGS_DIR };
  const send = (method: 'POST' | 'GET' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload });
  const until = <T>(what: string, get: () => Promise<T>, ok: (x: T) => boolean, ms?: number) => chain.until(what, get, ok, ms);

  const next = async (campaign: number): Promise<WorkNext> => {
    const res = await send('POST', WORK.next(campaign));
    expect([res.statusCode, res.body]).toEqual([200, res.body]);
    return res.json().data;
  };
  const attempts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; dialer_state: string | null; result: string | null; call_id: string | null; duration_s: number | null; user_id: number }>(
        `select k.name, a.dialer_state, a.result, a.call_id, a.duration_s, a.user_id from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where k.campaign_id = $1 order by a.id`, [campaign])).rows);
  const contacts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; state: string; result: string | null; attempts: number; held_by: number | null }>(
        'select name, state, result, attempts, held_by from campaign_contacts where campaign_id = $1 order by id', [campaign])).rows);

  /** A running progressive campaign with these contacts (due now), the admin (extension 101) its agent. */
  async function campaignWith(name: string, people: [string, string][], mode: 'progressive' | 'predictive' = 'progressive'): Promise<number> {
    const category = (await send('POST', 'survey-categories', { name: `Gọi tự động ${name}` })).json().data;
    const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data;
    const made = await send('POST', SURVEY.base, { name, mode, question_ids: [question.id], agent_ids: [adminId], hotline_id: hotlineId, retry_no_answer_min: 5 });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    const id = made.json().data.id as number;
    expect(made.json().data.mode).toBe(mode);
    await t.db.withTenant(demo, (tx) =>
      tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, n, m, now() - interval '1 minute' from unnest($3::text[], $4::text[]) as x(n, m)",
        [demo, id, people.map((p) => p[1]), people.map((p) => p[0])]));
    expect((await send('POST', SURVEY.state(id), { to: 'running' })).statusCode).toBe(200);
    return id;
  }
  const agentPhone = (name: string, xml: string, keys: Record<string, string> = {}) =>
    runSipp({ dir, name, xml, args: ['-i', '127.0.0.1', '-p', String(agentPort), '-m', '1'], keys, timeoutS: 60 });
  const contactPhone = (name: string, xml: string, extra: string[] = [], keys: Record<string, string> = {}) =>
    runSipp({ dir, name, xml, args: ['-i', '127.0.0.1', '-p', String(carrierPort), '-m', '1', ...extra], keys, timeoutS: 60 });
  const listening = () => new Promise((r) => setTimeout(r, 300));
  /** Once the calls have ended: none left on the live wall (the tenant's monitor snapshot), none followed (Kamailio's events). */
  const nothingLive = () => until('no call left live', async () => {
    const wall = (await send('GET', MONITOR_API.snapshot)).json().data as MonitorSnapshot;
    const calls = (await chain.internal.inject({ url: '/internal/sip/calls', headers: INTERNAL_HEADERS })).json() as { active: number };
    return { wall: wall.calls.map((c) => `${c.call_id} ${c.state}`), active: calls.active };
  }, (x) => x.wall.length === 0 && x.active === 0, 15_000);

  beforeAll(async () => {
    process.env.DIALER_RING_SECONDS = '4';
    process.env.DIALER_AGENT_RING_SECONDS = '3';
    t = await startTestApp({ switchboardHosts: loopbackCarrierHosts() });
    admin = (await demoHeaders(t.app)).admin;
    dir = mkdtempSync(join(tmpdir(), 'tongdai-dialer-calls-'));
    // Recordings (a recorded dialer call, below) go to this run's folder, not the repository's .data.
    process.env.RECORDINGS_DIR = join(dir, 'recordings');
    writeFileSync(join(dir, 'contact.ulaw'), toneUlaw(12, 440));
    writeFileSync(join(dir, 'agent.ulaw'), toneUlaw(12, 1000));
    chain = await startCallChain(t, dir);
    lib = chain.lib;
    carrierPort = await lib.freeUdpPort();
    agentPort = await lib.freeUdpPort();

    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [adminId, hotlineId] = await dialerTelecom(t.db, demo, carrierPort, HOTLINE);
    pbxConfigChanged(demo);
    // 101 (the agent) at its sipp phone's port; 102 nowhere.
    await registerDemoPhones(chain.internal, chain.sipUdp, { '101': agentPort, '102': await lib.freeUdpPort() });
    // Kamailio has loaded the switchboards (the carrier's address is known to it).
    await new Promise((r) => setTimeout(r, 3500));
  }, 60_000);

  afterAll(async () => {
    for (const [k, v] of [['DIALER_RING_SECONDS', env.ring], ['DIALER_AGENT_RING_SECONDS', env.agent], ['RECORDINGS_DIR', env.recordings]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await chain?.stop();
    await t?.close();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("calls a contact for the ready agent and connects the answer to the agent's phone: the agent hears the contact; the contact stays the agent's until a result", async () => {
    const campaign = await campaignWith('Gọi tự động — nối máy', [['Chị Lan', '84912000701']]);
    // Not ready yet: nothing is dialled, the screen says why.
    expect(await next(campaign)).toMatchObject({ contact: null, reason: 'not_ready', campaign: { mode: 'progressive' } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await attempts(campaign)).toEqual([]);

    const ear = await Ear.open();
    const agent = agentPhone('agent-answers', earPhoneScenario(300, { requireHeader: { name: 'X-Tongdai-Campaign', regexp: '[0-9]+;contact=[0-9]+' } }), { rtp_port: String(ear.port) });
    const contact = contactPhone('contact-talks', contactHangsUpScenario('contact.ulaw', 1000, 3000), ['-mi', '127.0.0.1', '-mp', String(await lib.freeMediaPort())]);
    try {
      await listening();
      expect((await send('PUT', WORK.ready(campaign), { ready: true })).json().data).toMatchObject({ ready: true });
      // The screen finds the contact the dialer took for the agent, and follows its call.
      const calling = await until('the contact handed to the agent', () => next(campaign), (n) => !!n.contact);
      expect(calling.contact).toMatchObject({ name: 'Chị Lan' });
      expect(['calling', 'answered', 'bridged']).toContain(calling.contact!.dialer?.state);
      await until('bridged', () => next(campaign), (n) => n.contact?.dialer?.state === 'bridged', 20_000);
      await until('ended', () => next(campaign), (n) => n.contact?.dialer?.state === 'ended', 20_000);
      expect((await contact.done).code).toBe(0);
      expect((await agent.done).code).toBe(0);
      // The contact hung up: the call and the agent's leg leave the live state.
      await nothingLive();
    } finally {
      ear.close();
    }
    // The agent heard the contact's 440 Hz through the bridge: at least a second of it (the contact talks 3 s;
    // ci3 of the twenty-ninth session, at load 12, heard 99 packets of the 150).
    expect(ear.packets.length).toBeGreaterThan(50);
    const heard440 = ear.tone(440, 0, Infinity);
    expect(heard440).toBeGreaterThan(1e5);
    expect(heard440).toBeGreaterThan(20 * ear.tone(1000, 0, Infinity));

    const [attempt] = await attempts(campaign);
    expect(attempt).toMatchObject({ name: 'Chị Lan', dialer_state: 'ended', result: null, user_id: adminId });
    expect(attempt.duration_s).toBeGreaterThanOrEqual(2);
    expect(attempt.call_id).toBeTruthy();
    // Still the agent's until they choose a result; then done, and the agent is waiting again.
    expect(await contacts(campaign)).toEqual([{ name: 'Chị Lan', state: 'held', result: null, attempts: 1, held_by: adminId }]);
    const held = (await next(campaign)).contact!;
    expect((await send('POST', WORK.result(campaign, held.id), { result: 'agreed' })).statusCode).toBe(204);
    expect(await contacts(campaign)).toEqual([{ name: 'Chị Lan', state: 'done', result: 'agreed', attempts: 1, held_by: null }]);
    expect((await attempts(campaign))[0].result).toBe('agreed');
    expect(await next(campaign)).toMatchObject({ contact: null, reason: 'empty' });

    // The call's record: out from the hotline to the contact, answered by the agent's extension.
    const cdr = await until('the call record', () => t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ direction: string; callee: string; extension: string | null; disposition: string }>('select direction, callee, extension, disposition from cdrs where call_id = $1', [attempt.call_id])).rows), (r) => r.length > 0);
    expect(cdr[0]).toMatchObject({ direction: 'outbound', extension: '101', disposition: 'ANSWERED' });
    expect(cdr[0].callee).toContain('912000701');
    await send('PUT', WORK.ready(campaign), { ready: false });
  }, 90_000);

  it('a contact that does not answer goes back for a retry; one that is busy too; the agent, still ready, gets the next contact', async () => {
    const campaign = await campaignWith('Gọi tự động — không nghe', [['Anh Nam', '84912000702'], ['Cô Hoa', '84912000703']]);
    const ringing = contactPhone('contact-rings', ringScenario());
    try {
      await listening();
      expect((await send('PUT', WORK.ready(campaign), { ready: true })).statusCode).toBe(200);
      await until('no answer after the ring time', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 20_000);
    } finally {
      await ringing.done;
    }
    expect((await attempts(campaign))[0]).toMatchObject({ name: 'Anh Nam', result: 'no_answer' });
    const busy = contactPhone('contact-busy', busyScenario());
    try {
      await listening();
      // The agent's screen keeps asking: the next contact is called for them.
      await until('the second contact called, busy', async () => {
        await next(campaign);
        return attempts(campaign);
      }, (a) => a[1]?.dialer_state === 'ended', 20_000);
    } finally {
      await busy.done;
    }
    expect((await attempts(campaign)).map((a) => [a.name, a.result])).toEqual([['Anh Nam', 'no_answer'], ['Cô Hoa', 'busy']]);
    await nothingLive();
    // Both back in the pool for later (the campaign's minutes), counted as tried once.
    expect(await contacts(campaign)).toEqual([
      { name: 'Anh Nam', state: 'pending', result: 'no_answer', attempts: 1, held_by: null },
      { name: 'Cô Hoa', state: 'pending', result: 'busy', attempts: 1, held_by: null },
    ]);
    await send('PUT', WORK.ready(campaign), { ready: false });
  }, 90_000);

  it('an answered contact whose agent does not take the call hears the message and is abandoned; the agent is paused', async () => {
    const campaign = await campaignWith('Gọi tự động — bỏ lỡ', [['Bác Tư', '84912000704']]);
    const ear = await Ear.open();
    const agent = agentPhone('agent-busy', busyScenario());
    const contact = contactPhone('contact-listens', earPhoneScenario(500), [], { rtp_port: String(ear.port) });
    try {
      await listening();
      expect((await send('PUT', WORK.ready(campaign), { ready: true })).statusCode).toBe(200);
      await until('abandoned', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 30_000);
      expect((await contact.done).code).toBe(0);
      await agent.done;
      // The worker hung up after the message: nothing left live.
      await nothingLive();
    } finally {
      ear.close();
    }
    expect((await attempts(campaign))[0]).toMatchObject({ name: 'Bác Tư', result: 'abandoned' });
    expect(await contacts(campaign)).toEqual([{ name: 'Bác Tư', state: 'pending', result: 'abandoned', attempts: 1, held_by: null }]);
    // The contact heard the message (speech, not silence) before the worker hung up.
    expect(ear.packets.length).toBeGreaterThan(100);
    expect(ear.loudness(0, Infinity).rms).toBeGreaterThan(300);
    // The agent who did not answer is paused: the screen says so and nothing more is dialled for them.
    expect((await send('GET', WORK.ready(campaign))).json().data).toMatchObject({ ready: false });
    expect(await next(campaign)).toMatchObject({ contact: null, reason: 'not_ready' });
  }, 90_000);

  it("predictive: the contact's call is placed for no agent yet; answered, it goes to the agent free (101), who hears the contact", async () => {
    const campaign = await campaignWith('Dự đoán — nối máy', [['Anh Quang', '84912000705']], 'predictive');
    const ear = await Ear.open();
    const agent = agentPhone('agent-answers-predictive', earPhoneScenario(300, { requireHeader: { name: 'X-Tongdai-Campaign', regexp: '[0-9]+;contact=[0-9]+' } }), { rtp_port: String(ear.port) });
    const contact = contactPhone('contact-talks-predictive', contactHangsUpScenario('contact.ulaw', 800, 2500), ['-mi', '127.0.0.1', '-mp', String(await lib.freeMediaPort())]);
    try {
      await listening();
      expect((await send('PUT', WORK.ready(campaign), { ready: true })).statusCode).toBe(200);
      await until('bridged', () => attempts(campaign), (a) => a[0]?.dialer_state === 'bridged', 20_000);
      // Placed for nobody, given to 101's account on the answer.
      expect((await attempts(campaign))[0].user_id).toBe(adminId);
      await until('ended', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 20_000);
      expect((await contact.done).code).toBe(0);
      expect((await agent.done).code).toBe(0);
      await nothingLive();
    } finally {
      ear.close();
    }
    expect(ear.tone(440, 0, Infinity)).toBeGreaterThan(1e5);
    expect(await contacts(campaign)).toEqual([{ name: 'Anh Quang', state: 'held', result: null, attempts: 1, held_by: adminId }]);
    await send('PUT', WORK.ready(campaign), { ready: false });
  }, 90_000);

  it("a tenant that records every call (ADR 0041): the dialer call's conversation is stored under its record's Call-ID, as long as it was bridged; the agent pauses it for a while", async () => {
    const campaign = await campaignWith('Gọi tự động — ghi âm', [['Chị Ngọc', '84912000706']]);
    // The other campaigns' calls are over: only this one's contact is called.
    await t.db.withTenant(demo, (tx) => tx.query("update campaigns set state = 'ended' where id <> $1", [campaign]));
    await t.db.withTenant(demo, (tx) => tx.query("update system_settings set recording_mode = 'all'"));
    pbxConfigChanged(demo);
    // The agent (1 kHz) pauses the recording 1.5 s after answering and resumes it 2 s later; the contact (440 Hz) talks 7 s.
    const infos = [{ afterMs: 1500, type: RECORDING_INFO_TYPE, body: 'pause' }, { afterMs: 2000, type: RECORDING_INFO_TYPE, body: 'resume' }];
    const agent = runSipp({
      dir, name: 'agent-talks-recorded', xml: talkingPhoneScenario('agent.ulaw', 300, infos),
      args: ['-i', '127.0.0.1', '-p', String(agentPort), '-m', '1', '-mi', '127.0.0.1', '-mp', String(await lib.freeMediaPort())], timeoutS: 60,
    });
    const contact = contactPhone('contact-talks-recorded', contactHangsUpScenario('contact.ulaw', 800, 7000), ['-mi', '127.0.0.1', '-mp', String(await lib.freeMediaPort())]);
    try {
      await listening();
      expect((await send('PUT', WORK.ready(campaign), { ready: true })).statusCode).toBe(200);
      await until('ended', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 30_000);
      expect((await contact.done).code).toBe(0);
      expect((await agent.done).code).toBe(0);
      await nothingLive();
    } finally {
      await t.db.withTenant(demo, (tx) => tx.query("update system_settings set recording_mode = 'none'"));
      pbxConfigChanged(demo);
      await send('PUT', WORK.ready(campaign), { ready: false });
    }
    const [attempt] = await attempts(campaign);
    const cdr = await until('the call record', () => t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ extension: string | null; billsec: number }>('select extension, billsec from cdrs where call_id = $1', [attempt.call_id])).rows), (r) => r.length > 0);
    expect(cdr[0].extension).toBe('101');
    const rec = await until('the recording', () => t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ storage: string; storage_key: string; duration_seconds: string }>('select storage, storage_key, duration_seconds from call_recordings where call_id = $1', [attempt.call_id])).rows), (r) => r.length > 0, 15_000);
    expect(rec[0].storage).toBe('local');
    // From the bridge (after the contact's answer, which the record bills from, and the agent's ring) to the contact's BYE.
    const seconds = Number(rec[0].duration_seconds);
    expect(seconds).toBeLessThanOrEqual(cdr[0].billsec + 1);
    expect(seconds).toBeGreaterThanOrEqual(cdr[0].billsec - 2);
    const { channels, sampleRate } = mp3Channels(join(dir, 'recordings', rec[0].storage_key));
    expect(channels).toHaveLength(2);
    const rms = (c: Float32Array, from: number, to: number) => {
      const x = c.subarray(Math.round(from * sampleRate), Math.round(to * sampleRate));
      return Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length);
    };
    // Both voices, then silence on both while paused (1.5 s → 3.5 s after the bridge; 0.6 s left for the INFOs
    // to arrive late), then both again (the contact, on the left, talks until about 6.5 s after the bridge: a second
    // of margin for an agent's leg slow to answer on a loaded machine).
    for (const c of channels) {
      expect(rms(c, 0.2, 1.3)).toBeGreaterThan(0.09);
      expect(rms(c, 2.1, 3.4)).toBeLessThan(0.003);
      expect(rms(c, 4.2, 5.0)).toBeGreaterThan(0.09);
    }
  }, 90_000);
});

