import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ear } from '@tongdai/testkit/rtp-ear';
import { SipUdpClient } from '@tongdai/testkit/sip-client';
import { answerScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { digestCallerScenario } from '@tongdai/testkit/sipp-carrier';
import { requireSystem } from '@tongdai/testkit/system';
import { startCarrier, type RunningCarrier } from './carrier';
import type { CallRecord } from './calls';
import { controlServer } from './control';
import { freePort } from './test-ports';
import { Voice } from './voice';

const ACCOUNT = { user: '02873001234', password: 'DemoCarrier-Pass1' };
const dir = mkdtempSync(join(tmpdir(), 'demo-carrier-test-'));
let carrier: RunningCarrier;
let api: string;
let close: () => void;

async function start(voice: Voice) {
  const c = await startCarrier({ address: '127.0.0.1', port: 0, accounts: [ACCOUNT], voice, ringMs: 100, hangupAfterMs: 100, log: () => undefined });
  const http = controlServer(c, { hasProxy: false });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return { c, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, close: () => (c.stop(), http.close()) };
}

beforeAll(async () => {
  // The real voice: espeak-ng's Vietnamese where installed (npm start installs it), tones otherwise.
  ({ c: carrier, url: api, close } = await start(Voice.load({ cacheDir: join(dir, 'voice') })));
});
afterAll(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** One raw REGISTER without credentials: the first answer as text. */
async function bareRegister(port: number): Promise<string> {
  const sock = createSocket('udp4');
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
  const me = sock.address().port;
  const id = randomBytes(6).toString('hex');
  const raw = [`REGISTER sip:127.0.0.1:${port} SIP/2.0`, `Via: SIP/2.0/UDP 127.0.0.1:${me};branch=z9hG4bK${id};rport`, 'Max-Forwards: 70', `From: <sip:${ACCOUNT.user}@127.0.0.1>;tag=${id}`, `To: <sip:${ACCOUNT.user}@127.0.0.1>`, `Call-ID: ${id}`, 'CSeq: 1 REGISTER', `Contact: <sip:${ACCOUNT.user}@127.0.0.1:${me}>`, 'Expires: 60', 'Content-Length: 0', '', ''].join('\r\n');
  const answer = new Promise<string>((r) => sock.once('message', (b) => r(b.toString())));
  sock.send(raw, port, '127.0.0.1');
  try {
    return await answer;
  } finally {
    sock.close();
  }
}

const get = async <T>(path: string, base = api): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;

async function callWhere(pred: (c: CallRecord) => boolean, ms = 15_000, base = api): Promise<CallRecord> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const hit = (await get<{ calls: CallRecord[] }>('/calls', base)).calls.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no such call in GET /calls: ${JSON.stringify((await get<{ calls: CallRecord[] }>('/calls', base)).calls)}`);
}

describe('REGISTER', () => {
  it('challenges a REGISTER without credentials with a digest in the demo-carrier realm', async () => {
    const raw = await bareRegister(carrier.port);
    expect(raw).toMatch(/^SIP\/2\.0 401 /);
    expect(raw).toMatch(/^WWW-Authenticate: Digest realm="demo-carrier", nonce="[^"]+", qop="auth", algorithm=MD5/m);
  });

  it('refuses wrong credentials with 403 and keeps no registration', async () => {
    const ua = await new SipUdpClient(carrier.port).open();
    try {
      expect((await ua.register(ACCOUNT.user, '127.0.0.1', 'not-the-password')).status).toBe(403);
      expect((await ua.register('0280000000', '127.0.0.1', ACCOUNT.password)).status).toBe(403);
    } finally {
      ua.close();
    }
    expect((await get<{ registrations: unknown[] }>('/registrations')).registrations).toEqual([]);
  });

  it('accepts the configured account and lists the registration', async () => {
    const ua = await new SipUdpClient(carrier.port).open();
    try {
      const ok = await ua.register(ACCOUNT.user, '127.0.0.1', ACCOUNT.password);
      expect(ok.status).toBe(200);
      expect(ok.headers.contact).toContain(`127.0.0.1:${ua.port}`);
      const { registrations } = await get<{ registrations: { aor: string; user: string; contact: string }[] }>('/registrations');
      expect(registrations).toEqual([expect.objectContaining({ aor: `sip:${ACCOUNT.user}@127.0.0.1`, user: ACCOUNT.user, contact: `sip:${ACCOUNT.user}@127.0.0.1:${ua.port}` })]);
    } finally {
      ua.close();
    }
  });
});

describe('INVITE (sipp as the caller)', () => {
  requireSystem({ sipp: sippInstalled() }, 'sudo apt-get install sip-tester (or: sudo node scripts/lib/system.mjs test)');
  const caller = (o: { port: number; ear: Ear; user?: string; password?: string; hangsUp: 'caller' | 'remote'; talkMs?: number; name: string }) =>
    runSipp({
      dir,
      name: o.name,
      xml: digestCallerScenario({ user: o.user ?? ACCOUNT.user, password: o.password ?? ACCOUNT.password, hangsUp: o.hangsUp, talkMs: o.talkMs }),
      args: [`127.0.0.1:${o.port}`, '-i', '127.0.0.1', '-p', '0', '-s', '0912345678', '-m', '1'],
      keys: { caller: '101', pai: ACCOUNT.user, rtp_port: String(o.ear.port) },
      timeoutS: 25,
    }).done;

  it('challenges with 407, then answers and plays the announcement; the caller ID is recorded', async () => {
    const ear = await Ear.open();
    try {
      const run = await caller({ port: carrier.port, ear, hangsUp: 'caller', talkMs: 3000, name: 'answer' });
      expect(run).toEqual(expect.objectContaining({ code: 0 }));
      // Speech (or the tone stand-in) in the first seconds, not silence.
      const heard = ear.loudness(0, 3000);
      expect(heard.packets).toBeGreaterThan(100);
      expect(heard.rms).toBeGreaterThan(300);
      const call = await callWhere((c) => c.direction === 'in' && c.state === 'ended' && c.called === '0912345678');
      expect(call).toEqual(expect.objectContaining({ status: 200, codec: 'PCMU', caller_id: ACCOUNT.user, p_asserted_identity: `<sip:${ACCOUNT.user}@127.0.0.1>`, ended_by: 'remote' }));
      expect(call.from).toMatch(/^<sip:101@127\.0\.0\.1:\d+>;tag=/);
    } finally {
      ear.close();
    }
  });

  it('refuses an INVITE whose credentials are wrong with 403', async () => {
    const ear = await Ear.open();
    try {
      const run = await caller({ port: carrier.port, ear, password: 'wrong', hangsUp: 'caller', name: 'wrong' });
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/403 Forbidden/);
      expect(ear.packets).toHaveLength(0);
    } finally {
      ear.close();
    }
  });

  it('hangs up with BYE once the announcement is over', async () => {
    // Tones: the spoken announcement lasts ~15 s; the tone stand-in ~5 s, same path.
    const short = await start(Voice.tones());
    const ear = await Ear.open();
    try {
      const run = await caller({ port: short.c.port, ear, hangsUp: 'remote', name: 'carrier-hangs-up' });
      expect(run.code).toBe(0);
      expect(ear.loudness(0, 1500).rms).toBeGreaterThan(300);
      const [call] = short.c.calls();
      expect(call).toEqual(expect.objectContaining({ state: 'ended', ended_by: 'carrier' }));
      expect(call.rtp_sent).toBeGreaterThan(150);
    } finally {
      ear.close();
      short.close();
    }
  });
});

describe('POST /call', () => {
  requireSystem({ sipp: sippInstalled() }, 'sudo apt-get install sip-tester (or: sudo node scripts/lib/system.mjs test)');
  // The tone voice: same path as the spoken one (tested above), ~5 s instead of ~15 s.
  let short: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    short = await start(Voice.tones());
  });
  afterAll(() => short.close());

  it('sends an INVITE from the carrier\'s own SIP address to the target, then hangs up after the announcement', async () => {
    const phonePort = await freePort(true);
    // The target (the PBX in npm start) checks who calls: From carries the caller and the carrier's address.
    const pbx = runSipp({ dir, name: 'pbx', xml: answerScenario(100, `sip:0912345678@127\\.0\\.0\\.1:${short.c.port}`), args: ['-i', '127.0.0.1', '-p', String(phonePort), '-m', '1'], timeoutS: 25 });
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${short.url}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '02873001234', from: '0912345678', target: `127.0.0.1:${phonePort}` }) });
    expect(res.status).toBe(202);
    const { call } = (await res.json()) as { call: CallRecord };
    expect(call).toEqual(expect.objectContaining({ direction: 'out', called: '02873001234', caller_id: '0912345678', peer: `127.0.0.1:${phonePort}` }));
    const answered = await callWhere((c) => c.id === call.id && c.state !== 'ringing', 15_000, short.url);
    expect(answered).toEqual(expect.objectContaining({ state: 'answered', status: 200, codec: 'PCMU' }));
    const done = await pbx.done;
    expect(done).toEqual(expect.objectContaining({ code: 0 }));
    expect(await callWhere((c) => c.id === call.id && c.state === 'ended', 15_000, short.url)).toEqual(expect.objectContaining({ ended_by: 'carrier' }));
  }, 30_000);

  it('answers bad input with 400 and a code', async () => {
    const post = async (body: object) => {
      const r = await fetch(`${api}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, code: ((await r.json()) as { code: string }).code };
    };
    expect(await post({ to: 'abc' })).toEqual({ status: 400, code: 'invalid_to' });
    expect(await post({ to: '02873001234', target: 'localhost' })).toEqual({ status: 400, code: 'invalid_target' });
    // This carrier was started without the PBX's address: a target is needed.
    expect(await post({ to: '02873001234' })).toEqual({ status: 400, code: 'no_target' });
  });
});
