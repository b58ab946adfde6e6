import {
  CAMPAIGN_MSG, MONITOR_API, PBX_MSG, SURVEY_API, SURVEY_MSG, WORK_MSG, campaignApi, type MonitorSnapshot, campaignResultsApi, campaignWorkApi, type CampaignResults,
  type VoiceSurveyJob,
} from '@tongdai/contracts';
import { pbxClient, wav } from '@tongdai/testkit/pbx-kit';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { demoHeaders, INTERNAL_HEADERS, startTestApp, type TestApp } from '../../../test/helpers';
import { dialerTelecom } from '../../../test/dialer-fixture';
import { buildInternalServer } from '../sip/internal-server';
import { createDialerService, DIALER_LOST_CALL_S, DIALER_LOST_VOICE_S, voiceValue } from './dialer.service';

const SURVEY = campaignApi('survey');
const MARKETING = campaignApi('marketing');
const RESULTS = campaignResultsApi('survey');
const WORK = campaignWorkApi('survey');
const MINUTE = 60_000;

/**
 * The automated voice survey's API side (issue 34) on a real PostgreSQL, without calls: what the media
 * workers' asks claim (`claimVoice`: the campaign's channels, the hotline's minute, two instances on one
 * database), what its reports do (no bridge; the keys pressed saved as an agent's answers, the contact
 * agreed or declined; unanswered calls by the retry policy), the job the internal listener hands out,
 * and the campaign form's checks (only questions the phone can answer; a survey's mode only).
 */
