import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  RECORDING_API, campaignApi, campaignWorkApi, type CallReportRow, type CampaignContact, type DialerBridge, type DialerJob, type RecordingMode, type Subscriber,
} from '@tongdai/contracts';
import { mp3 } from '@tongdai/testkit/pbx-kit';
import { demoHeaders, INTERNAL_HEADERS, startTestApp, type TestApp } from '../../../test/helpers';
import { dialerTelecom } from '../../../test/dialer-fixture';
import { buildInternalServer } from '../sip/internal-server';
import { CdrWriter } from '../cdr/cdr.service';
import { pbxConfigChanged } from '../pbx/config-cache';
import { LocalRecordingStore } from '../recordings/recordings.service';
import { verifyRecordingTicket } from '../recordings/recording-ticket';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');
const HOTLINE = '02873007171';
const DAY_MS = 86_400_000;

/**
 * A campaign dialer's call is recorded as the agent's outbound call (issue 16, ADR 0041 "The dialer's calls";
 * ADR 0055): the API's answer to the worker's `answered` report (the internal listener, POST
 * /internal/sip/media/originated) carries a recording ticket for leg A's Call-ID when the agent's extension's own
 * mode — else the tenant's — records outbound calls; the worker's upload with it is filed under that Call-ID,
 * which the dialer call's record (the CDR) and the contact's attempt carry: the call history's row and the
 * campaign contact's row name the recording. On a real PostgreSQL, without calls (the worker's side:
 * media/src/call/dialer-call.test.ts).
 */
