import type { Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORDING_INFO_TYPE, type DialerBridge, type DialerReportAnswer } from '@tongdai/contracts';
import { decodeMp3Channels } from '../audio/mp3';
import { RecordingSpool } from '../audio/recording-spool';
import { tonePower } from '../audio/tones';
import { encodeUlaw } from '../rtp/g711';
import { SipEndpoint } from '../sip/endpoint';
import { header, type SipRequest } from '../sip/message';
import { parseSdp } from '../sip/sdp';
import { DialerCall, type DialerCallReport, type DialerJob } from './dialer-call';
import { placedKey, type PlacedCall } from './placed-leg';
import { FakeProxy, Phone, fakeOriginateApi, until } from './testing/fake-sip';
import { startWorker, type RunningWorker } from '../worker';

// A short abandon message, so that a test hears it through in a fraction of a second (the real one
// is 8 s; its file is checked on its own below).
jest.mock('../audio/dialer-prompts', () => ({ DIALER_ABANDON_PROMPT: new Int16Array(160 * 10).fill(3000) }));

const JOB: DialerJob = { kind: 'dialer', id: 'att-1', tenant_id: 7, attempt: 1, token: 'contact-token', caller: '842873000111', ring_s: 2, campaign_id: 3, contact_id: 9 };
const BRIDGE: DialerBridge = { token: 'agent-token', ring_s: 1, caller: '0912345678', campaign: '3;contact=9' };
/** The same bridge for a call the API records (the agent's or the tenant's mode records outbound calls). */
const RECORDED: DialerBridge = { ...BRIDGE, record_ticket: '7.1999999999999.ticket-of-the-call' };

/** The worker's RTP port for a leg, from the INVITE's SDP. */
const rtpPort = (invite: SipRequest | undefined) => parseSdp(invite!.body)!.peer.port;

/** What the contact (left channel) and the agent (right channel) say in a recorded call: a tone each. */
const CONTACT_HZ = 440;
const AGENT_HZ = 1000;
/** 20 ms of a party's tone (PCMU), the `n`-th frame of their stream. */
const frame = (hz: number, n: number) => encodeUlaw(Int16Array.from({ length: 160 }, (_, i) => Math.round(6000 * Math.sin((2 * Math.PI * hz * (n * 160 + i)) / 8000))));

/** A recording's channel between two times (seconds): its RMS (0…1) and the power of a frequency in it. */
const span = (x: Float32Array, from: number, to: number) => x.subarray(Math.max(0, Math.floor(from * 8000)), Math.floor(to * 8000));
const rms = (x: Float32Array) => Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length);
const power = (x: Float32Array, hz: number) => tonePower(Int16Array.from(x, (v) => Math.round(v * 32767)), hz);

/**
 * The two parties of a bridged call talking, from `c.t0` (performance.now()) for `ms` more: one 20 ms frame each
 * per 20 ms of the real clock, stamped with their place on it (frames owed after a stall of the test's timers are
 * sent at once, as a phone's network delivers them late): so the recording's timeline is the test's clock.
 */
