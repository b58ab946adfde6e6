import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VOICE_INPUT_S, type DialerReportAnswer, type VoiceQuestion, type VoiceSurveyJob } from '@tongdai/contracts';
import { prepareSpeech } from '../audio/speech';
import { encodeWav } from '../audio/wav';
import { encodeUlaw } from '../rtp/g711';
import { SipEndpoint } from '../sip/endpoint';
import { header, type SipRequest } from '../sip/message';
import { parseSdp } from '../sip/sdp';
import { startWorker, type RunningWorker } from '../worker';
import type { DialerCallReport } from './dialer-call';
import { placedKey, type PlacedCall } from './placed-leg';
import { FakeProxy, Phone, fakeOriginateApi, until } from './testing/fake-sip';
import { VoiceSurveyCall } from './voice-survey-call';

// The wait for a key, shortened so that a question left unanswered takes a second, not twelve.
jest.mock('@tongdai/contracts', () => ({ ...jest.requireActual('@tongdai/contracts'), VOICE_INPUT_S: 0.5 }));

// Speech without espeak-ng (speech.test.ts runs the real one): a text "<name> <ms> ms" becomes that
// long a constant clip whose level names it, so the phone's packets tell which prompt was said.
jest.mock('../audio/speech', () => {
  const levels: Record<string, number> = { intro: 1000, repeat: 2000, thanks: 3000, q1: 4000, q2: 5000, q3: 6000, q4: 7000 };
  return {
    REPEAT_TEXT: 'repeat 200 ms',
    prepareSpeech: jest.fn(async (text: string) => {
      const [, name, ms] = /^(\w+) (\d+) ms$/.exec(text)!;
      return new Int16Array(Math.round((Number(ms) * 8000) / 1000)).fill(levels[name]);
    }),
  };
});

/** An uploaded recording's level: no speech is this loud, so its packets can only be the file's samples. */
const RECORDING_LEVEL = 8000;
/** Which prompt a PCMU payload byte is (the mock's levels, and the uploaded recording's). */
const CLIP_BY_BYTE = new Map(Object.entries({ intro: 1000, repeat: 2000, thanks: 3000, q1: 4000, q2: 5000, q3: 6000, q4: 7000, recording: RECORDING_LEVEL }).map(([name, level]) => [encodeUlaw(new Int16Array([level]))[0], name]));
/** A 300 ms recording as the greetings' library gives it (8 kHz samples). */
const recordingClip = () => new Int16Array(2400).fill(RECORDING_LEVEL);

const question = (question_id: number, kind: VoiceQuestion['kind'], ms = 300, options = 0, audio_id: number | null = null): VoiceQuestion =>
  ({ question_id, kind, say: `q${question_id} ${ms} ms`, options, audio_id });

const JOB: VoiceSurveyJob = {
  kind: 'voice', id: 'att-5', tenant_id: 7, attempt: 1, token: 'contact-token', caller: '842873000111', ring_s: 2, campaign_id: 3, contact_id: 9,
  intro: 'intro 200 ms',
  questions: [question(1, 'rating'), question(2, 'yes_no'), question(3, 'single', 300, 3), question(4, 'number')],
  thanks: 'thanks 200 ms',
};

