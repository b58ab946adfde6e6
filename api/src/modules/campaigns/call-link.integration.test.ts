import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RECORDING_API, TELECOM_API, campaignApi, campaignWorkApi, type CallDecision, type CampaignContact } from '@tongdai/contracts';
import { mp3 } from '@tongdai/testkit/pbx-kit';
import { DEMO, INTERNAL_HEADERS, bearer, demoHeaders, login, startTestApp, type TestApp } from '../../../test/helpers';
import { settingsFromEnv, SwitchboardHosts } from '../trunks/switchboard-hosts';
import { buildInternalServer } from '../sip/internal-server';
import { CdrWriter } from '../cdr/cdr.service';
import { LocalRecordingStore, signRecordingTicket } from '../recordings/recordings.service';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');

/**
 * ADR 0050, an attempt knows its call: the plan that gives the agent's call its campaign caller ID
 * (the real /internal/sip/route) writes the call's Call-ID on the attempt; the call's record (the CDR
 * writer) and its recording (the media worker's upload) then show on the contact's row, the recording
 * only to a viewer holding recording.listen; another tenant does not find the campaign.
 */
describe("a campaign contact's call and its recording", () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let dir: string;
  afterAll(async () => {
    await internal?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("links the call placed after 'Gọi' to the attempt; the contact's row shows its time, talk time, result and recording", async () => {
    dir = mkdtempSync(join(tmpdir(), 'tongdai-campaign-rec-'));
    const store = new LocalRecordingStore(dir);
    const hosts = new SwitchboardHosts(settingsFromEnv({ ...process.env, TRUNK_ALLOWED_NETWORKS: '127.0.0.0/8' }));
    t = await startTestApp({ switchboardHosts: hosts, recordingStore: store, recordingSweepMs: null });
    const { admin, abcAdmin } = await demoHeaders(t.app);
    internal = buildInternalServer(t.db, { calls: { testClock: true, switchboardHosts: hosts, recordingStore: store } });
    const send = (method: 'POST' | 'GET', url: string, payload?: object, headers = admin, maDn = 'demo') => t.app.inject({ method, url: `/t/${maDn}/${url}`, headers, payload });
    const dial = async (callId: string, from: string, to: string) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=ext&from=${from}&from_domain=demo.tongdai.local&to=${encodeURIComponent(to)}` })).json();

    const demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const board = (await send('POST', TELECOM_API.switchboards, { name: 'Viettel CD', carrier: 'viettel', host: '127.0.0.2', register: false })).json().data.id as number;
    expect((await send('POST', TELECOM_API.hotlines, { number: '02873000067', switchboard_id: board, destination: { type: 'direct', target: '102' } })).statusCode).toBe(201);
    const rule = await t.app.inject({ method: 'POST', url: '/pbx/partner/rule', headers: admin, payload: { name: 'Di động', pattern: '0[35789]XXXXXXXX', switchboard_ids: [board], caller_id: '02873000067' } });
    expect([rule.statusCode, rule.body]).toEqual([201, rule.body]);
    const [adminId, staffId, hotlineId] = await t.db.withTenant(demo, async (tx) => {
      const user = (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id;
      await tx.query("update subscribers set user_id = null where user_id = $1 and extension <> '101'", [user]);
      await tx.query("update subscribers set user_id = $1 where extension = '101'", [user]);
      const other = (await tx.query<{ id: number }>('select id from users where username = $1', [DEMO.staff.username])).rows[0].id;
      return [user, other, (await tx.query<{ id: number }>("select id from pbx_numbers where number = '842873000067'")).rows[0].id];
    });
    const category = (await send('POST', 'survey-categories', { name: 'Cuộc gọi của liên hệ' })).json().data;
    const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data;
    const made = await send('POST', SURVEY.base, { name: 'Chăm sóc có ghi âm', question_ids: [question.id], agent_ids: [adminId], hotline_id: hotlineId });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    const campaign = made.json().data.id as number;
    await t.db.withTenant(demo, (tx) =>
      tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, fields, next_at) values ($1, $2, '84912000888', 'Chị Lan', '{}', now() - interval '1 minute'), ($1, $2, '84912000889', 'Anh Nam', '{}', now() - interval '1 minute')", [demo, campaign]));
    expect((await send('POST', SURVEY.state(campaign), { to: 'running' })).statusCode).toBe(200);
    const rowOf = async (name: string, headers = admin) => {
      const res = await send('GET', SURVEY.contacts(campaign), undefined, headers);
      expect([res.statusCode, res.body]).toEqual([200, res.body]);
      return (res.json().data as CampaignContact[]).find((c) => c.name === name)!;
    };

    // A call the extension places before "Gọi" links nothing.
    await dial('before-goi', '101', '0912000888');
    const contact = (await send('POST', WORK.next(campaign))).json().data.contact;
    expect(contact.name).toBe('Chị Lan');
    expect((await rowOf('Chị Lan')).call).toBeNull();

    // "Gọi", then the softphone's call: the plan names the attempt's call.
    expect(((await send('POST', WORK.call(campaign, contact.id))).json().data as CallDecision).allowed).toBe(true);
    const steps = (await dial('campaign-call-1', '101', '+84912000888')).steps.filter((s: { do: string }) => s.do === 'forward');
    expect(steps[0].from).toContain('2873000067');
    // Another extension dialling the same number is not the agent's call.
    await dial('other-ext', '102', '0912000888');
    const attempts = await t.db.withTenant(demo, async (tx) => (await tx.query<{ call_id: string | null }>('select call_id from campaign_attempts where contact_id = $1', [contact.id])).rows);
    expect(attempts).toEqual([{ call_id: 'campaign-call-1' }]);

    // The call rings on: the row shows the call, no result yet.
    let row = await rowOf('Chị Lan');
    expect(row.call).toMatchObject({ call_id: 'campaign-call-1', result: null, talk_seconds: null, recording: null });
    expect((await rowOf('Anh Nam')).call).toBeNull();

    // It ends: the CDR writer records it, the media worker uploads its recording.
    const started = new Date(Math.floor(Date.now() / 1000) * 1000);
    const writer = new CdrWriter(t.db);
    writer.add({
      tenant_id: demo, call_id: 'campaign-call-1', caller: '101', callee: '84912000888', did: null, direction: 'outbound', route: [], ring_group_id: null, queue_id: null,
      extension: '101', trunk: null, started_at: started, answered_at: new Date(started.getTime() + 5_000), ended_at: new Date(started.getTime() + 47_000), duration: 47, billsec: 42,
      disposition: 'ANSWERED', sip_code: 200, reason: '',
    });
    await writer.flush();
    const audio = mp3(30, true);
    const q = new URLSearchParams({ call_id: 'campaign-call-1', ticket: signRecordingTicket(demo, 'campaign-call-1'), started_at: started.toISOString(), duration: '42.0' });
    const up = await internal.inject({ method: 'POST', url: `/internal/sip/media/recording?${q}`, headers: { ...INTERNAL_HEADERS, 'content-type': 'audio/mpeg' }, payload: audio });
    expect(up.statusCode).toBe(201);

    row = await rowOf('Chị Lan');
    expect(row.call).toMatchObject({
      call_id: 'campaign-call-1', started_at: started.toISOString(), answered_at: new Date(started.getTime() + 5_000).toISOString(), talk_seconds: 42, result: 'answered',
      recording: { id: up.json().id, duration_seconds: 42, downloadable: true },
    });
    // The recording is reachable from the row with the existing route and permissions.
    const heard = await send('GET', RECORDING_API.audio(row.call!.recording!.id));
    expect(heard.statusCode).toBe(200);
    expect(heard.rawPayload.equals(audio)).toBe(true);

    // A viewer of campaigns without recording.listen sees the call, not its recording.
    const [role] = (await t.db.withSystem((tx) => tx.query<{ id: number }>("insert into roles (tenant_id, name) values ($1, 'Xem chiến dịch') returning id", [demo]))).rows;
    await t.db.withSystem(async (tx) => {
      await tx.query("insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions where name = 'campaign.view'", [demo, role.id]);
      await tx.query('delete from user_roles where user_id = $1', [staffId]);
      await tx.query('insert into user_roles (tenant_id, user_id, role_id) values ($1, $2, $3)', [demo, staffId, role.id]);
    });
    const viewer = bearer(await login(t.app, 'demo', DEMO.staff));
    const seen = await rowOf('Chị Lan', viewer);
    expect(seen.call).toMatchObject({ call_id: 'campaign-call-1', talk_seconds: 42, result: 'answered', recording: null });
    // Another tenant does not find the campaign, nor the recording.
    expect((await send('GET', SURVEY.contacts(campaign), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
    expect((await send('GET', RECORDING_API.audio(row.call!.recording!.id), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
  });
});
