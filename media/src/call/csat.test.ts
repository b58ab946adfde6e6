import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsatReport, MediaContinue, MediaSession, MediaStep } from '@tongdai/contracts';
import { DEFAULT_PROMPT } from '../audio/tones';
import { encodeUlaw } from '../rtp/g711';
import { header } from '../sip/message';
import { parseSdp } from '../sip/sdp';
import { startWorker, type RunningWorker } from '../worker';
import { FakeProxy, Phone, until } from './testing/fake-sip';

// Short prompts of a constant level each, so that the caller's packets tell which was said, and a
// short wait for the key, so that a question left unanswered takes a fraction of a second, not 8 s.
// The real files are checked on their own below.
jest.mock('../audio/csat-prompts', () => ({
  CSAT_PROMPTS: { ask: new Int16Array(160 * 20).fill(4000), thanks: new Int16Array(160 * 10).fill(3000) },
  CSAT_WAIT_MS: 600,
}));

/** The mocked prompts' length in frames (20 ms packets). */
const ASK_FRAMES = 20;
const THANKS_FRAMES = 10;
const CLIP_BY_BYTE = new Map([
  [encodeUlaw(new Int16Array([4000]))[0], 'ask'],
  [encodeUlaw(new Int16Array([3000]))[0], 'thanks'],
]);
/** The prompt a packet the caller received is (a whole payload of one level), if any. */
const clipOf = (p: Buffer): string | undefined => {
  const payload = p.subarray(12);
  return payload.length === 160 && payload.every((b) => b === payload[0]) ? CLIP_BY_BYTE.get(payload[0]) : undefined;
};

const STEP = 3;
const AGENT = 'agent-token';