describe("a dialer call's recording (the agent's or the tenant's mode, the ticket, the call's record)", () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let dir: string;
  let admin: Record<string, string>;
  let demo: number;
  let campaign: number;
  /** Extension 101 (the admin's phone, the campaign's agent) as the subscribers' API shows it. */
  let ext101: Subscriber;
  let n = 0;
  /** The call of the current test until it ended: ended after it in any case, so that 101 is free for the next. */
  let open: DialerJob | null = null;

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload });
  /** The tenant's mode (Cài đặt → ghi âm) and extension 101's own (null: the tenant's). */
  async function modes(tenant: RecordingMode, extension: RecordingMode | null): Promise<void> {
    const set = await send('PUT', RECORDING_API.settings, { recording_mode: tenant });
    expect([set.statusCode, set.body]).toEqual([200, set.body]);
    const put = await send('PUT', `subscribers/${ext101.id}`, { extension: '101', display_name: ext101.display_name, user_id: ext101.user_id, recording_mode: extension });
    expect([put.statusCode, put.json().data?.recording_mode]).toEqual([200, extension]);
  }
  /** A worker's ask: the next dialer call, for 101 (the one ready agent). */
  async function ask(): Promise<DialerJob> {
    const res = await internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: INTERNAL_HEADERS, payload: { worker: '127.0.0.1:1', wait_ms: 0, max: 1 } });
    expect([res.statusCode, res.body]).toEqual([200, res.body]);
    const jobs = res.json().jobs as DialerJob[];
    expect(jobs.map((j) => j.kind)).toEqual(['dialer']);
    return jobs[0];
  }
  const report = (job: DialerJob, payload: Record<string, unknown>) =>
    internal.inject({ method: 'POST', url: '/internal/sip/media/originated', headers: INTERNAL_HEADERS, payload: { kind: 'dialer', id: job.id, tenant_id: demo, attempt: 1, ...payload } });
  /** A call placed and answered by its contact (leg A's Call-ID `callId`): where the API bridges it. */
  async function answered(callId: string): Promise<{ job: DialerJob; bridge: DialerBridge }> {
    const job = await ask();
    open = job;
    const res = await report(job, { outcome: 'answered', call_id: callId });
    expect([res.statusCode, res.body]).toEqual([200, res.body]);
    const bridge = res.json().bridge as DialerBridge;
    expect(bridge).toMatchObject({ token: expect.any(String), campaign: `${campaign};contact=${job.contact_id}` });
    return { job, bridge };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tongdai-dialer-rec-'));
    const store = new LocalRecordingStore(dir);
    t = await startTestApp({ recordingStore: store, recordingSweepMs: null });
    admin = (await demoHeaders(t.app)).admin;
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    // The campaign's hotline out through a switchboard; the admin, its agent, on extension 101 alone.
    const [adminId, hotlineId] = await dialerTelecom(t.db, demo, 5997, HOTLINE);
    pbxConfigChanged(demo);
    internal = buildInternalServer(t.db, { calls: { switchboardsTtlMs: 100, recordingStore: store } });
    await internal.ready();
    // 101's phone registered (and in no call): the dialer calls for its agent.
    const reg = await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user: '101', domain: 'demo.tongdai.local', expires: 600 } });
    expect(reg.statusCode).toBe(200);
    ext101 = ((await send('GET', 'subscribers')).json().data as Subscriber[]).find((s) => s.extension === '101')!;
    expect(ext101.user_id).toBe(adminId);

    const category = (await send('POST', 'survey-categories', { name: 'Gọi tự động có ghi âm' })).json().data;
    const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data;
    const made = await send('POST', SURVEY.base, { name: 'Gọi tự động — ghi âm', mode: 'progressive', question_ids: [question.id], agent_ids: [adminId], hotline_id: hotlineId, retry_no_answer_min: 5 });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    campaign = made.json().data.id;
    await t.db.withTenant(demo, (tx) =>
      tx.query(`insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, '8491270' || lpad(i::text, 4, '0'), 'Khách ' || i, now() - interval '1 minute'
        from generate_series(1, 12) as i`, [demo, campaign]));
    expect((await send('POST', SURVEY.state(campaign), { to: 'running' })).statusCode).toBe(200);
    expect((await send('PUT', WORK.ready(campaign), { ready: true })).statusCode).toBe(200);
  }, 60_000);
  afterEach(async () => {
    // The contact hangs up before the agent answers (or the call ended already: nothing changes).
    if (open) await report(open, { outcome: 'abandoned', duration_s: 1 });
    open = null;
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['the tenant records all, 101 follows it', 'all', null, true],
    ["the tenant records nothing, 101's own mode records its outbound calls", 'none', 'outbound', true],
    ['the tenant records outbound calls', 'outbound', null, true],
    ["the tenant records all, 101's own mode records nothing", 'all', 'none', false],
    ['the tenant records inbound calls only', 'inbound', null, false],
    ["the tenant records nothing, 101's own mode records its inbound calls only", 'none', 'inbound', false],
  ] as const)('%s (tenant %s, 101 %s): ticket %s', async (_, tenant, extension, recorded) => {
    await modes(tenant, extension);
    const callId = `dialer-rec-${++n}@tongdai-media-dialer`;
    const { job, bridge } = await answered(callId);
    expect(bridge.record_ticket === null).toBe(!recorded);
    if (recorded) {
      // Signed for this tenant and leg A's Call-ID (the call's record), for no other call.
      expect(verifyRecordingTicket(bridge.record_ticket!, callId)).toBe(demo);
      expect(verifyRecordingTicket(bridge.record_ticket!, `other-${callId}`)).toBeNull();
    }
    // The same report again (the worker's answer was lost): the same decision.
    const again = (await report(job, { outcome: 'answered', call_id: callId })).json().bridge as DialerBridge;
    expect(again.record_ticket === null).toBe(!recorded);
  });

  it("the recording uploaded with the ticket is the dialer call's: its call-history row and its contact's row name it", async () => {
    await modes('all', null);
    const callId = `dialer-rec-${++n}@tongdai-media-dialer`;
    const { job, bridge } = await answered(callId);
    expect((await report(job, { outcome: 'bridged' })).json()).toMatchObject({ applied: true });
    expect((await report(job, { outcome: 'completed', duration_s: 42.2 })).json()).toMatchObject({ applied: true });
    // The call's record, as the call plane writes a dialer call's (dialer-calls.integration): leg A's Call-ID,
    // outbound from the hotline to the contact, answered by the agent's extension.
    const number = await t.db.withTenant(demo, async (tx) => (await tx.query<{ number: string }>('select number from campaign_contacts where id = $1', [job.contact_id])).rows[0].number);
    // (Started as the call was placed: the contact's row reads the record of its attempt's Call-ID from then.)
    const started = new Date(Math.floor(Date.now() / 1000) * 1000);
    const writer = new CdrWriter(t.db);
    writer.add({
      tenant_id: demo, call_id: callId, caller: HOTLINE, callee: number, did: null, direction: 'outbound', route: [], ring_group_id: null, queue_id: null,
      extension: '101', trunk: null, started_at: started, answered_at: new Date(started.getTime() + 5_000), ended_at: new Date(started.getTime() + 48_000), duration: 48, billsec: 42,
      disposition: 'ANSWERED', sip_code: 200, reason: '',
    });
    await writer.flush();
    // The worker's upload (media api.ts recording): the ticket the bridge carried, under leg A's Call-ID.
    const audio = mp3(30, true);
    const q = new URLSearchParams({ call_id: callId, ticket: bridge.record_ticket!, started_at: new Date(started.getTime() + 5_000).toISOString(), duration: '42.0' });
    const up = await internal.inject({ method: 'POST', url: `/internal/sip/media/recording?${q}`, headers: { ...INTERNAL_HEADERS, 'content-type': 'audio/mpeg' }, payload: audio });
    expect([up.statusCode, up.body]).toEqual([201, up.body]);
    const recording = { id: up.json().id, duration_seconds: 42, downloadable: true };

    // The call history: the dialer call's row links it (and no other row has one).
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const history = await send('GET', `reports/call-history?from=${day(Date.now() - DAY_MS)}&to=${day(Date.now() + DAY_MS)}`);
    expect([history.statusCode, history.body]).toEqual([200, history.body]);
    const rows = (history.json().data as CallReportRow[]).filter((r) => r.recording);
    expect(rows).toEqual([expect.objectContaining({ direction: 'outbound', answered_by: expect.objectContaining({ extension: '101' }), billsec: 42, recording })]);
    // The campaign contact's row (its attempt's call) too, and the audio is what the worker sent.
    const contacts = await send('GET', SURVEY.contacts(campaign));
    const row = (contacts.json().data as CampaignContact[]).find((c) => c.id === job.contact_id)!;
    expect(row.call).toMatchObject({ call_id: callId, talk_seconds: 42, recording });
    const heard = await send('GET', RECORDING_API.audio(recording.id));
    expect([heard.statusCode, heard.rawPayload.equals(audio)]).toEqual([200, true]);
  });
});
