import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignApi, campaignResultsApi, type CampaignResults } from '@tongdai/contracts';
import { demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import { startCallChain, type CallChain } from '../../../test/call-plane';
import type { CallChainLib } from '../../../test/script-libs';
import { pbxConfigChanged } from '../pbx/config-cache';
import { Ear } from '@tongdai/testkit/rtp-ear';
import { busyScenario, earPhoneScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { kamailioInstalled, requireSystem } from '@tongdai/testkit/system';
import { dialerTelecom } from '../../../test/dialer-fixture';

/**
 * The automated voice survey (issue 34) through real processes: a running voice campaign, no agent.
 * The media worker, asking the API for calls to place, gets the contact's call with the questions'
 * prompts, prepares their Vietnamese speech, places the call out of the campaign's hotline's
 * switchboard (sipp as the carrier and the contact behind it, its RTP on an Ear that hears the prompts
 * and presses the keys as RFC 4733 events), and reports the keys; the API keeps them as the survey's
 * answers, the same results an agent's survey shows.
 */
const HOTLINE = '02873009696';
const SURVEY = campaignApi('survey');
const RESULTS = campaignResultsApi('survey');

describe('the automated voice survey (Kamailio + media worker + sipp as the contact)', () => {
  requireSystem({ kamailio: kamailioInstalled(), sipp: sippInstalled() }, 'sudo node scripts/lib/system.mjs test');
  let t: TestApp;
  let chain: CallChain;
  let dir: string;
  let carrierPort: number;
  let lib: CallChainLib;
  let demo: number;
  let hotlineId: number;
  let admin: Record<string, string>;
  const env = { ring: process.env.DIALER_RING_SECONDS };
  const send = (method: 'POST' | 'GET' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload });
  const until = <T>(what: string, get: () => Promise<T>, ok: (x: T) => boolean, ms?: number) => chain.until(what, get, ok, ms);
  const contacts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; state: string; result: string | null; attempts: number }>(
        'select name, state, result, attempts from campaign_contacts where campaign_id = $1 order by id', [campaign])).rows);
  const attempts = (campaign: number) =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ name: string; dialer_state: string | null; result: string | null; call_id: string | null; user_id: number | null }>(
        `select k.name, a.dialer_state, a.result, a.call_id, a.user_id from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where k.campaign_id = $1 order by a.id`, [campaign])).rows);
  const contactPhone = (name: string, xml: string, keys: Record<string, string> = {}) =>
    runSipp({ dir, name, xml, args: ['-i', '127.0.0.1', '-p', String(carrierPort), '-m', '1', '-mi', '127.0.0.1'], keys, timeoutS: 90 });

  let questions: { rating: number; yesNo: number; single: number };

  /** A running voice survey campaign with these contacts (due now): no agents, `channels` calls at once. */
  async function voiceCampaign(name: string, people: [string, string][], asks = [questions.rating, questions.yesNo, questions.single], channels = 2): Promise<number> {
    const made = await send('POST', SURVEY.base, {
      name, mode: 'voice', voice_channels: channels, question_ids: asks, hotline_id: hotlineId, retry_busy_min: 5, retry_no_answer_min: 5,
    });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    const id = made.json().data.id as number;
    expect(made.json().data).toMatchObject({ mode: 'voice', voice_channels: channels, agent_ids: [] });
    await t.db.withTenant(demo, (tx) =>
      tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, n, m, now() - interval '1 minute' from unnest($3::text[], $4::text[]) as x(n, m)",
        [demo, id, people.map((p) => p[1]), people.map((p) => p[0])]));
    expect((await send('POST', SURVEY.state(id), { to: 'running' })).statusCode).toBe(200);
    return id;
  }

  /** The worker asks the next question: something said, then the quiet in which it waits for a key. */
  async function asked(ear: Ear, since: number): Promise<void> {
    await until('a prompt heard', async () => ear.packets.filter((p) => p.at > since && p.rms > 200).length, (n) => n > 25, 30_000);
    // A gap inside a prompt on a loaded machine is not its end: the quiet must last on (untilPromptEnds).
    await ear.untilPromptEnds(1200, 600, 40_000);
  }

  beforeAll(async () => {
    process.env.DIALER_RING_SECONDS = '5';
    t = await startTestApp({ switchboardHosts: loopbackCarrierHosts() });
    admin = (await demoHeaders(t.app)).admin;
    dir = mkdtempSync(join(tmpdir(), 'tongdai-voice-calls-'));
    chain = await startCallChain(t, dir);
    lib = chain.lib;
    carrierPort = await lib.freeUdpPort();
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [, hotlineId] = await dialerTelecom(t.db, demo, carrierPort, HOTLINE);
    pbxConfigChanged(demo);
    const category = (await send('POST', 'survey-categories', { name: 'Khảo sát tự động' })).json().data;
    const question = async (body: object) => (await send('POST', 'survey-questions', { category_id: category.id, ...body })).json().data.id as number;
    questions = {
      rating: await question({ kind: 'rating', text: 'Quý khách đánh giá chất lượng dịch vụ thế nào' }),
      yesNo: await question({ kind: 'yes_no', text: 'Quý khách có giới thiệu dịch vụ cho bạn bè không' }),
      single: await question({ kind: 'single', text: 'Điều quý khách quan tâm nhất', options: ['Giá cả', 'Chất lượng', 'Phục vụ'] }),
    };
    // Kamailio has loaded the switchboards (the carrier's address is known to it).
    await new Promise((r) => setTimeout(r, 3500));
  }, 60_000);

  afterAll(async () => {
    if (env.ring === undefined) delete process.env.DIALER_RING_SECONDS;
    else process.env.DIALER_RING_SECONDS = env.ring;
    await chain?.stop();
    await t?.close();
    if (process.env.KEEP_SIP_LOGS) console.log(`logs kept in ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('calls the contact with no agent, says each question, takes the keys pressed as the answers, thanks and hangs up; the results show them', async () => {
    const campaign = await voiceCampaign('Khảo sát tự động — trả lời', [['Anh Minh', '84912000801']]);
    const ear = await Ear.open();
    const contact = contactPhone('contact-answers', earPhoneScenario(800), { rtp_port: String(ear.port), media_port: String(await lib.freeUdpPort()) });
    try {
      // The greeting and the first question, then a 4 for the rating; a 1 (yes); a 2 (the second option).
      await asked(ear, 0);
      expect(await ear.key('4')).toBe(true);
      let since = Date.now();
      await asked(ear, since);
      await ear.key('1');
      since = Date.now();
      await asked(ear, since);
      await ear.key('2');
      // The thanks, then the worker hangs up: the contact's sipp ends on the BYE.
      expect((await contact.done).code).toBe(0);
    } finally {
      ear.close();
    }
    await until('the survey call ended', () => attempts(campaign), (a) => a[0]?.dialer_state === 'ended', 20_000);
    const [attempt] = await attempts(campaign);
    expect(attempt).toMatchObject({ name: 'Anh Minh', user_id: null });
    expect(attempt.call_id).toBeTruthy();
    expect(await contacts(campaign)).toEqual([{ name: 'Anh Minh', state: 'done', result: 'agreed', attempts: 1 }]);
    const results = (await send('GET', RESULTS.results(campaign))).json().data as CampaignResults;
    const byQuestion = Object.fromEntries(results.questions.map((q) => [q.question_id, q]));
    expect(byQuestion[questions.rating]).toMatchObject({ answered: 1, average: 4 });
    expect(byQuestion[questions.yesNo].options).toContainEqual({ label: 'Có', count: 1 });
    expect(byQuestion[questions.single].options).toContainEqual({ label: 'Chất lượng', count: 1 });
    expect(results.progress.by_result).toMatchObject({ agreed: 1 });
    // The call's record: an outbound call from the hotline, answered, with no extension (nobody's call).
    const cdr = await until('the call record', () => t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ direction: string; extension: string | null; disposition: string }>('select direction, extension, disposition from cdrs where call_id = $1', [attempt.call_id])).rows), (r) => r.length > 0);
    expect(cdr[0]).toMatchObject({ direction: 'outbound', extension: null, disposition: 'ANSWERED' });
  }, 120_000);

  it('a busy contact comes back by the retry policy; nobody pressing anything is asked the question twice and ends declined', async () => {
    // One question: a silent contact hears it twice (with the apology between) and waits twice for a key.
    const campaign = await voiceCampaign('Khảo sát tự động — im lặng', [['Chị Hoa', '84912000802']], [questions.rating]);
    const busy = contactPhone('contact-busy', busyScenario());
    expect((await busy.done).code).toBe(0);
    await until('busy, back for a retry', () => contacts(campaign), (c) => c[0]?.state === 'pending' && c[0].attempts === 1, 20_000);
    expect((await attempts(campaign))[0]).toMatchObject({ result: 'busy' });
    // Due again now: the silent contact answers and presses nothing.
    await t.db.withTenant(demo, (tx) => tx.query("update campaign_contacts set next_at = now() - interval '1 second' where campaign_id = $1", [campaign]));
    const ear = await Ear.open();
    const silent = contactPhone('contact-silent', earPhoneScenario(500), { rtp_port: String(ear.port), media_port: String(await lib.freeUdpPort()) });
    try {
      expect((await silent.done).code).toBe(0);
      // The prompts, each followed by the quiet of the wait for a key: intro + question, the apology + the question again, the thanks.
      const gaps = ear.packets.slice(1).filter((p, i) => p.at - ear.packets[i].at > 4000).length;
      expect(gaps).toBe(2);
    } finally {
      ear.close();
    }
    await until('the silent call ended', () => contacts(campaign), (c) => c[0]?.state === 'done', 20_000);
    expect(await contacts(campaign)).toEqual([{ name: 'Chị Hoa', state: 'done', result: 'declined', attempts: 2 }]);
    const results = (await send('GET', RESULTS.results(campaign))).json().data as CampaignResults;
    expect(results.questions.map((q) => q.answered)).toEqual([0]);
  }, 180_000);
});