describe("post-call CSAT: a queue call, or a route's bridge, on the worker (a fake Kamailio and API, phones on 127.0.0.1)", () => {
  let proxy: FakeProxy;
  let caller: Phone;
  let agent: Phone;
  let worker: RunningWorker;
  let api: Server;
  let spool: string;
  /** What the fake API answers to queue_agents, what it was told, and the recordings it got. */
  let csat: boolean | undefined;
  let ticket: string | null;
  let reports: CsatReport[];
  let recordings: URLSearchParams[];
  let continues: MediaContinue[];
  /** The prompts the caller heard, in order, with when each packet came. */
  let heard: { at: number; clip: string }[];
  let callId: string;
  /** The session's step: a queue, or the bridge an inbound route's CSAT put in front (ADR 0056). */
  let step: MediaStep;
  let n = 0;

  beforeEach(async () => {
    csat = true;
    step = { kind: 'queue', queueId: 4, join_greeting_id: null, moh_audio_ids: [], max_wait: 30, agent_timeout: 15 };
    ticket = null;
    reports = [];
    recordings = [];
    continues = [];
    heard = [];
    callId = `csat-${++n}-${Date.now()}@carrier`;
    proxy = await FakeProxy.open();
    caller = await Phone.open();
    agent = await Phone.open();
    caller.socket.on('message', (m) => {
      const clip = clipOf(m);
      if (clip) heard.push({ at: Date.now(), clip });
    });
    proxy.behaviours.set(AGENT, { answer: 'ok', phone: agent });
    api = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const json = (x: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(x));
        if (req.headers['x-tongdai-internal'] !== 'secret') return res.writeHead(403).end();
        const url = new URL(req.url!, 'http://api');
        if (url.pathname === '/media/session') {
          const session: MediaSession = {
            call_id: url.searchParams.get('call_id')!, tenant_id: 7, domain: 'acme.tongdai.vn', caller: '0912000111', has_next: false,
            step, record_ticket: ticket, direction: 'inbound',
          };
          return json(session);
        }
        if (url.pathname === '/media/continue') {
          const { choice } = JSON.parse(raw) as { choice: { kind: string } };
          // A queue asks for its agents; a bridge for the rest of its plan.
          const dials = choice.kind === (step.kind === 'bridge' ? 'next' : 'queue_agents');
          const r: MediaContinue = dials ? { token: AGENT, ...(csat === undefined ? {} : { csat }) } : { token: null };
          continues.push(r);
          return json(r);
        }
        if (url.pathname === '/media/csat') {
          reports.push(JSON.parse(raw) as CsatReport);
          return json({ ok: true });
        }
        if (url.pathname === '/media/recording') {
          recordings.push(url.searchParams);
          return res.writeHead(201).end();
        }
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    spool = mkdtempSync(join(tmpdir(), 'csat-spool-'));
    worker = await startWorker({
      address: '127.0.0.1', port: 0, apiUrl: `http://127.0.0.1:${(api.address() as { port: number }).port}`, apiSecret: 'secret',
      proxy: { address: '127.0.0.1', port: proxy.port }, spoolDir: spool, originatePollMs: 0, log: () => undefined,
    });
  });
  afterEach(async () => {
    worker.stop();
    for (const s of [proxy.socket, caller.socket, agent.socket]) s.close();
    await new Promise((r) => api.close(r));
    rmSync(spool, { recursive: true, force: true });
  });

  /** The worker's RTP port for the caller (its 200's SDP). */
  const callerPort = () => parseSdp(proxy.answered(callId)!.body)!.peer.port;
  const byesToCaller = () => proxy.seen('BYE', callId).length;
  const count = (clip: string) => heard.filter((h) => h.clip === clip).length;
  /**
   * The prompts in the order heard, one entry per stretch of the same prompt (how often each was said
   * is its packet count: each mocked prompt is a known number of frames; a pause is not a sure sign
   * on a loaded machine, where packets may come in bursts).
   */
  const order = () => heard.map((h) => h.clip).filter((c, i, all) => c !== all[i - 1]);

  /** The caller reaches the queue, the agent answers and they talk (`talkMs` more); then the agent hangs up. */
  const talkThenAgentHangsUp = async (talkMs = 0, bye: [string, string][] = []) => {
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the caller answered', () => proxy.answered(callId) !== null);
    await until('the agent rung', () => proxy.invite(AGENT) !== undefined);
    const agentPort = parseSdp(proxy.invite(AGENT)!.body)!.peer.port;
    await until('RTP both ways', () => {
      caller.send(callerPort(), 0x11);
      agent.send(agentPort, 0x22);
      return agent.received.some((p) => p[20] === 0x11) && caller.received.some((p) => p[20] === 0x22);
    });
    await new Promise((r) => setTimeout(r, talkMs));
    expect(worker.calls()).toBe(1);
    proxy.hangUp(AGENT, worker.port, bye);
  };

  it('the agent hangs up: the caller hears the question, presses 4 (RFC 4733) after it: score 4 reported, thanks, BYE', async () => {
    await talkThenAgentHangsUp();
    await until('the whole question', () => count('ask') >= ASK_FRAMES);
    // Still the worker's call while the caller is asked, though the agent's leg is gone.
    expect(worker.calls()).toBe(1);
    expect(byesToCaller()).toBe(0);
    caller.dtmf(callerPort(), '4');
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 4 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    expect(order()).toEqual(['ask', 'thanks']);
    expect(count('thanks')).toBe(THANKS_FRAMES);
    expect(count('ask')).toBe(ASK_FRAMES);
    await until('the call gone', () => worker.calls() === 0);
  });

  it('a key by SIP INFO during the question cuts it short and counts: score 4, thanks, BYE', async () => {
    await talkThenAgentHangsUp();
    await until('the question begun', () => count('ask') >= 3);
    proxy.callerSends('INFO', callId, [['content-type', 'application/dtmf-relay']], 'Signal=4\r\nDuration=160\r\n');
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 4 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    expect(count('ask')).toBeLessThan(ASK_FRAMES);
    expect(order()).toEqual(['ask', 'thanks']);
  });

  it('no key: the question twice, nothing reported, thanks, BYE', async () => {
    await talkThenAgentHangsUp();
    await until('the BYE to the caller', () => byesToCaller() === 1, 6000);
    expect(order()).toEqual(['ask', 'thanks']);
    // The question said through twice, with the wait for a key between.
    expect(count('ask')).toBe(2 * ASK_FRAMES);
    const asks = heard.filter((h) => h.clip === 'ask');
    expect(asks[ASK_FRAMES].at - asks[ASK_FRAMES - 1].at).toBeGreaterThanOrEqual(300);
    expect(reports).toEqual([]);
  });

  it("a wrong key '7' is passed over, then '2': score 2", async () => {
    await talkThenAgentHangsUp();
    await until('the whole question', () => count('ask') >= ASK_FRAMES);
    caller.dtmf(callerPort(), '7');
    await new Promise((r) => setTimeout(r, 150));
    caller.dtmf(callerPort(), '2');
    // The score is posted without waiting for the API: under load it may come after the BYE.
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 2 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    // The question was not said again for the wrong key.
    expect(order()).toEqual(['ask', 'thanks']);
    expect(count('ask')).toBe(ASK_FRAMES);
  });

  it("a bridge (an inbound route's CSAT, ADR 0056): the caller is answered when the callee answers; the callee hangs up, the caller presses 5: score 5, thanks, BYE", async () => {
    step = { kind: 'bridge' };
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the callee rung', () => proxy.invite(AGENT) !== undefined);
    await until('the caller answered on the callee answer', () => proxy.answered(callId) !== null);
    const calleePort = parseSdp(proxy.invite(AGENT)!.body)!.peer.port;
    await until('RTP both ways', () => {
      caller.send(callerPort(), 0x11);
      agent.send(calleePort, 0x22);
      return agent.received.some((p) => p[20] === 0x11) && caller.received.some((p) => p[20] === 0x22);
    });
    expect(continues).toEqual([{ token: AGENT, csat: true }]);
    // A person answered the bridge's leg: the caller's 200 does not say a media step took it.
    expect(header(proxy.answered(callId)!, 'x-tongdai-media')).toBeUndefined();
    proxy.hangUp(AGENT, worker.port);
    await until('the whole question', () => count('ask') >= ASK_FRAMES);
    expect(byesToCaller()).toBe(0);
    caller.dtmf(callerPort(), '5');
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 5 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    expect(order()).toEqual(['ask', 'thanks']);
    await until('the call gone', () => worker.calls() === 0);
  });

  it('a bridge without csat: the callee hanging up ends the call for the caller at once', async () => {
    step = { kind: 'bridge' };
    csat = undefined;
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the caller answered on the callee answer', () => proxy.answered(callId) !== null);
    proxy.hangUp(AGENT, worker.port);
    await until('the BYE to the caller', () => byesToCaller() === 1, 1000);
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    expect(reports).toEqual([]);
  });

  it("the queue's leg answered by a worker's media step (X-Tongdai-Media: voicemail, the agent's mailbox) that hangs up saying so: the call ends at once, no question, nothing reported", async () => {
    proxy.behaviours.set(AGENT, { answer: 'ok', phone: agent, headers: [['x-tongdai-media', 'voicemail']] });
    await talkThenAgentHangsUp(0, [['x-tongdai-media', 'voicemail']]);
    await until('the BYE to the caller', () => byesToCaller() === 1, 1000);
    expect(continues).toEqual([{ token: AGENT, csat: true }]);
    // The queue reached nobody either: its BYE says what answered its caller.
    expect(header(proxy.seen('BYE', callId)[0], 'x-tongdai-media')).toBe('queue');
    await until('the call gone', () => worker.calls() === 0);
    // Longer than the question would have taken to begin.
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    expect(reports).toEqual([]);
  });

  it("the queue's leg answered by a worker's media step whose BYE is unmarked (a queue or IVR further on put the caller through to a person, who hung up): the question, score 3", async () => {
    proxy.behaviours.set(AGENT, { answer: 'ok', phone: agent, headers: [['x-tongdai-media', 'queue']] });
    await talkThenAgentHangsUp();
    await until('the whole question', () => count('ask') >= ASK_FRAMES);
    expect(byesToCaller()).toBe(0);
    caller.dtmf(callerPort(), '3');
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 3 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    // A person was reached: this worker's BYE is unmarked too.
    expect(header(proxy.seen('BYE', callId)[0], 'x-tongdai-media')).toBeUndefined();
  });

  it("an announcement with nothing after it: the worker's BYE to its caller says 'play' (it reached nobody)", async () => {
    step = { kind: 'play', audioIds: [] };
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    expect(header(proxy.answered(callId)!, 'x-tongdai-media')).toBe('play');
    expect(header(proxy.seen('BYE', callId)[0], 'x-tongdai-media')).toBe('play');
  });

  it("a rating route's bridge whose callee's voicemail answers (X-Tongdai-Media): the caller's 200 says so too, the voicemail's hang-up ends the call at once, no question", async () => {
    step = { kind: 'bridge' };
    proxy.behaviours.set(AGENT, { answer: 'ok', phone: agent, headers: [['x-tongdai-media', 'voicemail']] });
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the caller answered on the voicemail answer', () => proxy.answered(callId) !== null);
    // A bridge answers for its callee: a worker further up (a queue's leg) knows no person took the call either.
    expect(header(proxy.answered(callId)!, 'x-tongdai-media')).toBe('voicemail');
    expect(continues).toEqual([{ token: AGENT, csat: true }]);
    proxy.hangUp(AGENT, worker.port, [['x-tongdai-media', 'voicemail']]);
    await until('the BYE to the caller', () => byesToCaller() === 1, 1000);
    expect(header(proxy.seen('BYE', callId)[0], 'x-tongdai-media')).toBe('voicemail');
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    expect(reports).toEqual([]);
  });

  it.each<[string, MediaStep]>([
    ['voicemail', { kind: 'voicemail', mailbox: '102', greeting_id: null, max_seconds: 30 }],
    ['ivr', { kind: 'ivr', ivrId: 5, greetingId: null, timeout: 5, retries: 1, entries: [{ digit: '1' }], direct_dial: false }],
    ['play', { kind: 'play', audioIds: [] }],
  ])("the worker's own 200 to a caller it takes at a %s step says so (X-Tongdai-Media)", async (kind, s) => {
    step = s;
    proxy.behaviours.delete(AGENT);
    proxy.callWorker(worker.port, callId, STEP, caller);
    await until('the caller answered', () => proxy.answered(callId) !== null);
    expect(header(proxy.answered(callId)!, 'x-tongdai-media')).toBe(kind);
    proxy.callerSends('BYE', callId);
    await until('the call gone', () => worker.calls() === 0);
  });

  it('the caller hanging up during the question: nothing reported, no BYE from the worker, the call gone', async () => {
    await talkThenAgentHangsUp();
    await until('the question begun', () => count('ask') >= 3);
    proxy.callerSends('BYE', callId);
    await until('the call gone', () => worker.calls() === 0);
    // Longer than the two waits for a key: nothing comes after.
    await new Promise((r) => setTimeout(r, 1500));
    expect(reports).toEqual([]);
    expect(byesToCaller()).toBe(0);
    expect(count('thanks')).toBe(0);
    expect(count('ask')).toBeLessThan(ASK_FRAMES);
  });

  it('csat absent: the agent hanging up ends the call for the caller at once, as before', async () => {
    csat = undefined;
    await talkThenAgentHangsUp();
    await until('the BYE to the caller', () => byesToCaller() === 1, 1000);
    expect(continues).toEqual([{ token: AGENT }]);
    // The agent, a person, took the call: the worker's BYE does not say a media step ended it.
    expect(header(proxy.seen('BYE', callId)[0], 'x-tongdai-media')).toBeUndefined();
    await until('the call gone', () => worker.calls() === 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    expect(reports).toEqual([]);
  });

  it('a recorded call: the recording ends when the agent hangs up, the question is not in it', async () => {
    ticket = 'ticket-9';
    // Long enough to be filed (under half a second a bridge is not a conversation).
    await talkThenAgentHangsUp(800);
    const agentGone = Date.now();
    await until('the recording', () => recordings.length === 1, 6000);
    expect(recordings[0].get('call_id')).toBe(callId);
    expect(recordings[0].get('ticket')).toBe(ticket);
    // From the bridge to the agent's BYE (a fraction of a second), not the caller's time with the question.
    const recorded = Number(recordings[0].get('duration'));
    const bridgedSince = new Date(recordings[0].get('started_at')!).getTime();
    expect(recorded).toBeGreaterThanOrEqual(0.5);
    expect(recorded).toBeLessThanOrEqual((agentGone - bridgedSince) / 1000 + 0.3);
    await until('the whole question', () => count('ask') >= ASK_FRAMES);
    caller.dtmf(callerPort(), '5');
    await until('the score', () => reports.length === 1);
    expect(reports).toEqual([{ call_id: callId, step: STEP, score: 5 }]);
    await until('the BYE to the caller', () => byesToCaller() === 1);
    // Nothing more recorded after the call ended.
    await new Promise((r) => setTimeout(r, 300));
    expect(recordings).toHaveLength(1);
  });
});

describe('the CSAT prompts', () => {
  const real = jest.requireActual<typeof import('../audio/csat-prompts')>('../audio/csat-prompts');

  it.each(['ask', 'thanks'] as const)('csat-%s-vi.wav is Vietnamese speech (over a second, 8 kHz mono, not silent), not the tone prompt', (name) => {
    const wav = readFileSync(join(__dirname, `../../assets/csat-${name}-vi.wav`));
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(8000);
    const clip = real.CSAT_PROMPTS[name];
    expect(clip).not.toBe(DEFAULT_PROMPT);
    expect(clip.length / 8000).toBeGreaterThan(1);
    const rms = Math.sqrt(clip.reduce((a, x) => a + x * x, 0) / clip.length);
    expect(rms).toBeGreaterThan(500);
  });

  it('waits 8 s for the key', () => {
    expect(real.CSAT_WAIT_MS).toBe(8000);
  });
});