describe('VoiceSurveyCall (a fake Kamailio and a phone on 127.0.0.1)', () => {
  let ep: SipEndpoint;
  let proxy: FakeProxy;
  let contact: Phone;
  let placed: Map<string, PlacedCall>;
  let reports: DialerCallReport[];
  let call: VoiceSurveyCall | null;
  let logs: { at: number; msg: string }[];
  /** The greetings' library: "<tenant>/<id>" → samples (absent: the API has no such file, null as AudioLibrary says). */
  let files: Map<string, Int16Array>;
  let recordings: { get: jest.Mock<Promise<Int16Array | null>, [number, number]> };

  beforeEach(async () => {
    ep = await SipEndpoint.listen('127.0.0.1', 0);
    proxy = await FakeProxy.open();
    contact = await Phone.open();
    placed = new Map();
    reports = [];
    logs = [];
    files = new Map();
    recordings = { get: jest.fn(async (tenant: number, id: number) => files.get(`${tenant}/${id}`) ?? null) };
    ep.onRequest = (req, from) => placed.get(placedKey(req))?.onRequest(req, from);
  });
  afterEach(() => {
    call?.stop();
    call = null;
    ep.close();
    for (const s of [proxy.socket, contact.socket]) s.close();
  });

  /** Places the job; the API answers `answered` with no bridge (`apiAway`: not at all). */
  const place = async (job: VoiceSurveyJob, apiAway = false) => {
    const ctx = { ep, proxy: { address: '127.0.0.1', port: proxy.port }, log: (msg: string) => logs.push({ at: Date.now(), msg }), track: (k: string, c: PlacedCall | null) => (c ? placed.set(k, c) : placed.delete(k)) };
    call = new VoiceSurveyCall(ctx, job, async (r): Promise<DialerReportAnswer | null> => {
      reports.push(r);
      if (r.outcome === 'answered' && apiAway) return null;
      return { ok: true, applied: true, bridge: null };
    }, recordings);
    await call.start();
  };
  const outcomes = () => reports.map((r) => r.outcome);
  const logged = (re: RegExp) => logs.find((l) => re.test(l.msg));
  const waitLog = (re: RegExp, ms?: number) => until(`log ${re}`, () => !!logged(re), ms);
  /** The worker's RTP port for the contact's leg, from the INVITE's SDP. */
  const rtpPort = () => parseSdp(proxy.invite(JOB.token)!.body)!.peer.port;
  /** The prompts the contact heard, in order (runs of packets of one level). */
  const heard = () => contact.received.map((p) => CLIP_BY_BYTE.get(p[12]) ?? '?').filter((c, i, all) => c !== all[i - 1]);
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('asks every kind of question: keys by RTP events, by SIP INFO, a number ended by #; thanks, BYE, completed with the answers', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place(JOB);
    await until('the INVITE', () => !!proxy.invite(JOB.token));
    const invite = proxy.invite(JOB.token)!;
    // Every prompt was spoken before the INVITE.
    expect((prepareSpeech as jest.Mock).mock.calls.map(([t]) => t).sort()).toEqual(['intro 200 ms', 'q1 300 ms', 'q2 300 ms', 'q3 300 ms', 'q4 300 ms', 'repeat 200 ms', 'thanks 200 ms']);
    expect(header(invite, 'call-id')).toMatch(/@tongdai-media-voice$/);
    expect(parseSdp(invite.body)!.dtmf).toBe(101);

    await waitLog(/question 1: waiting for a key/);
    contact.dtmf(rtpPort(), '4');
    await waitLog(/question 2: waiting for a key/);
    contact.dtmf(rtpPort(), '2');
    await waitLog(/question 3: waiting for a key/);
    proxy.info(JOB.token, ep.port, 'application/dtmf-relay', 'Signal=3\r\nDuration=160\r\n');
    await waitLog(/question 4: waiting for a key/);
    for (const d of '0912#') {
      contact.dtmf(rtpPort(), d);
      await pause(30);
    }
    await until('completed', () => outcomes().includes('completed'), 6000);

    expect(reports[0]).toEqual({ outcome: 'answered', call_id: header(invite, 'call-id') });
    expect(reports[1]).toEqual({
      outcome: 'completed',
      duration_s: expect.any(Number),
      answers: [
        { question_id: 1, keys: '4' },
        { question_id: 2, keys: '2' },
        { question_id: 3, keys: '3' },
        { question_id: 4, keys: '0912' },
      ],
    });
    expect(reports).toHaveLength(2);
    await until('the BYE', () => proxy.seen('BYE').length > 0);
    expect(proxy.seen('BYE', header(invite, 'call-id'))).toHaveLength(1);
    await pause(60);
    expect(heard()).toEqual(['intro', 'q1', 'q2', 'q3', 'q4', 'thanks']);
    expect(placed.size).toBe(0);
    // Each step in the log, with the time since the INVITE.
    expect(logs.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^voice att-5 \+\d+ ms: question 3: answered 3$/));
  });

  it('a question with a recording plays the uploaded clip, not speech of its text; one whose file cannot be had is spoken, and logged', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    (prepareSpeech as jest.Mock).mockClear();
    files.set('7/41', recordingClip());
    // Question 2's file 42 is not there (deleted meanwhile, or the API away): the call goes on with its text.
    await place({ ...JOB, questions: [question(1, 'rating', 300, 0, 41), question(2, 'yes_no', 300, 0, 42), question(3, 'single', 300, 3)] });
    await until('the INVITE', () => !!proxy.invite(JOB.token));
    // Both files asked for (the job's tenant's) before the INVITE; question 1's text never spoken, question 2's spoken instead.
    expect(recordings.get.mock.calls).toEqual([[7, 41], [7, 42]]);
    expect((prepareSpeech as jest.Mock).mock.calls.map(([t]) => t).sort()).toEqual(['intro 200 ms', 'q2 300 ms', 'q3 300 ms', 'repeat 200 ms', 'thanks 200 ms']);
    expect(logged(/question 2: recording 42 could not be fetched or played: its text is spoken/)).toBeDefined();

    await waitLog(/question 1: waiting for a key/);
    contact.dtmf(rtpPort(), '5');
    await waitLog(/question 2: waiting for a key/);
    contact.dtmf(rtpPort(), '1');
    await waitLog(/question 3: waiting for a key/);
    contact.dtmf(rtpPort(), '2');
    await until('completed', () => outcomes().includes('completed'), 6000);
    expect(reports[1].answers).toEqual([
      { question_id: 1, keys: '5' },
      { question_id: 2, keys: '1' },
      { question_id: 3, keys: '2' },
    ]);
    await pause(60);
    // The contact heard the recording's samples where question 1 is asked (its 15 frames), then speech.
    expect(heard()).toEqual(['intro', 'recording', 'q2', 'q3', 'thanks']);
    expect(contact.received.filter((p) => CLIP_BY_BYTE.get(p[12]) === 'recording').length).toBeGreaterThanOrEqual(14);
    expect(contact.received.some((p) => CLIP_BY_BYTE.get(p[12]) === 'q1')).toBe(false);
  });

  it('a wrong key, then silence: the repeat phrase and the prompt once more, then no answer (the API away: the survey goes on)', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place({ ...JOB, questions: [question(1, 'rating')] }, true);
    await waitLog(/question 1: waiting for a key/);
    contact.dtmf(rtpPort(), '9');
    await until('completed', () => outcomes().includes('completed'), 6000);
    expect(reports[1].answers).toEqual([{ question_id: 1, keys: null }]);
    expect(logged(/question 1: invalid input 9/)).toBeDefined();
    expect(logged(/question 1: no key/)).toBeDefined();
    await pause(60);
    expect(heard()).toEqual(['intro', 'q1', 'repeat', 'q1', 'thanks']);
    // The second wait ran its VOICE_INPUT_S (mocked) before the thanks.
    expect(logged(/thanks/)!.at - logged(/question 1: asked again/)!.at).toBeGreaterThanOrEqual(VOICE_INPUT_S * 1000 + 400);
  });

  it('a key during the prompt cuts it short and answers: the next question comes before the prompt could have ended', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place({ ...JOB, questions: [question(1, 'yes_no', 3000), question(2, 'rating')] });
    await waitLog(/question 1: asked$/);
    await pause(300);
    contact.dtmf(rtpPort(), '1');
    await waitLog(/question 2: waiting for a key/);
    contact.dtmf(rtpPort(), '5');
    await until('completed', () => outcomes().includes('completed'), 6000);
    expect(logged(/question 2: asked$/)!.at - logged(/question 1: asked$/)!.at).toBeLessThan(2000);
    expect(reports[1].answers).toEqual([
      { question_id: 1, keys: '1' },
      { question_id: 2, keys: '5' },
    ]);
    await pause(60);
    // The prompt's packets stopped at the key (3 s would be 150 of them).
    expect(contact.received.filter((p) => CLIP_BY_BYTE.get(p[12]) === 'q1').length).toBeLessThan(100);
    expect(heard()).toEqual(['intro', 'q1', 'q2', 'thanks']);
  });

  it('a number ended by a pause; a key before the question belongs to nobody; a "*" is no number', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place({ ...JOB, intro: 'intro 600 ms', questions: [question(4, 'number'), question(1, 'number')] });
    await waitLog(/intro/);
    contact.dtmf(rtpPort(), '7');
    await waitLog(/key 7 ignored/);
    await waitLog(/question 4: waiting for a key/);
    contact.dtmf(rtpPort(), '1');
    await pause(30);
    contact.dtmf(rtpPort(), '2');
    await waitLog(/question 1: waiting for a key/, 3000);
    contact.dtmf(rtpPort(), '3');
    await pause(30);
    contact.dtmf(rtpPort(), '*');
    await until('completed', () => outcomes().includes('completed'), 6000);
    expect(logged(/question 1: invalid input 3\*/)).toBeDefined();
    expect(reports[1].answers).toEqual([
      { question_id: 4, keys: '12' },
      { question_id: 1, keys: null },
    ]);
  });

  it('the contact hanging up after the first answer: completed, the rest null, no BYE from us', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place(JOB);
    await waitLog(/question 1: waiting for a key/);
    contact.dtmf(rtpPort(), '3');
    await waitLog(/question 2: asked/);
    proxy.hangUp(JOB.token, ep.port);
    await until('completed', () => outcomes().includes('completed'));
    expect(reports[1]).toEqual({
      outcome: 'completed',
      duration_s: expect.any(Number),
      answers: [
        { question_id: 1, keys: '3' },
        { question_id: 2, keys: null },
        { question_id: 3, keys: null },
        { question_id: 4, keys: null },
      ],
    });
    await pause(100);
    expect(reports).toHaveLength(2);
    expect(proxy.seen('BYE')).toHaveLength(0);
    expect(placed.size).toBe(0);
  });

  it('stopped by the worker once answered: BYE, completed with the answers so far', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    await place(JOB);
    await waitLog(/question 1: waiting for a key/);
    contact.dtmf(rtpPort(), '5');
    await waitLog(/question 2: asked/);
    call!.stop();
    await until('completed', () => outcomes().includes('completed'));
    expect(reports[1].answers?.map((a) => a.keys)).toEqual(['5', null, null, null]);
    await until('the BYE', () => proxy.seen('BYE').length > 0);
  });

  it('stopped while its prompts are prepared: failed, and never placed', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    const starting = place(JOB);
    call!.stop();
    await starting;
    expect(reports).toEqual([{ outcome: 'failed', duration_s: null }]);
    expect(proxy.invite(JOB.token)).toBeUndefined();
  });

  it('the contact busy (486): busy, with the status and no duration', async () => {
    proxy.behaviours.set(JOB.token, { answer: 486 });
    await place(JOB);
    await until('busy', () => reports.length > 0);
    expect(reports).toEqual([{ outcome: 'busy', duration_s: null, status: 486 }]);
  });
});