async function talk(c: { t0: number; sent: number; contact: Phone; agent: Phone; toA: number; toB: number }, ms: number): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    const due = Math.floor((performance.now() - c.t0) / 20);
    for (; c.sent <= due; c.sent++) {
      c.contact.sendAudio(c.toA, frame(CONTACT_HZ, c.sent), c.sent * 160);
      c.agent.sendAudio(c.toB, frame(AGENT_HZ, c.sent), c.sent * 160);
    }
    if (performance.now() >= end) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('DialerCall (a fake Kamailio and two phones on 127.0.0.1)', () => {
  let ep: SipEndpoint;
  let proxy: FakeProxy;
  let contact: Phone;
  let agent: Phone;
  let placed: Map<string, PlacedCall>;
  let reports: DialerCallReport[];
  let call: DialerCall | null;
  const logs: string[] = [];
  /** Where recordings wait; what the spool handed to the API (each upload: its query's fields and the MP3). */
  let spoolDir: string;
  let spool: RecordingSpool;
  let uploads: { callId: string; ticket: string; startedAt: Date; seconds: number; mp3: Buffer }[];

  beforeEach(async () => {
    // Timers that follow the real clock, so that they can be cleared after each test: SipEndpoint.cancel
    // replaces the INVITE's client transaction by the CANCEL's (same branch), and the INVITE's
    // retransmission timer, no longer in the endpoint's table, runs on until its 10-minute deadline.
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ['performance', 'nextTick', 'setImmediate', 'queueMicrotask'] });
    ep = await SipEndpoint.listen('127.0.0.1', 0);
    proxy = await FakeProxy.open();
    contact = await Phone.open();
    agent = await Phone.open();
    placed = new Map();
    reports = [];
    ep.onRequest = (req, from) => placed.get(placedKey(req))?.onRequest(req, from);
    spoolDir = mkdtempSync(join(tmpdir(), 'dialer-call-spool-'));
    uploads = [];
    spool = new RecordingSpool(spoolDir, async (r, mp3) => void uploads.push({ ...r, mp3 }), (m) => logs.push(m));
  });
  afterEach(() => {
    call?.stop();
    call = null;
    ep.close();
    for (const s of [proxy.socket, contact.socket, agent.socket]) s.close();
    spool.close();
    rmSync(spoolDir, { recursive: true, force: true });
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  /** Places the job; the API answers `answered` with `bridge` (undefined: no answer at all). */
  const place = async (bridge: DialerBridge | null | undefined, job = JOB) => {
    const ctx = { ep, proxy: { address: '127.0.0.1', port: proxy.port }, spool, log: (m: string) => logs.push(m), track: (k: string, c: PlacedCall | null) => (c ? placed.set(k, c) : placed.delete(k)) };
    call = new DialerCall(ctx, job, async (r): Promise<DialerReportAnswer | null> => {
      reports.push(r);
      if (r.outcome !== 'answered') return { ok: true, applied: true };
      return bridge === undefined ? null : { ok: true, applied: true, bridge };
    });
    await call.start();
  };
  const outcomes = () => reports.map((r) => r.outcome);

  it('bridges the contact to the agent: answered with leg A Call-ID, B INVITEd with the campaign header, RTP both ways, B BYE hangs up A: completed', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ok', phone: agent });
    await place(BRIDGE);
    await until('bridged', () => outcomes().includes('bridged'));

    const a = proxy.invite(JOB.token)!;
    const b = proxy.invite(BRIDGE.token)!;
    expect(a.uri).toBe(`sip:${JOB.token}@127.0.0.1:${proxy.port}`);
    expect(header(a, 'from')).toMatch(/^<sip:842873000111@/);
    expect(reports[0]).toEqual({ outcome: 'answered', call_id: header(a, 'call-id') });
    expect(b.uri).toBe(`sip:${BRIDGE.token}@127.0.0.1:${proxy.port}`);
    expect(header(b, 'x-tongdai-campaign')).toBe('3;contact=9');
    expect(header(b, 'from')).toMatch(/^<sip:0912345678@/);
    expect(header(b, 'call-id')).not.toBe(header(a, 'call-id'));
    // Both dialogs are tracked for their in-dialog requests.
    expect(placed.size).toBe(2);

    contact.send(rtpPort(a), 0x11);
    agent.send(rtpPort(b), 0x22);
    await until('RTP both ways', () => agent.received.some((p) => p[20] === 0x11) && contact.received.some((p) => p[20] === 0x22));

    proxy.hangUp(BRIDGE.token, ep.port);
    await until('completed', () => outcomes().includes('completed'));
    // The report goes as the BYE does: the BYE may still be on its way (a loaded machine, ci1 of the thirtieth session).
    await until('the BYE to the contact', () => proxy.seen('BYE', header(a, 'call-id')).length > 0);
    expect(proxy.seen('BYE', header(a, 'call-id'))).toHaveLength(1);
    expect(outcomes()).toEqual(['answered', 'bridged', 'completed']);
    expect(reports[2].duration_s).toEqual(expect.any(Number));
    expect(placed.size).toBe(0);
  });

  it('the contact hanging up after the bridge hangs up the agent: completed', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ok', phone: agent });
    await place(BRIDGE);
    await until('bridged', () => outcomes().includes('bridged'));
    proxy.hangUp(JOB.token, ep.port);
    await until('completed', () => outcomes().includes('completed'));
    // The BYE to the agent is a UDP packet the fake Kamailio reads on a later turn (at load 13 it came after the report: ci3).
    await until("the agent's BYE", () => proxy.seen('BYE', header(proxy.invite(BRIDGE.token)!, 'call-id')).length > 0);
    expect(proxy.seen('BYE', header(proxy.invite(BRIDGE.token)!, 'call-id'))).toHaveLength(1);
    expect(outcomes()).toEqual(['answered', 'bridged', 'completed']);
  });

  it.each([
    ['no agent (bridge null)', null],
    ['the API does not answer', undefined],
  ])('%s: the abandon message plays to the contact, then BYE: abandoned', async (_, bridge) => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    const placedAt = Date.now();
    await place(bridge);
    await until('abandoned', () => outcomes().includes('abandoned'));
    const a = proxy.invite(JOB.token)!;
    await until('the BYE to the contact', () => proxy.seen('BYE', header(a, 'call-id')).length > 0);
    const byes = proxy.seen('BYE', header(a, 'call-id'));
    expect(byes).toHaveLength(1);
    // The mocked message's ten frames (PCMU of a constant 3000), all before the BYE.
    await new Promise((r) => setTimeout(r, 100));
    expect(contact.received.length).toBeGreaterThanOrEqual(10);
    expect(contact.received.every((p) => (p[1] & 0x7f) === 0)).toBe(true);
    expect(outcomes()).toEqual(['answered', 'abandoned']);
    // Counted from the answer, so within the test's own time. Not at least the message's 0.2 s: the frames
    // go by the real clock (performance.now), the duration by Date.now, which this file's fake timers move
    // 20 ms per real timer callback, so at load 14 it fell behind (0.0 and 0.1 s: ci1 of the thirtieth session).
    expect(reports[1].duration_s).toBeGreaterThanOrEqual(0);
    expect(reports[1].duration_s).toBeLessThanOrEqual((Date.now() - placedAt) / 1000 + 0.1);
    expect(proxy.invite(BRIDGE.token)).toBeUndefined();
  });

  it('the agent busy (486): the contact hears the message and is hung up on: abandoned', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 486 });
    await place(BRIDGE);
    await until('abandoned', () => outcomes().includes('abandoned'));
    expect(proxy.invite(BRIDGE.token)).toBeDefined();
    await until('the BYE to the contact', () => proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id')).length > 0);
    expect(proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id'))).toHaveLength(1);
    expect(contact.received.length).toBeGreaterThanOrEqual(10);
    expect(outcomes()).toEqual(['answered', 'abandoned']);
    // The agent's leg's status goes with the report: the API pauses an agent who did not take the call.
    expect(reports[1].status).toBe(486);
  });

  it('the agent ringing past the bridge ring time: CANCEL, message, BYE: abandoned', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ring' });
    await place(BRIDGE);
    await until('abandoned', () => outcomes().includes('abandoned'), 5000);
    await until('the CANCEL and the BYE', () => proxy.seen('CANCEL', header(proxy.invite(BRIDGE.token)!, 'call-id')).length > 0 && proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id')).length > 0);
    expect(proxy.seen('CANCEL', header(proxy.invite(BRIDGE.token)!, 'call-id'))).toHaveLength(1);
    expect(proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id'))).toHaveLength(1);
    expect(outcomes()).toEqual(['answered', 'abandoned']);
    expect(reports[1].status).toBeGreaterThanOrEqual(400);
  });

  it('the contact hanging up while the agent rings: CANCEL to the agent: abandoned', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ring' });
    await place({ ...BRIDGE, ring_s: 10 });
    await until('the agent ringing', () => !!proxy.invite(BRIDGE.token));
    proxy.hangUp(JOB.token, ep.port);
    await until('abandoned', () => outcomes().includes('abandoned'));
    // The CANCEL is a UDP packet the fake Kamailio reads on a later turn than the report (ci1 of the thirty-fourth session).
    await until('the CANCEL to the agent', () => proxy.seen('CANCEL', header(proxy.invite(BRIDGE.token)!, 'call-id')).length > 0);
    expect(proxy.seen('CANCEL', header(proxy.invite(BRIDGE.token)!, 'call-id'))).toHaveLength(1);
    expect(proxy.seen('BYE')).toHaveLength(0);
    expect(outcomes()).toEqual(['answered', 'abandoned']);
    // The agent was not at fault: no status, nobody paused.
    expect(reports[1].status).toBeUndefined();
  });

  it('the contact busy (486): busy, with the status and no duration', async () => {
    proxy.behaviours.set(JOB.token, { answer: 486 });
    await place(BRIDGE);
    await until('busy', () => reports.length > 0);
    expect(reports).toEqual([{ outcome: 'busy', duration_s: null, status: 486 }]);
  });

  it('the contact not answering within ring_s: CANCEL, no_answer', async () => {
    proxy.behaviours.set(JOB.token, { answer: 'ring' });
    await place(BRIDGE, { ...JOB, ring_s: 1 });
    await until('no_answer', () => reports.length > 0);
    expect(reports).toEqual([{ outcome: 'no_answer', duration_s: null, status: 487 }]);
    await until('the CANCEL', () => proxy.seen('CANCEL').length > 0);
    expect(proxy.seen('CANCEL')).toHaveLength(1);
  });

  /** A recorded call placed and bridged: the parties' ports, when it was placed and when the test saw it bridged (performance.now()). */
  const bridgedCall = async (bridge: DialerBridge) => {
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ok', phone: agent });
    const placedAt = performance.now();
    const placedWall = Date.now();
    await place(bridge);
    await until('bridged', () => outcomes().includes('bridged'));
    const a = proxy.invite(JOB.token)!;
    const b = proxy.invite(BRIDGE.token)!;
    return { a, b, placedAt, placedWall, c: { t0: performance.now(), sent: 0, contact, agent, toA: rtpPort(a), toB: rtpPort(b) } };
  };

  it("a bridge with a ticket: the agent's INVITE is marked, the conversation is uploaded once with the ticket under leg A's Call-ID, the contact left and the agent right, as long as the bridge", async () => {
    const { a, b, placedAt, placedWall, c } = await bridgedCall(RECORDED);
    // The agent may pause it; the contact's leg is not marked.
    expect(header(b, 'x-tongdai-recording')).toBe('on');
    expect(header(a, 'x-tongdai-recording')).toBeUndefined();
    await talk(c, 1200);
    const hungUpAt = performance.now();
    proxy.hangUp(BRIDGE.token, ep.port);
    await until('completed', () => outcomes().includes('completed'));
    const completedAt = performance.now();
    await until('the upload', () => uploads.length > 0, 6000);
    const [up] = uploads;
    expect([up.callId, up.ticket]).toEqual([header(a, 'call-id'), RECORDED.record_ticket]);
    // From the bridge (before the test saw it) to the agent's BYE (after the test sent it), within the call's own time.
    // The recorder places audio by RTP time from its first packet's arrival: a first packet read late
    // shifts the file's end by as much (ci1 of the thirty-fifth session, at load 11: 1.70 s for a call of
    // 1.45 s from its placing), so the bound above allows half a second.
    expect(up.seconds).toBeGreaterThanOrEqual((hungUpAt - c.t0) / 1000 - 0.05);
    expect(up.seconds).toBeLessThanOrEqual((completedAt - placedAt) / 1000 + 0.5);
    expect(up.startedAt.getTime()).toBeGreaterThanOrEqual(placedWall);
    // The contact on the left channel, the agent on the right.
    const { channels, sampleRate } = await decodeMp3Channels(up.mp3);
    expect(sampleRate).toBe(8000);
    const [left, right] = channels.map((x) => span(x, 0.2, 1.1));
    expect(rms(left)).toBeGreaterThan(0.05);
    expect(rms(right)).toBeGreaterThan(0.05);
    expect(power(left, CONTACT_HZ)).toBeGreaterThan(20 * power(left, AGENT_HZ));
    expect(power(right, AGENT_HZ)).toBeGreaterThan(20 * power(right, CONTACT_HZ));
    // One call, one file; its spool entry removed once the API took it.
    await new Promise((r) => setTimeout(r, 300));
    expect(uploads).toHaveLength(1);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it("the agent's INFO pause leaves both channels silent until their resume; the contact's is answered and ignored", async () => {
    const { c } = await bridgedCall(RECORDED);
    await talk(c, 400);
    const contactPausedAt = (performance.now() - c.t0) / 1000;
    proxy.info(JOB.token, ep.port, RECORDING_INFO_TYPE, 'pause');
    await talk(c, 600);
    const pausedAt = (performance.now() - c.t0) / 1000;
    proxy.info(BRIDGE.token, ep.port, RECORDING_INFO_TYPE, 'pause');
    await talk(c, 1600);
    const resumedAt = (performance.now() - c.t0) / 1000;
    proxy.info(BRIDGE.token, ep.port, RECORDING_INFO_TYPE, 'resume');
    await talk(c, 700);
    const endedAt = (performance.now() - c.t0) / 1000;
    proxy.hangUp(BRIDGE.token, ep.port);
    await until('the upload', () => uploads.length > 0, 6000);
    const { channels } = await decodeMp3Channels(uploads[0].mp3);
    for (const x of channels) {
      // Before the agent's pause, and after the contact's "pause" too: both voices.
      expect(rms(span(x, 0.25, contactPausedAt))).toBeGreaterThan(0.05);
      expect(rms(span(x, contactPausedAt + 0.2, pausedAt - 0.1))).toBeGreaterThan(0.05);
      // Paused: silence (its edges left to the INFO's and the packets' travel).
      // Half a second for the INFO to be taken at load (ci7 of the thirty-fourth session: sound at +0.2 s).
      expect(rms(span(x, pausedAt + 0.5, resumedAt - 0.05))).toBeLessThan(0.005);
      // Resumed: both voices again, to the end.
      expect(rms(span(x, resumedAt + 0.2, endedAt - 0.05))).toBeGreaterThan(0.05);
    }
    // The whole call's timeline is kept: the pause is silence of its length, not a cut.
    expect(uploads[0].seconds).toBeGreaterThanOrEqual(endedAt - 0.05);
  });

  it('a bridge without a ticket: no mark on the agent\'s INVITE, nothing recorded nor uploaded', async () => {
    const { b, c } = await bridgedCall(BRIDGE);
    expect(header(b, 'x-tongdai-recording')).toBeUndefined();
    await talk(c, 800);
    proxy.hangUp(BRIDGE.token, ep.port);
    await until('completed', () => outcomes().includes('completed'));
    await new Promise((r) => setTimeout(r, 500));
    expect(uploads).toEqual([]);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('logs each step with the time since the INVITE', async () => {
    proxy.behaviours.set(JOB.token, { answer: 486 });
    await place(BRIDGE);
    await until('busy', () => reports.length > 0);
    expect(logs).toContainEqual(expect.stringMatching(/^dialer att-1 \+\d+ ms: busy \(486\)$/));
  });
});

describe('the worker places a dialer job (a fake API on HTTP, the fake Kamailio)', () => {
  let api: Server;
  let proxy: FakeProxy;
  let contact: Phone;
  let agent: Phone;
  let worker: RunningWorker;
  let spool: string;
  let bodies: Record<string, unknown>[] = [];

  beforeAll(async () => {
    proxy = await FakeProxy.open();
    contact = await Phone.open();
    agent = await Phone.open();
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ok', phone: agent });
    const fake = await fakeOriginateApi(JOB, BRIDGE);
    api = fake.server;
    bodies = fake.bodies;
    spool = mkdtempSync(join(tmpdir(), 'dialer-worker-'));
    const port = fake.port;
    worker = await startWorker({
      address: '127.0.0.1', port: 0, apiUrl: `http://127.0.0.1:${port}`, apiSecret: 'secret', proxy: { address: '127.0.0.1', port: proxy.port },
      spoolDir: spool, originatePollMs: 50, originateWaitMs: 0, log: () => undefined,
    });
  });
  afterAll(async () => {
    worker.stop();
    for (const s of [proxy.socket, contact.socket, agent.socket]) s.close();
    await new Promise((r) => api.close(r));
    rmSync(spool, { recursive: true, force: true });
  });

  it('dispatches it by kind to a dialer call: reports with kind dialer in order, in-dialog BYE of the agent leg routed to it', async () => {
    await until('bridged', () => bodies.some((b) => b.outcome === 'bridged'));
    expect(worker.calls()).toBe(1);
    proxy.hangUp(BRIDGE.token, worker.port);
    await until('completed', () => bodies.some((b) => b.outcome === 'completed'));
    const job = { kind: 'dialer', id: JOB.id, tenant_id: JOB.tenant_id, attempt: 1 };
    expect(bodies).toEqual([
      { ...job, outcome: 'answered', call_id: header(proxy.invite(JOB.token)!, 'call-id') },
      { ...job, outcome: 'bridged' },
      { ...job, outcome: 'completed', duration_s: expect.any(Number) },
    ]);
    expect(header(proxy.invite(BRIDGE.token)!, 'x-tongdai-campaign')).toBe(BRIDGE.campaign);
    await until('the BYE to the contact', () => proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id')).length > 0);
    expect(proxy.seen('BYE', header(proxy.invite(JOB.token)!, 'call-id'))).toHaveLength(1);
    expect(worker.calls()).toBe(0);
  });
});

describe('the worker records a dialer call the API gave a ticket (the fake API on HTTP, the fake Kamailio)', () => {
  it("uploads the bridged conversation with the ticket under leg A's Call-ID (POST /media/recording)", async () => {
    const proxy = await FakeProxy.open();
    const [contact, agent] = [await Phone.open(), await Phone.open()];
    proxy.behaviours.set(JOB.token, { answer: 'ok', phone: contact });
    proxy.behaviours.set(BRIDGE.token, { answer: 'ok', phone: agent });
    const fake = await fakeOriginateApi(JOB, RECORDED);
    const spool = mkdtempSync(join(tmpdir(), 'dialer-worker-rec-'));
    const worker = await startWorker({
      address: '127.0.0.1', port: 0, apiUrl: `http://127.0.0.1:${fake.port}`, apiSecret: 'secret', proxy: { address: '127.0.0.1', port: proxy.port },
      spoolDir: spool, originatePollMs: 50, originateWaitMs: 0, log: () => undefined,
    });
    try {
      await until('bridged', () => fake.bodies.some((b) => b.outcome === 'bridged'));
      const [a, b] = [proxy.invite(JOB.token)!, proxy.invite(BRIDGE.token)!];
      expect(header(b, 'x-tongdai-recording')).toBe('on');
      await talk({ t0: performance.now(), sent: 0, contact, agent, toA: rtpPort(a), toB: rtpPort(b) }, 800);
      proxy.hangUp(BRIDGE.token, worker.port);
      await until('the recording', () => fake.recordings.length > 0, 6000);
      const [rec] = fake.recordings;
      expect([rec.query.get('call_id'), rec.query.get('ticket')]).toEqual([header(a, 'call-id'), RECORDED.record_ticket]);
      expect(Number(rec.query.get('duration'))).toBeGreaterThanOrEqual(0.75);
      expect(rec.mp3.length).toBeGreaterThan(1000);
    } finally {
      worker.stop();
      for (const s of [proxy.socket, contact.socket, agent.socket]) s.close();
      await new Promise((r) => fake.server.close(r));
      rmSync(spool, { recursive: true, force: true });
    }
  });
});

describe('the abandon message', () => {
  it('is the prepared Vietnamese clip (8 kHz, several seconds), not the tone fallback', () => {
    const { DIALER_ABANDON_PROMPT } = jest.requireActual<typeof import('../audio/dialer-prompts')>('../audio/dialer-prompts');
    const { DEFAULT_PROMPT } = jest.requireActual<typeof import('../audio/tones')>('../audio/tones');
    expect(DIALER_ABANDON_PROMPT).not.toBe(DEFAULT_PROMPT);
    expect(DIALER_ABANDON_PROMPT.length / 8000).toBeGreaterThan(4);
  });
});