describe('the automated voice survey on PostgreSQL', () => {
  let t: TestApp;
  let other: Db;
  let admin: Record<string, string>;
  let demo: number;
  let hotlineId: number;
  let category: number;
  /** demo's uploaded greeting a question plays as its recording; abc's, which no demo question may play; demo's music on hold. */
  let greeting: number;
  let abcGreeting: number;
  let music: number;
  const q: Record<'rating' | 'yesNo' | 'single' | 'number' | 'text' | 'multiple', number> = { rating: 0, yesNo: 0, single: 0, number: 0, text: 0, multiple: 0 };

  const question = async (payload: Record<string, unknown>): Promise<number> => {
    const res = await t.app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers: admin, payload: { category_id: category, ...payload } });
    expect([res.statusCode, res.body]).toEqual([201, res.body]);
    return res.json().data.id;
  };
  /** A voice survey on `hotline` with `contacts` contacts due a minute ago, running. */
  async function voiceCampaign(name: string, hotline: number, contacts: number, extra: Record<string, unknown> = {}, prefix = '8491300'): Promise<number> {
    const made = await t.app.inject({
      method: 'POST', url: `/t/demo/${SURVEY.base}`, headers: admin,
      payload: { name, mode: 'voice', question_ids: [q.rating, q.yesNo, q.single, q.number], hotline_id: hotline, retry_no_answer_min: 5, max_attempts: 2, ...extra },
    });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    const id = made.json().data.id as number;
    await t.db.withTenant(demo, (tx) => tx.query(
      `insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, $3 || lpad(i::text, 4, '0'), 'Khách ' || i, now() - interval '1 minute'
         from generate_series(1, ${contacts}) as i`, [demo, id, prefix]));
    const run = await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(id)}`, headers: admin, payload: { to: 'running' } });
    expect([run.statusCode, run.body]).toEqual([200, run.body]);
    return id;
  }
  const contactOf = (attemptId: number) =>
    t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number; state: string; result: string | null; next_at: Date; held_by: number | null }>(
      'select k.id::int, k.state, k.result, k.next_at, k.held_by from campaign_attempts a join campaign_contacts k on k.id = a.contact_id where a.id = $1', [attemptId])).rows[0]);
  const answersOf = (contactId: number) =>
    t.db.withTenant(demo, async (tx) => (await tx.query<{ question_id: number; attempt_id: number; value: unknown; question: { question_id: number; version: number; kind: string; options: string[] } }>(
      'select question_id, attempt_id::int, value, question from survey_answers where contact_id = $1 order by question_id', [contactId])).rows);
  /** Ends every voice survey but `keep` (the claims read every running one). */
  const endOthers = (keep: number) => t.db.withTenant(demo, (tx) => tx.query("update campaigns set state = 'ended' where mode = 'voice' and id <> $1", [keep]));

  beforeAll(async () => {
    t = await startTestApp();
    other = await openDb({ databaseUrl: t.dbUrl });
    const headers = await demoHeaders(t.app);
    admin = headers.admin;
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    hotlineId = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873007007') returning id", [demo])).rows[0].id);
    category = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers: admin, payload: { name: 'Khảo sát tự động' } })).json().data.id;
    q.rating = await question({ kind: 'rating', text: 'Quý khách đánh giá dịch vụ thế nào' });
    q.yesNo = await question({ kind: 'yes_no', text: 'Quý khách có giới thiệu cho người quen không?' });
    q.single = await question({ kind: 'single', text: 'Quý khách biết đến chúng tôi qua đâu', options: ['Bạn bè', 'Quảng cáo', 'Khác'] });
    q.number = await question({ kind: 'number', text: 'Quý khách dùng dịch vụ bao nhiêu năm' });
    q.text = await question({ kind: 'text', text: 'Ý kiến khác' });
    q.multiple = await question({ kind: 'multiple', text: 'Quý khách dùng những gói nào', options: ['A', 'B'] });
    const file = { name: 'cau-hoi.wav', type: 'audio/wav', bytes: wav(1) };
    const uploaded = async (headers: Record<string, string>, path: string, name: string) => {
      const res = await pbxClient(t.app, headers).upload(path, { name }, file);
      expect([res.statusCode, res.body]).toEqual([201, res.body]);
      return res.json().data.id as number;
    };
    greeting = await uploaded(admin, '/partner/greeting', 'Câu hỏi đánh giá (giọng thật)');
    abcGreeting = await uploaded(headers.abcAdmin, '/partner/greeting', 'Lời chào của ABC');
    music = await uploaded(admin, '/partner/moh', 'Nhạc chờ');
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('the form: a voice survey asks only questions the phone answers, has no agents, keeps its channels; a marketing campaign cannot be one', async () => {
    const create = (base: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/t/demo/${base}`, headers: admin, payload: { name: 'Thử', hotline_id: hotlineId, ...payload } });
    for (const kind of [q.text, q.multiple]) {
      const res = await create(SURVEY.base, { mode: 'voice', question_ids: [q.rating, kind] });
      expect([res.statusCode, res.json().code, res.json().details]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'question_ids', message: CAMPAIGN_MSG.voiceQuestionKind }]]);
    }
    // A single choice of ten options: keys 1–9 cannot answer it.
    const ten = await question({ kind: 'single', text: 'Chọn một', options: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] });
    const tooMany = await create(SURVEY.base, { mode: 'voice', question_ids: [ten] });
    expect([tooMany.statusCode, tooMany.json().details]).toEqual([400, [{ field: 'question_ids', message: CAMPAIGN_MSG.voiceQuestionKind }]]);
    // The same question in a progressive campaign is fine.
    expect((await create(SURVEY.base, { mode: 'preview', question_ids: [q.text], agent_ids: [1] })).statusCode).not.toBe(400);

    const marketing = await create(MARKETING.base, { mode: 'voice', script: 'Xin chào', agent_ids: [] });
    expect(marketing.statusCode).toBe(400);
    expect(marketing.json().details).toEqual(expect.arrayContaining([{ field: 'mode', message: CAMPAIGN_MSG.voiceSurveyOnly }]));

    // No agents, the channels kept and read back (default 5), changed by an edit.
    const made = await create(SURVEY.base, { mode: 'voice', question_ids: [q.rating, q.single] });
    expect([made.statusCode, made.json().data.voice_channels, made.json().data.agent_ids]).toEqual([201, 5, []]);
    const id = made.json().data.id;
    const edited = await t.app.inject({ method: 'PUT', url: `/t/demo/${SURVEY.one(id)}`, headers: admin, payload: { name: 'Thử', hotline_id: hotlineId, mode: 'voice', question_ids: [q.rating, q.single], voice_channels: 12 } });
    expect([edited.statusCode, edited.json().data.voice_channels]).toEqual([200, 12]);
    expect((await t.app.inject({ url: `/t/demo/${SURVEY.one(id)}`, headers: admin })).json().data.voice_channels).toBe(12);
    const outOfRange = await t.app.inject({ method: 'PUT', url: `/t/demo/${SURVEY.one(id)}`, headers: admin, payload: { name: 'Thử', hotline_id: hotlineId, mode: 'voice', question_ids: [q.rating], voice_channels: 31 } });
    expect([outOfRange.statusCode, outOfRange.json().details?.[0]?.field]).toEqual([400, 'voice_channels']);

    // A question edited into a text question meanwhile: the start is refused the same way.
    const editable = await question({ kind: 'rating', text: 'Sẽ sửa' });
    const later = (await create(SURVEY.base, { mode: 'voice', question_ids: [editable] })).json().data.id;
    await t.db.withTenant(demo, (tx) => tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name) values ($1, $2, '84913999999', 'A')", [demo, later]));
    const put = await t.app.inject({ method: 'PUT', url: `/t/demo/survey-questions/${editable}`, headers: admin, payload: { category_id: category, kind: 'text', text: 'Sẽ sửa' } });
    expect(put.statusCode).toBe(200);
    const start = await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(later)}`, headers: admin, payload: { to: 'running' } });
    expect([start.statusCode, start.json().details]).toEqual([400, [{ field: 'question_ids', message: CAMPAIGN_MSG.voiceQuestionKind }]]);
  });

  it("a question's recording: only one of the tenant's greetings (400 on the field otherwise, nothing written), kept for the kinds the phone answers, claimed with the call, never deleted under it", async () => {
    const save = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload: { category_id: category, kind: 'rating', text: 'Quý khách chấm điểm nhân viên', ...payload } });
    const questions = () => t.db.withSystem(async (tx) => JSON.stringify((await tx.query('select * from survey_questions order by id')).rows));
    const before = await questions();
    // Another tenant's greeting, music on hold, a file that does not exist: the same 400, on the field.
    for (const id of [abcGreeting, music, 999_999]) {
      const res = await save('POST', SURVEY_API.questions, { voice_audio_id: id });
      expect([res.statusCode, res.json()]).toEqual([400, {
        status: 400, code: 'VALIDATION_FAILED', message: expect.any(String), details: [{ field: 'voice_audio_id', message: SURVEY_MSG.voiceAudioUnknown }],
      }]);
    }
    expect(await questions()).toBe(before);

    // Its own greeting, as the form's select sends it (a string): saved and read back.
    const made = await save('POST', SURVEY_API.questions, { voice_audio_id: String(greeting) });
    expect([made.statusCode, made.json().data.voice_audio_id]).toEqual([201, greeting]);
    const recorded = made.json().data.id as number;
    expect((await t.app.inject({ url: `/t/demo/${SURVEY_API.questions}/${recorded}`, headers: admin })).json().data).toMatchObject({ voice_audio_id: greeting, version: 1 });
    // An edit to another tenant's file is refused and changes nothing; "" takes the recording off, a new one is no new version.
    const stolen = await save('PUT', `${SURVEY_API.questions}/${recorded}`, { voice_audio_id: abcGreeting });
    expect([stolen.statusCode, stolen.json().details]).toEqual([400, [{ field: 'voice_audio_id', message: SURVEY_MSG.voiceAudioUnknown }]]);
    expect((await save('PUT', `${SURVEY_API.questions}/${recorded}`, { voice_audio_id: '' })).json().data).toMatchObject({ voice_audio_id: null, version: 1 });
    expect((await save('PUT', `${SURVEY_API.questions}/${recorded}`, { voice_audio_id: greeting })).json().data).toMatchObject({ voice_audio_id: greeting, version: 1 });
    // A kind the phone cannot answer keeps no recording.
    expect((await save('POST', SURVEY_API.questions, { kind: 'text', voice_audio_id: greeting })).json().data.voice_audio_id).toBeNull();
    // The form's choices: the tenant's greetings only.
    const options = (await t.app.inject({ url: `/t/demo/${SURVEY_API.audioOptions}`, headers: admin })).json().data as { id: number; name: string }[];
    expect(options).toContainEqual({ id: greeting, name: 'Câu hỏi đánh giá (giọng thật)' });
    expect(options.map((o) => o.id)).not.toContain(abcGreeting);
    expect(options.map((o) => o.id)).not.toContain(music);

    // A greeting a question plays is not deleted under it (as an IVR's greeting).
    const del = await pbxClient(t.app, admin).del(`/partner/greeting/${greeting}`);
    expect([del.statusCode, del.json().message]).toEqual([409, PBX_MSG.inUse('câu hỏi khảo sát')]);

    // Claimed with the call: the question carries its recording, the attempt keeps what it played, an answer keeps the question as asked only.
    const campaign = await voiceCampaign('Có ghi âm', hotlineId, 1, { question_ids: [recorded, q.yesNo] }, '8491800');
    await endOthers(campaign);
    const dialer = createDialerService(t.db);
    const at = new Date();
    const [call] = await dialer.claimVoice(5, at);
    expect(call.questions).toEqual([
      { id: recorded, kind: 'rating', text: 'Quý khách chấm điểm nhân viên', options: [], audio_id: greeting },
      { id: q.yesNo, kind: 'yes_no', text: 'Quý khách có giới thiệu cho người quen không?', options: [], audio_id: null },
    ]);
    const stored = await t.db.withTenant(demo, async (tx) => (await tx.query('select voice_questions from campaign_attempts where id = $1', [call.attempt_id])).rows[0].voice_questions);
    expect(stored).toEqual([
      { question_id: recorded, version: 1, kind: 'rating', text: 'Quý khách chấm điểm nhân viên', options: [], audio_id: greeting },
      { question_id: q.yesNo, version: 1, kind: 'yes_no', text: 'Quý khách có giới thiệu cho người quen không?', options: [], audio_id: null },
    ]);
    await dialer.report(demo, call.attempt_id, 'answered', { callId: 'voice-recorded' }, at);
    await dialer.report(demo, call.attempt_id, 'completed', { durationS: 20, answers: [{ question_id: recorded, keys: '5' }, { question_id: q.yesNo, keys: null }] }, at);
    const [answer] = await answersOf((await contactOf(call.attempt_id)).id);
    expect([answer.value, answer.question]).toEqual([5, { question_id: recorded, version: 1, kind: 'rating', text: 'Quý khách chấm điểm nhân viên', options: [] }]);
  });

  it('the keys as answers: each kind, and keys that answer nothing', () => {
    const single = { kind: 'single' as const, options: ['Bạn bè', 'Quảng cáo', 'Khác'] };
    expect(voiceValue({ kind: 'rating', options: [] }, '4')).toBe(4);
    expect(voiceValue({ kind: 'rating', options: [] }, '6')).toBeNull();
    expect(voiceValue({ kind: 'rating', options: [] }, '0')).toBeNull();
    expect(voiceValue({ kind: 'yes_no', options: [] }, '1')).toBe(true);
    expect(voiceValue({ kind: 'yes_no', options: [] }, '2')).toBe(false);
    expect(voiceValue({ kind: 'yes_no', options: [] }, '3')).toBeNull();
    expect(voiceValue(single, '2')).toBe('Quảng cáo');
    expect(voiceValue(single, '4')).toBeNull();
    expect(voiceValue(single, '0')).toBeNull();
    expect(voiceValue({ kind: 'number', options: [] }, '0012')).toBe(12);
    expect(voiceValue({ kind: 'number', options: [] }, '12*3')).toBeNull();
    expect(voiceValue({ kind: 'number', options: [] }, '9'.repeat(32))).toBeNull();
    expect(voiceValue({ kind: 'rating', options: [] }, null)).toBeNull();
    expect(voiceValue({ kind: 'text', options: [] }, '1')).toBeNull();
  });

  it("the campaign's channels: 2 channels, 5 contacts → 2 calls across two instances asking at once, never one contact twice; a call ending frees one", async () => {
    const campaign = await voiceCampaign('Hai kênh', hotlineId, 5, { voice_channels: 2 });
    await endOthers(campaign);
    // An agent's screen gets nothing of it: the server asks the questions.
    const next = await t.app.inject({ method: 'POST', url: `/t/demo/${WORK.next(campaign)}`, headers: admin });
    expect([next.statusCode, next.json().message]).toEqual([409, WORK_MSG.voiceSurvey]);
    const ready = await t.app.inject({ method: 'PUT', url: `/t/demo/${WORK.ready(campaign)}`, headers: admin, payload: { ready: true } });
    expect([ready.statusCode, ready.json().message]).toEqual([409, WORK_MSG.voiceSurvey]);

    const at = new Date();
    const a = createDialerService(t.db);
    const b = createDialerService(other);
    const claims = (await Promise.all([...Array(3)].flatMap(() => [a.claimVoice(10, at), b.claimVoice(10, at)]))).flat();
    expect(claims).toHaveLength(2);
    expect(new Set(claims.map((c) => c.contact_id)).size).toBe(2);
    expect(claims[0]).toMatchObject({
      campaign_id: campaign, campaign_name: 'Hai kênh', user_id: null, extension: null, hotline: '02873007007',
      questions: [
        { id: q.rating, kind: 'rating', text: 'Quý khách đánh giá dịch vụ thế nào', options: [] },
        { id: q.yesNo, kind: 'yes_no' },
        { id: q.single, kind: 'single', options: ['Bạn bè', 'Quảng cáo', 'Khác'] },
        { id: q.number, kind: 'number' },
      ],
    });
    // Held by nobody, the attempt a dialer call for nobody; both channels up: nothing more, on either instance.
    expect(await contactOf(claims[0].attempt_id)).toMatchObject({ state: 'held', held_by: null });
    expect(await a.claimVoice(10, at)).toEqual([]);
    expect(await b.claimVoice(10, at)).toEqual([]);
    // The progress: calls up, no agents ready nor talking.
    const progress = (await t.app.inject({ url: `/t/demo/${SURVEY.progress(campaign)}`, headers: admin })).json().data;
    expect(progress.dialer).toEqual({ calling: 2, talking: 0, ready: 0, answered: 0, abandoned: 0, hotline_minute: null });
    // The /monitor wall has its tile, with the same figures.
    const wall = (await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: admin })).json().data as MonitorSnapshot;
    expect(wall.campaigns.find((c) => c.campaign_id === campaign)).toEqual({ campaign_id: campaign, family: 'survey', name: 'Hai kênh', mode: 'voice', state: 'running', dialer: progress.dialer });

    // One call unanswered: the channel is free, the next contact is called; its own contact comes back after 5 minutes.
    expect(await a.report(demo, claims[0].attempt_id, 'no_answer', {}, at)).toEqual({ applied: true, bridge: null });
    const back = await contactOf(claims[0].attempt_id);
    expect([back.state, back.result, new Date(back.next_at).getTime()]).toEqual(['pending', 'no_answer', at.getTime() + 5 * MINUTE]);
    const third = await b.claimVoice(10, at);
    expect(third).toHaveLength(1);
    expect(claims.map((c) => c.contact_id)).not.toContain(third[0].contact_id);
    expect(await a.claimVoice(10, at)).toEqual([]);

    // Answered: no bridge and nobody searched for; answered twice: not taken again.
    expect(await a.report(demo, claims[1].attempt_id, 'answered', { callId: 'voice-1' }, at)).toEqual({ applied: true, bridge: null });
    expect(await a.report(demo, claims[1].attempt_id, 'answered', { callId: 'voice-1' }, at)).toEqual({ applied: false, bridge: null });
    // Answered, then nothing pressed: declined, no answer saved, the contact done.
    expect(await a.report(demo, claims[1].attempt_id, 'completed', { durationS: 40.4, answers: [{ question_id: q.rating, keys: null }, { question_id: q.yesNo, keys: '7' }] }, at))
      .toEqual({ applied: true, bridge: null });
    const declined = await contactOf(claims[1].attempt_id);
    expect([declined.state, declined.result]).toEqual(['done', 'declined']);
    expect(await answersOf(declined.id)).toEqual([]);
    // A late report changes nothing.
    expect(await a.report(demo, claims[1].attempt_id, 'completed', { answers: [{ question_id: q.rating, keys: '5' }] }, at)).toEqual({ applied: false, bridge: null });
    expect(await answersOf(declined.id)).toEqual([]);

    // Five minutes on, the unanswered contact is called again (its second and last attempt), after the
    // contacts never called (due earlier); each call that fails comes back only five minutes after it.
    await b.report(demo, third[0].attempt_id, 'busy', {}, at);
    const later = new Date(at.getTime() + 6 * MINUTE);
    const called: number[] = [];
    for (let round = 0; round < 4 && !called.includes(claims[0].contact_id); round++) {
      const placed = await a.claimVoice(10, later);
      expect(placed.length).toBeLessThanOrEqual(2);
      for (const c of placed) await a.report(demo, c.attempt_id, 'failed', {}, later);
      called.push(...placed.map((c) => c.contact_id));
    }
    expect(called).toContain(claims[0].contact_id);
    // That was its last attempt: the contact is done as unanswered.
    expect(await t.db.withTenant(demo, async (tx) => (await tx.query('select state, result, attempts from campaign_contacts where id = $1', [claims[0].contact_id])).rows[0]))
      .toEqual({ state: 'done', result: 'failed', attempts: 2 });
  });

  it('the keys pressed are saved as an agent saves answers, and the results show them with the contact agreed', async () => {
    const campaign = await voiceCampaign('Kết quả', hotlineId, 1, { voice_channels: 3 }, '8491400');
    await endOthers(campaign);
    const dialer = createDialerService(t.db);
    const at = new Date();
    const [call] = await dialer.claimVoice(5, at);
    expect(call).toBeDefined();
    expect((await dialer.report(demo, call.attempt_id, 'answered', { callId: 'voice-2' }, at)).bridge).toBeNull();
    const ended = await dialer.report(demo, call.attempt_id, 'completed', {
      durationS: 61.7,
      answers: [
        { question_id: q.rating, keys: '4' }, { question_id: q.yesNo, keys: '2' }, { question_id: q.single, keys: '9' }, { question_id: q.number, keys: '12' },
        // A question the call did not ask is not saved.
        { question_id: q.text, keys: '1' },
      ],
    }, at);
    expect(ended).toEqual({ applied: true, bridge: null });
    const contact = await contactOf(call.attempt_id);
    expect([contact.state, contact.result]).toEqual(['done', 'agreed']);
    const saved = await answersOf(contact.id);
    // The single choice's key 9 of three options answers nothing.
    expect(saved.map((r) => [r.question_id, r.value, r.attempt_id])).toEqual([
      [q.rating, 4, call.attempt_id], [q.yesNo, false, call.attempt_id], [q.number, 12, call.attempt_id],
    ]);
    expect(saved[0].question).toMatchObject({ question_id: q.rating, version: 1, kind: 'rating', text: 'Quý khách đánh giá dịch vụ thế nào' });
    const attempt = await t.db.withTenant(demo, async (tx) => (await tx.query('select dialer_state, result, duration_s from campaign_attempts where id = $1', [call.attempt_id])).rows[0]);
    expect(attempt).toEqual({ dialer_state: 'ended', result: 'agreed', duration_s: 62 });

    // The results screen's read model: the answers counted per question as an agent's are, the attempt the system's.
    const res = await t.app.inject({ url: `/t/demo/${RESULTS.results(campaign)}`, headers: admin });
    expect(res.statusCode).toBe(200);
    const results = res.json().data as CampaignResults;
    expect(results.progress).toMatchObject({ total: 1, done: 1, by_result: { agreed: 1 } });
    const byId = new Map(results.questions.map((x) => [x.question_id, x]));
    expect(byId.get(q.rating)).toMatchObject({ answered: 1, average: 4, options: expect.arrayContaining([{ label: '4', count: 1 }]) });
    expect(byId.get(q.yesNo)).toMatchObject({ answered: 1, options: [{ label: 'Có', count: 0 }, { label: 'Không', count: 1 }] });
    expect(byId.get(q.single)).toMatchObject({ answered: 0 });
    expect(byId.get(q.number)).toMatchObject({ answered: 1, average: 12 });
    expect(results.agents).toEqual([expect.objectContaining({ user_id: null, attempts: 1, by_result: { agreed: 1 } })]);
    expect(results.progress.dialer).toMatchObject({ calling: 0, talking: 0, ready: 0, answered: 1, abandoned: 0 });
  });

  it('a contact who hangs up before the end keeps what they answered; the sweep leaves an answered survey asking, and fails one lost', async () => {
    const campaign = await voiceCampaign('Gác máy', hotlineId, 3, { voice_channels: 3 }, '8491500');
    await endOthers(campaign);
    const dialer = createDialerService(t.db);
    const at = new Date();
    const [first, second, third] = await dialer.claimVoice(5, at);
    await dialer.report(demo, first.attempt_id, 'answered', { callId: 'voice-3' }, at);
    expect(await dialer.report(demo, first.attempt_id, 'abandoned', { durationS: 9, answers: [{ question_id: q.rating, keys: '5' }] }, at)).toEqual({ applied: true, bridge: null });
    const hungUp = await contactOf(first.attempt_id);
    expect([hungUp.state, hungUp.result]).toEqual(['done', 'agreed']);
    expect((await answersOf(hungUp.id)).map((r) => r.value)).toEqual([5]);

    // Answered (asking its questions) for longer than a progressive call may go unreported: left alone;
    // still calling after DIALER_LOST_CALL_S: failed and back by the retry policy.
    await dialer.report(demo, second.attempt_id, 'answered', { callId: 'voice-4' }, at);
    const sweep = new Date(at.getTime() + (DIALER_LOST_CALL_S + 10) * 1000);
    expect(await dialer.failLostCalls(sweep)).toBe(1);
    expect(await contactOf(third.attempt_id)).toMatchObject({ state: 'pending', result: 'failed' });
    expect(await contactOf(second.attempt_id)).toMatchObject({ state: 'held', held_by: null });
    // Its lease outlives the sweep: no claim meanwhile takes the contact in a call.
    expect((await dialer.claimVoice(5, sweep)).map((c) => c.contact_id)).not.toContain(second.contact_id);
    // Silent past DIALER_LOST_VOICE_S after its answer: lost, failed, back by the retry policy.
    expect(await dialer.failLostCalls(new Date(at.getTime() + (DIALER_LOST_VOICE_S + 10) * 1000))).toBeGreaterThanOrEqual(1);
    expect(await contactOf(second.attempt_id)).toMatchObject({ state: 'pending', result: 'failed' });
  });

  it("the hotline's calls-per-minute cap holds a voice survey's calls too", async () => {
    const capped = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number, max_calls_per_minute) values ($1, '842873007008', 2) returning id", [demo])).rows[0].id);
    const campaign = await voiceCampaign('Giới hạn', capped, 5, { voice_channels: 5 }, '8491600');
    await endOthers(campaign);
    const a = createDialerService(t.db);
    const b = createDialerService(other);
    const at = new Date();
    const first = (await Promise.all([a.claimVoice(10, at), b.claimVoice(10, at)])).flat();
    expect(first).toHaveLength(2);
    for (const c of first) await a.report(demo, c.attempt_id, 'no_answer', {}, at);
    // Channels free, the minute full: nothing until it is over.
    expect(await a.claimVoice(10, new Date(at.getTime() + 30_000))).toEqual([]);
    const next = await b.claimVoice(10, new Date(at.getTime() + 61_000));
    expect(next).toHaveLength(2);
    expect(new Set([...first, ...next].map((c) => c.contact_id)).size).toBe(4);
  });

  it("the workers' ask: a voice survey's job with its prompts; its reports through the listener, the answers' keys checked", async () => {
    const [, telecomHotline] = await dialerTelecom(t.db, demo, 5998, '02873007009');
    // One question with a recording: the job names the file (the worker plays it), its text still said if it cannot.
    const recorded = await question({ kind: 'yes_no', text: 'Quý khách có hài lòng không', voice_audio_id: greeting });
    const campaign = await voiceCampaign('Khảo sát Tổng đài', telecomHotline, 1, { voice_channels: 2, question_ids: [q.rating, q.yesNo, q.single, q.number, recorded] }, '8491700');
    await endOthers(campaign);
    const internal = buildInternalServer(t.db, { calls: { switchboardsTtlMs: 100 } });
    await internal.ready();
    try {
      const ask = await internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: INTERNAL_HEADERS, payload: { worker: '127.0.0.1:1', wait_ms: 0, max: 5 } });
      expect([ask.statusCode, ask.body]).toEqual([200, ask.body]);
      const jobs = ask.json().jobs as VoiceSurveyJob[];
      expect(jobs).toHaveLength(1);
      const [job] = jobs;
      expect(job).toEqual({
        kind: 'voice', id: expect.stringMatching(/^\d+$/), tenant_id: demo, attempt: 1, token: expect.any(String), caller: '02873007009', ring_s: 30,
        campaign_id: campaign, contact_id: expect.any(Number),
        intro: 'Xin chào quý khách. Đây là cuộc khảo sát tự động của Khảo sát Tổng đài. Quý khách vui lòng trả lời bằng cách bấm phím trên điện thoại.',
        questions: [
          { question_id: q.rating, kind: 'rating', say: 'Quý khách đánh giá dịch vụ thế nào? Xin bấm một phím từ 1 đến 5.', options: 0, audio_id: null },
          { question_id: q.yesNo, kind: 'yes_no', say: 'Quý khách có giới thiệu cho người quen không? Bấm phím 1 nếu có, phím 2 nếu không.', options: 0, audio_id: null },
          { question_id: q.single, kind: 'single', say: 'Quý khách biết đến chúng tôi qua đâu? Bấm phím 1 cho Bạn bè, Bấm phím 2 cho Quảng cáo, Bấm phím 3 cho Khác.', options: 3, audio_id: null },
          { question_id: q.number, kind: 'number', say: 'Quý khách dùng dịch vụ bao nhiêu năm? Xin nhập số, rồi bấm phím thăng.', options: 0, audio_id: null },
          { question_id: recorded, kind: 'yes_no', say: 'Quý khách có hài lòng không? Bấm phím 1 nếu có, phím 2 nếu không.', options: 0, audio_id: greeting },
        ],
        thanks: 'Xin cảm ơn quý khách đã tham gia khảo sát. Xin chào.',
      });
      const report = (payload: Record<string, unknown>) =>
        internal.inject({ method: 'POST', url: '/internal/sip/media/originated', headers: INTERNAL_HEADERS, payload: { kind: 'dialer', id: job.id, tenant_id: demo, ...payload } });
      const answered = await report({ outcome: 'answered', call_id: 'voice-route-1' });
      expect(answered.json()).toEqual({ ok: true, applied: true, bridge: null });
      // Keys only of the phone's: anything else is a bad report, nothing taken.
      expect((await report({ outcome: 'completed', answers: [{ question_id: q.rating, keys: '4a' }] })).statusCode).toBe(400);
      expect((await report({ outcome: 'completed', answers: [{ question_id: 0, keys: '4' }] })).statusCode).toBe(400);
      expect((await report({ outcome: 'completed', answers: [...Array(51)].map(() => ({ question_id: q.rating, keys: '4' })) })).statusCode).toBe(400);
      const done = await report({ outcome: 'completed', duration_s: 33, answers: [{ question_id: q.rating, keys: '3' }, { question_id: q.number, keys: '7#' }, { question_id: q.single, keys: '3' }] });
      expect(done.json()).toEqual({ ok: true, applied: true });
      const contact = await contactOf(Number(job.id));
      expect([contact.state, contact.result]).toEqual(['done', 'agreed']);
      expect((await answersOf(contact.id)).map((r) => [r.question_id, r.value])).toEqual([[q.rating, 3], [q.single, 'Khác']]);
    } finally {
      await internal.close();
    }
  });
});