describe('the worker places a voice survey job (a fake API on HTTP, the fake Kamailio)', () => {
  let api: Server;
  let proxy: FakeProxy;
  let contact: Phone;
  let worker: RunningWorker;
  let spool: string;
  let bodies: Record<string, unknown>[] = [];
  let audioAsked: string[] = [];
  const logs: string[] = [];
  // Question 2 has a recording the API serves (an uploaded WAV), question 3 one it does not have (404).
  const job: VoiceSurveyJob = { ...JOB, id: 'att-6', questions: [question(2, 'yes_no', 300, 0, 41), question(3, 'yes_no', 300, 0, 43)] };

  beforeAll(async () => {
    proxy = await FakeProxy.open();
    contact = await Phone.open();
    proxy.behaviours.set(job.token, { answer: 'ok', phone: contact });
    const fake = await fakeOriginateApi(job, null, { '7/41': { bytes: encodeWav(recordingClip()), mime: 'audio/wav' } });
    api = fake.server;
    bodies = fake.bodies;
    audioAsked = fake.audioAsked;
    spool = mkdtempSync(join(tmpdir(), 'voice-worker-'));
    const port = fake.port;
    worker = await startWorker({
      address: '127.0.0.1', port: 0, apiUrl: `http://127.0.0.1:${port}`, apiSecret: 'secret', proxy: { address: '127.0.0.1', port: proxy.port },
      spoolDir: spool, originatePollMs: 50, originateWaitMs: 0, log: (m) => logs.push(m),
    });
  });
  afterAll(async () => {
    worker.stop();
    for (const s of [proxy.socket, contact.socket]) s.close();
    await new Promise((r) => api.close(r));
    rmSync(spool, { recursive: true, force: true });
  });

  it('dispatches it by kind: recordings fetched from the API before the INVITE and heard; reports with kind dialer in order, the answers with the last, the call counted until it ends', async () => {
    await until('the question', () => logs.some((m) => /question 2: waiting for a key/.test(m)));
    expect(worker.calls()).toBe(1);
    // The worker asked GET /media/audio for the job's tenant's two files; the one the API lacks is spoken, and logged.
    expect(audioAsked.sort()).toEqual(['7/41', '7/43']);
    expect(logs).toContainEqual(expect.stringMatching(/question 3: recording 43 could not be fetched or played: its text is spoken/));
    const port = parseSdp(proxy.invite(job.token)!.body)!.peer.port;
    contact.dtmf(port, '1');
    await until('question 3', () => logs.some((m) => /question 3: waiting for a key/.test(m)));
    contact.dtmf(port, '2');
    await until('completed', () => bodies.some((b) => b.outcome === 'completed'));
    const base = { kind: 'dialer', id: job.id, tenant_id: job.tenant_id, attempt: 1 };
    expect(bodies).toEqual([
      { ...base, outcome: 'answered', call_id: header(proxy.invite(job.token) as SipRequest, 'call-id') },
      { ...base, outcome: 'completed', duration_s: expect.any(Number), answers: [{ question_id: 2, keys: '1' }, { question_id: 3, keys: '2' }] },
    ]);
    await until('the BYE', () => proxy.seen('BYE').length > 0);
    expect(worker.calls()).toBe(0);
    // Question 2 was the uploaded WAV's samples (decoded from the API's bytes), question 3 speech of its text.
    await new Promise((r) => setTimeout(r, 60));
    const heard = contact.received.map((p) => CLIP_BY_BYTE.get(p[12]) ?? '?').filter((c, i, all) => c !== all[i - 1]);
    expect(heard).toEqual(['intro', 'recording', 'q3', 'thanks']);
  });
});
