// npm run bench -- dialer, parts 2 and 3 (issue 34, notes/dialer.md): the predictive dialer placing real
// calls on the bench's stack. The demo tenant gets what an administrator would set up: a switchboard (the
// demo carrier's code, started here with a seeded population: every number it is called on is a person
// who answers, or not, as notes/dialer.md's workload draws), a hotline on it, a rule that lets the
// campaign's numbers out, AGENTS users with extensions registered from this process (phones that answer
// at once and send audio), and a predictive survey campaign (abandon cap 2 %, no retries) over enough
// contacts. For SECONDS the agents work as the working screen does: ready, asking for the next contact
// every DIALER_POLL_SEC, and saving a result the moment a call ends (no wrap-up). At the end the calls
// still up are hung up by the agents; talk past the end is not counted, as in the simulation.
// Measured: talk minutes per agent-hour, the abandon rate (the API's own count), dials per connected call,
// beside the simulation of the same workload and seed (the same fates in dial order: the population's
// seeded stream); every contact dialled at most once; the API's and the media worker's CPU, and the
// API's CPU per placed call.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seeded, type CampaignProgress, type WorkNext } from '@tongdai/contracts';
// From their files: to tsx the package is CommonJS, and what its index re-exports with `export *` has no name from ESM.
import { campaignApi } from '../../shared/contracts/src/campaigns.ts';
import { campaignWorkApi, DIALER_POLL_SEC } from '../../shared/contracts/src/campaign-work.ts';
import { predictive, simulate, type Fate, type Outcome } from '@tongdai/api/dialer';
import { registerContact } from '@tongdai/testkit/register-contact';
import type { StackSip } from '../../scripts/lib/stack.mjs';
import { startCarrier, type RunningCarrier } from '../../demo-carrier/src/carrier.ts';
import { drawPlan, type PopulationSettings } from '../../demo-carrier/src/population.ts';
import { Voice } from '../../demo-carrier/src/voice.ts';
import { cpuSeconds } from './calls-bench.ts';
import { figure, type Row } from './sections.ts';
import { carriersLoaded } from './trust.ts';

const list = (s: string | undefined, d: [number, number]): [number, number] => {
  const xs = (s ?? '').split(',').map(Number);
  return xs.length === 2 && xs.every((x) => Number.isFinite(x)) ? [xs[0], xs[1]] : d;
};

/** The issue's real-call run: 10 agents for 10 minutes; the smoke shrinks it (scripts/bench.mjs). */
const AGENTS = Number(process.env.BENCH_DIALER_AGENTS ?? 10);
const SECONDS = Number(process.env.BENCH_DIALER_CALL_S ?? 600);
const SEED = Number(process.env.BENCH_DIALER_SEED ?? 1);
/** notes/dialer.md's workload (30 % answer after 3–15 s, talk log-normal median 90 s σ 0.5), as the population's settings. */
const POPULATION: PopulationSettings = {
  prefixes: ['09996'],
  answer: Number(process.env.BENCH_DIALER_ANSWER ?? 0.3),
  busy: 0,
  answer_delay_s: list(process.env.BENCH_DIALER_ANSWER_DELAY_S, [3, 15]),
  busy_delay_s: [1, 1],
  talk_median_s: Number(process.env.BENCH_DIALER_TALK_S ?? 90),
  talk_sigma: 0.5,
};
/** An unanswered call rings this long (the API's DIALER_RING_SECONDS on the bench's stack: trust.ts). */
export const BENCH_DIALER_RING_S = Number(process.env.BENCH_DIALER_RING_S ?? 25);
const CAP_PCT = 2;
/** Seconds the API's CPU with the screens open and nothing to call is measured before the shift. */
const IDLE_S = Math.min(30, Math.max(4, SECONDS / 20));
/** The stated tolerance: the real talk minutes within this share of the simulation's for the same seed. */
const TOLERANCE = 0.15;
const HOTLINE = '02873000006';
const CARRIER = { user: 'bench-dialer', password: 'Bench-Dialer-Digest-1' };
const FIRST_EXTENSION = 8101;
const PASSWORD = 'Bench@Dialer1';
const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const f1 = (x: number) => x.toFixed(1);
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The population's numbers: 0999 6xx xxx (Gmobile's range, outside the demo carrier's default population). */
const contactNumber = (i: number) => `09996${String(i).padStart(5, '0')}`;

/** The contacts' fates as the population draws them, in the simulation's terms. */
export function populationFates(s: PopulationSettings, seed: number): () => Fate {
  const random = seeded(seed);
  return () => {
    const p = drawPlan(s, random);
    return p.fate === 'answered' ? { answers: true, delay: p.ringMs / 1000, talk: (p.talkMs ?? 0) / 1000 } : { answers: false, delay: 0, talk: 0 };
  };
}

interface AgentCall {
  ext: string;
  /** performance.now() at the 200 OK (the bridge) and at the end. */
  answeredAt: number;
  endedAt?: number;
  invite: string;
  from: RemoteInfo;
  tag: string;
  rtp?: { address: string; port: number };
  acked: boolean;
  resend?: NodeJS.Timeout;
}

const vias = (raw: string) => raw.split('\r\n\r\n')[0].split('\r\n').filter((l) => /^(via|v):/i.test(l));

/**
 * The agents' phones: one UDP user agent registered for every bench extension. It answers each call at
 * once (a softphone's auto-answer), sends 20 ms of µ-law every 20 ms to the worker while the call is up,
 * tells the agent when the worker hangs up, and hangs up itself on request.
 */
export class AgentPhones {
  private sock!: Socket;
  readonly calls = new Map<string, AgentCall>();
  private timer?: NodeJS.Timeout;
  private seq = 0;
  onEnded: (c: AgentCall) => void = () => undefined;

  static async open(): Promise<AgentPhones> {
    const p = new AgentPhones();
    p.sock = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    p.sock.on('message', (m, from) => p.onMessage(m.toString('latin1'), from));
    await new Promise<void>((r) => p.sock.bind(0, '127.0.0.1', r));
    const frame = Buffer.alloc(172);
    frame[0] = 0x80;
    frame.fill(0xff, 12);
    p.timer = setInterval(() => {
      const n = ++p.seq;
      frame.writeUInt16BE(n & 0xffff, 2);
      frame.writeUInt32BE((n * 160) >>> 0, 4);
      for (const c of p.calls.values()) if (c.rtp && c.endedAt === undefined) p.sock.send(frame, c.rtp.port, c.rtp.address);
    }, 20);
    return p;
  }

  get port(): number {
    return (this.sock.address() as { port: number }).port;
  }

  close(): void {
    clearInterval(this.timer);
    for (const c of this.calls.values()) clearTimeout(c.resend);
    this.sock.close();
  }

  private send(text: string, to: { port: number; address: string }): void {
    this.sock.send(Buffer.from(text, 'latin1'), to.port, to.address);
  }

  private reply(raw: string, to: RemoteInfo, status: string, toTag?: string, body?: string): string {
    const toHeader = header(raw, 'to|t') ?? '';
    const text = [
      `SIP/2.0 ${status}`,
      ...vias(raw),
      ...recordRoutes(raw),
      `From: ${header(raw, 'from|f')}`,
      `To: ${toTag && !/;tag=/i.test(toHeader) ? `${toHeader};tag=${toTag}` : toHeader}`,
      `Call-ID: ${header(raw, 'call-id|i')}`,
      `CSeq: ${header(raw, 'cseq')}`,
      `Contact: <sip:agent@127.0.0.1:${this.port}>`,
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body ?? '', 'latin1')}`,
      '',
      body ?? '',
    ].join('\r\n');
    this.send(text, to);
    return text;
  }

  /** The agent hangs up: a BYE in the call's dialog, through the proxy that record-routed it. */
  hangUp(c: AgentCall): void {
    if (c.endedAt !== undefined) return;
    c.endedAt = performance.now();
    const routes = recordRoutes(c.invite).map((l) => l.replace(/^record-route:/i, 'Route:'));
    const target = /<([^>]+)>/.exec(header(c.invite, 'contact|m') ?? '')?.[1] ?? `sip:${c.from.address}:${c.from.port}`;
    const text = [
      `BYE ${target} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=z9hG4bK${Math.random().toString(36).slice(2)};rport`,
      'Max-Forwards: 70',
      ...routes,
      `From: ${header(c.invite, 'to|t')};tag=${c.tag}`,
      `To: ${header(c.invite, 'from|f')}`,
      `Call-ID: ${header(c.invite, 'call-id|i')}`,
      'CSeq: 2 BYE',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    this.send(text, c.from);
    this.onEnded(c);
  }

  private onMessage(raw: string, from: RemoteInfo): void {
    if (raw.startsWith('SIP/2.0')) return; // the answers to its BYEs
    const method = raw.slice(0, raw.indexOf(' '));
    const callId = header(raw, 'call-id|i') ?? '';
    const call = this.calls.get(callId);
    if (method === 'INVITE') {
      if (call) return void (call.acked ? undefined : this.reply(raw, from, '200 OK', call.tag, sdp(this.port)));
      const uri = raw.slice(raw.indexOf(' ') + 1, raw.indexOf(' SIP/2.0'));
      const ext = /^sips?:([^@;]+)/.exec(uri)?.[1] ?? '';
      const body = raw.split('\r\n\r\n')[1] ?? '';
      const port = Number(/^m=audio (\d+)/m.exec(body)?.[1]);
      const address = /^c=IN IP4 (\S+)/m.exec(body)?.[1];
      const c: AgentCall = { ext, answeredAt: performance.now(), invite: raw, from, tag: `ag${this.calls.size + 1}`, acked: false, rtp: port && address ? { port, address } : undefined };
      this.calls.set(callId, c);
      const ok = this.reply(raw, from, '200 OK', c.tag, sdp(this.port));
      let every = 500;
      const again = () => {
        if (c.acked || c.endedAt !== undefined) return;
        this.send(ok, from);
        every = Math.min(every * 2, 4000);
        c.resend = setTimeout(again, every);
      };
      c.resend = setTimeout(again, every);
      return;
    }
    if (!call) {
      if (method !== 'ACK') this.reply(raw, from, '481 Call/Transaction Does Not Exist');
      return;
    }
    if (method === 'ACK') {
      call.acked = true;
      clearTimeout(call.resend);
    } else if (method === 'BYE' || method === 'CANCEL') {
      this.reply(raw, from, '200 OK');
      clearTimeout(call.resend);
      if (call.endedAt === undefined) {
        call.endedAt = performance.now();
        this.onEnded(call);
      }
    } else {
      this.reply(raw, from, '200 OK');
    }
  }
}

function header(raw: string, name: string): string | undefined {
  return new RegExp(`^(?:${name}):[ \\t]*(.*)$`, 'im').exec(raw.split('\r\n\r\n')[0])?.[1].trim();
}
const recordRoutes = (raw: string) => raw.split('\r\n\r\n')[0].split('\r\n').filter((l) => /^record-route:/i.test(l));
const sdp = (port: number) => ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000', 'a=sendrecv', '', ''].join('\r\n');

/** The media worker of this checkout's stack: its node process, found by its command line. */
function workerPids(): number[] {
  const script = join(ROOT, 'media', 'src', 'main.ts');
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script);
    } catch {
      return false;
    }
  });
}

/** An agent of the dialer benches: a user of the demo tenant with an extension registered at the bench's phones. */
export interface DialerAgent {
  ext: string;
  username: string;
  userId: number;
  /** The agent's access token now (DialerFloor.relogin renews it: tokens live 15 minutes). */
  token: string;
  /** The extension's SIP password (DialerFloor.relogin registers it again too: registrations last an hour). */
  sipPassword: string;
  /** A call of this agent ended and its result is not saved yet. */
  owed: boolean;
  busy: boolean;
}

/** A request to the API as `token` (the administrator's by default); throws on anything but 2xx. */
export type BenchCall = <T>(method: string, path: string, body?: object, token?: string) => Promise<T>;

/** What dialerFloor set up: the carrier and its population, the agents' phones and the tenant's side. */
export interface DialerFloor {
  carrier: RunningCarrier;
  phones: AgentPhones;
  agents: DialerAgent[];
  hotlineId: number;
  questionId: number;
  campaignId: number;
  /** The contacts imported into the campaign (numbers contactNumber(0 … contacts - 1)). */
  contacts: number;
  /** When the switchboard was made (ms): carriersLoaded waits for Kamailio to have read it since. */
  since: number;
  call: BenchCall;
  /** The administrator's token `call` sends from now on (a shift longer than a token's 15 minutes). */
  useToken(token: string): void;
  /** Every agent logs in and registers again (a shift longer than a token's 15 minutes, a registration's hour). */
  relogin(): Promise<void>;
  close(): void;
}

const benchCall = (apiUrl: string, adminToken: () => string): BenchCall => async <T>(method: string, path: string, body?: object, token = adminToken()): Promise<T> => {
  const res = await fetch(`${apiUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`bench setup ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? (undefined as T) : (((await res.json()) as { data: T }).data);
};

async function loginAs(apiUrl: string, username: string): Promise<string> {
  const login = await fetch(`${apiUrl}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: 'demo', username, password: PASSWORD }) });
  if (!login.ok) throw new Error(`login ${username}: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/**
 * A dialer campaign's floor, as an administrator sets it up on the demo tenant: a carrier (the demo
 * carrier's code, in this process, its `population` behind the numbers it is called on), a switchboard
 * to it, a hotline on that, a rule that lets the population's numbers out, `agents` users with
 * extensions from `firstExtension` registered from this process's phones (answering at once), a survey
 * campaign in `mode` over `contacts` contacts (contactNumber(i), in the population's first prefix).
 * `name` keeps two floors of one run apart (their users, hotlines and rules).
 */
export async function dialerFloor(o: { apiUrl: string; token: string; sip: StackSip }, p: {
  name: string; users: string; agents: number; firstExtension: number; hotline: string; carrier: { user: string; password: string };
  population: PopulationSettings; seed: number; mode: 'predictive' | 'progressive'; abandonCapPct?: number; contacts: number; contactNumber: (i: number) => string;
}): Promise<DialerFloor> {
  let adminToken = o.token;
  const call = benchCall(o.apiUrl, () => adminToken);
  const carrier: RunningCarrier = await startCarrier({
    address: '127.0.0.1', port: 0, accounts: [p.carrier], voice: Voice.tones(), population: p.population, random: seeded(p.seed), keepCalls: 100_000, log: () => undefined,
  });
  const phones = await AgentPhones.open();
  const close = () => {
    phones.close();
    carrier.stop();
  };
  const register = async (a: DialerAgent) => {
    const reg = await registerContact({ proxyPort: o.sip.udpPort, user: a.ext, domain: 'demo.tongdai.local', password: a.sipPassword, contactPort: phones.port, expires: 3600 });
    if (reg !== 200) throw new Error(`REGISTER ${a.ext} for the dialer bench: ${reg}`);
  };
  try {
    const since = Date.now();
    const board = await call<{ id: number }>('POST', '/t/demo/etelecom/switchboards', {
      name: `${p.name} carrier`, host: '127.0.0.1', port: carrier.port, register: false, auth_user: p.carrier.user, auth_password: p.carrier.password, max_channels: 2000,
    });
    const hotline = await call<{ id: number }>('POST', '/t/demo/etelecom/hotlines', { number: p.hotline, switchboard_id: board.id, destination: { type: 'direct', target: '101' } });
    const prefix = p.population.prefixes[0];
    await call('POST', '/pbx/partner/rule?CodeCompany=demo', { name: p.name, pattern: `${prefix}${'X'.repeat(10 - prefix.length)}`, switchboard_ids: [board.id], caller_id_mode: 'fixed', caller_id: p.hotline, priority: 0 });
    const role = await call<{ id: number }>('POST', '/t/demo/role', { name: `${p.users.replace(/\./g, '-')}-agents`, permissions: ['campaign.view', 'campaign.run'] });
    const agents: DialerAgent[] = [];
    for (let i = 0; i < p.agents; i++) {
      const username = `${p.users}.${i + 1}`;
      const user = await call<{ id: number }>('POST', '/t/demo/accounts', { full_name: `Nhân viên gọi ${i + 1}`, username, email: '', phone: '', role_id: role.id, status: 'active', password: PASSWORD, password_confirmation: PASSWORD });
      const ext = String(p.firstExtension + i);
      const sub = await call<{ password: string }>('POST', '/t/demo/subscribers', { extension: ext, display_name: `Gọi ra ${ext}`, user_id: String(user.id) });
      const agent: DialerAgent = { ext, username, userId: user.id, token: await loginAs(o.apiUrl, username), sipPassword: sub.password, owed: false, busy: false };
      await register(agent);
      agents.push(agent);
    }
    const category = await call<{ id: number }>('POST', '/t/demo/survey-categories', { name: `${p.name} gọi tự động` });
    const question = await call<{ id: number }>('POST', '/t/demo/survey-questions', { category_id: category.id, kind: 'text', text: 'Ghi chú' });
    const campaign = await call<{ id: number }>('POST', `/t/demo/${SURVEY.base}`, {
      name: `${p.name} ${p.mode === 'predictive' ? 'dự đoán' : 'lần lượt'} ${p.seed}`, mode: p.mode, ...(p.abandonCapPct !== undefined && { abandon_cap_pct: p.abandonCapPct }),
      question_ids: [question.id], agent_ids: agents.map((a) => a.userId), hotline_id: hotline.id,
      retry_busy_min: 10_080, retry_no_answer_min: 10_080, max_attempts: 1,
    });
    const csv = `\uFEFFTên,Số điện thoại\r\n${Array.from({ length: p.contacts }, (_, i) => `Khách ${i + 1},${p.contactNumber(i)}`).join('\r\n')}\r\n`;
    const form = new FormData();
    form.set('file', new Blob([csv]), 'bench.csv');
    form.set('name_column', '0');
    form.set('phone_column', '1');
    form.set('commit', 'true');
    const imported = await fetch(`${o.apiUrl}/t/demo/${SURVEY.importFile(campaign.id)}`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body: form });
    if (!imported.ok) throw new Error(`bench setup: contacts import ${imported.status} ${await imported.text()}`);
    const relogin = async () => {
      for (const a of agents) {
        a.token = await loginAs(o.apiUrl, a.username);
        await register(a);
      }
    };
    return { carrier, phones, agents, hotlineId: hotline.id, questionId: question.id, campaignId: campaign.id, contacts: p.contacts, since, call, relogin, close,
      useToken: (t: string) => {
        adminToken = t;
      },
    };
  } catch (e) {
    close();
    throw e;
  }
}

/**
 * The agents at work as the working screen does: ready on a running campaign, asking for the next
 * contact every DIALER_POLL_SEC, and saving a result ("agreed") the moment a call ends (no wrap-up).
 * `errors`: what the screens' requests were refused (each also printed).
 */
export function agentsAtWork(floor: DialerFloor) {
  const { agents, phones, call } = floor;
  let current = floor.campaignId;
  let counting = true;
  let poll: NodeJS.Timeout | undefined;
  const errors: string[] = [];
  const work = (a: DialerAgent, method: string, path: string, body?: object) => call<WorkNext>(method, `/t/demo/${path}`, body, a.token);
  const settle = async (a: DialerAgent) => {
    if (a.busy) return;
    a.busy = true;
    try {
      const next = await work(a, 'POST', WORK.next(current));
      if (a.owed && next.contact) {
        await work(a, 'POST', WORK.result(current, next.contact.id), { result: 'agreed' });
        a.owed = false;
        await work(a, 'POST', WORK.next(current));
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      errors.push(`${a.ext}: ${message}`);
      console.error(`bench dialer agent ${a.ext}: ${message}`);
    } finally {
      a.busy = false;
    }
  };
  const byExt = new Map(agents.map((a) => [a.ext, a]));
  phones.onEnded = (c) => {
    const a = byExt.get(c.ext);
    if (!a || !counting) return;
    a.owed = true;
    void settle(a);
  };
  return {
    errors,
    /** `campaignId` running, every agent ready on it at once, then their screens asking. */
    async begin(campaignId: number) {
      current = campaignId;
      await call('POST', `/t/demo/${SURVEY.state(campaignId)}`, { to: 'running' });
      await Promise.all(agents.map((a) => call('PUT', `/t/demo/${WORK.ready(campaignId)}`, { ready: true }, a.token)));
      poll = setInterval(() => agents.forEach((a) => void settle(a)), DIALER_POLL_SEC * 1000);
    },
    /** The screens stop asking, and a call ending from now on owes no result. */
    stop() {
      counting = false;
      clearInterval(poll);
    },
    /** The screens stop asking (the calls ending still get their results). */
    stopAsking() {
      clearInterval(poll);
    },
    /** Every agent not ready on `campaignId` (what refuses is ignored: a campaign paused first). */
    async notReady(campaignId: number) {
      for (const a of agents) await call('PUT', `/t/demo/${WORK.ready(campaignId)}`, { ready: false }, a.token).catch(() => undefined);
    },
  };
}

export async function dialerCallFigures(o: { apiUrl: string; token: string; apiPid: number; sip: StackSip | null }): Promise<Row[]> {
  if (!o.sip?.mediaAddress()) return [['Dialer, real calls', 'skipped', 'within 15 % of the simulation', o.sip ? "the media worker did not start (see the stack's media.log)" : 'Kamailio is not installed']];
  const sip = o.sip;
  // The carrier and its population (the demo carrier's code; its fates from the seed, in the order the INVITEs come), the tenant's side.
  // More contacts than the run can dial (at most 3 calls per ready agent at a time, each ringing ≥ 3 s).
  const floor = await dialerFloor({ ...o, sip }, {
    name: 'Bench dialer', users: 'bench.dialer', agents: AGENTS, firstExtension: FIRST_EXTENSION, hotline: HOTLINE, carrier: CARRIER,
    population: POPULATION, seed: SEED, mode: 'predictive', abandonCapPct: CAP_PCT, contacts: Math.ceil(AGENTS * SECONDS) + 50, contactNumber,
  });
  const { carrier, phones, agents, call, contacts } = floor;
  const rows: Row[] = [];
  try {
    // The screens' own cost, to take off the API's CPU in the run (part 3): the same agents ready on a campaign
    // with nothing to call (its one contact on the tenant's do-not-call list: refused at the first claim), their
    // screens asking every DIALER_POLL_SEC as in the shift, the workers' asks finding nobody to call.
    const empty = await call<{ id: number }>('POST', `/t/demo/${SURVEY.base}`, {
      name: 'Bench chờ (không có số để gọi)', mode: 'predictive', question_ids: [floor.questionId], agent_ids: agents.map((a) => a.userId), hotline_id: floor.hotlineId,
    });
    const refused = contactNumber(contacts + 1);
    await call('POST', '/t/demo/dnc-numbers', { number: refused, note: 'Bench: the calibration campaign calls nobody' });
    const one = new FormData();
    one.set('file', new Blob([`\uFEFFTên,Số điện thoại\r\nKhông gọi,${refused}\r\n`]), 'bench-empty.csv');
    one.set('name_column', '0');
    one.set('phone_column', '1');
    one.set('commit', 'true');
    const oneImported = await fetch(`${o.apiUrl}/t/demo/${SURVEY.importFile(empty.id)}`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body: one });
    if (!oneImported.ok) throw new Error(`bench setup: calibration contact ${oneImported.status} ${await oneImported.text()}`);
    await carriersLoaded(join(sip.dir, 'kamailio_ctl'), floor.since);

    const campaign = { id: floor.campaignId };
    const work = agentsAtWork(floor);
    const cpu = () => [cpuSeconds((pid, ppid) => pid === o.apiPid || ppid === o.apiPid), cpuSeconds((pid) => workerPids().includes(pid))];
    // The API's pace with the agents' screens open and nothing to call (above), taken off its CPU in the run.
    await work.begin(empty.id);
    await sleep(2000); // the refusal of its one contact
    const idle0 = cpu()[0];
    const idleT0 = performance.now();
    await sleep(IDLE_S * 1000);
    const idleRate = (cpu()[0] - idle0) / ((performance.now() - idleT0) / 1000);
    work.stopAsking();
    await Promise.all(agents.map((a) => call('PUT', `/t/demo/${WORK.ready(empty.id)}`, { ready: false }, a.token)));
    await call('POST', `/t/demo/${SURVEY.state(empty.id)}`, { to: 'paused' });
    // The shift: agents ready, then working as the screen does.
    const load0 = loadavg()[0];
    const cpu0 = cpu();
    const t0 = performance.now();
    const t0Wall = Date.now();
    // Running first (an agent is ready only on a running campaign), then every agent at once: the shift begins.
    await work.begin(campaign.id);
    await sleep(SECONDS * 1000);
    const end = performance.now();
    work.stop();
    const cpu1 = cpu();
    const progress = await call<CampaignProgress>('GET', `/t/demo/${SURVEY.base}/${campaign.id}/progress`);
    await call('POST', `/t/demo/${SURVEY.state(campaign.id)}`, { to: 'paused' });
    await work.notReady(campaign.id);
    const load1 = loadavg()[0];
    // The calls still up: the agents hang up (talk past the end is not counted).
    for (const c of phones.calls.values()) if (c.endedAt === undefined) phones.hangUp(c);

    // BENCH_DIALER_TRACE=<file>: every call of the run as JSON, the carrier's and the agents' (ms from the shift's start).
    if (process.env.BENCH_DIALER_TRACE) {
      const at = (iso: string | null) => (iso ? Date.parse(iso) - t0Wall : null);
      writeFileSync(process.env.BENCH_DIALER_TRACE, JSON.stringify({
        carrier: carrier.calls().filter((c) => c.population).map((c) => ({ called: c.called, state: c.state, status: c.status, started: at(c.started_at), answered: at(c.answered_at), ended: at(c.ended_at), ended_by: c.ended_by, ...c.population })),
        agents: [...phones.calls.values()].map((c) => ({ ext: c.ext, answered: Math.round(c.answeredAt - t0), ended: c.endedAt === undefined ? null : Math.round(c.endedAt - t0) })),
      }, null, 1));
    }
    // What happened in the run.
    const placed = carrier.calls().filter((c) => c.direction === 'in' && c.population && Date.parse(c.started_at) <= t0Wall + SECONDS * 1000);
    const perNumber = new Map<string, number>();
    for (const c of placed) perNumber.set(c.called.slice(-9), (perNumber.get(c.called.slice(-9)) ?? 0) + 1);
    const twice = [...perNumber.values()].filter((n) => n > 1).length;
    const connected = [...phones.calls.values()].filter((c) => c.answeredAt <= end);
    const talkS = connected.reduce((s, c) => s + (Math.min(c.endedAt ?? end, end) - c.answeredAt) / 1000, 0);
    const real: Pick<Outcome, 'talkPerAgentHour' | 'abandonRate' | 'dials' | 'connected' | 'answered' | 'abandoned'> = {
      talkPerAgentHour: talkS / 60 / (AGENTS * (SECONDS / 3600)),
      abandonRate: progress.dialer?.answered ? progress.dialer.abandoned / progress.dialer.answered : 0,
      dials: placed.length,
      connected: connected.length,
      answered: progress.dialer?.answered ?? 0,
      abandoned: progress.dialer?.abandoned ?? 0,
    };
    const sim = simulate(
      { agents: AGENTS, shift: SECONDS, answerRate: POPULATION.answer, answerDelay: POPULATION.answer_delay_s, noAnswerAfter: BENCH_DIALER_RING_S, talkMedian: POPULATION.talk_median_s, talkSigma: POPULATION.talk_sigma, wrapUp: 0, seed: SEED },
      predictive({ abandonCap: CAP_PCT / 100 }),
      populationFates(POPULATION, SEED),
    );
    const off = sim.talkPerAgentHour ? real.talkPerAgentHour / sim.talkPerAgentHour - 1 : NaN;
    const what = `${AGENTS} agents × ${SECONDS} s, ${Math.round(POPULATION.answer * 100)} % answer after ${POPULATION.answer_delay_s.join('–')} s, talk median ${POPULATION.talk_median_s} s, seed ${SEED}`;
    rows.push(figure(
      `Dialer, real calls: predictive (cap ${CAP_PCT} %), ${what}`,
      `talk ${f1(real.talkPerAgentHour)} min/agent-h (simulation, same seed: ${f1(sim.talkPerAgentHour)}; ${Number.isFinite(off) ? `${off >= 0 ? '+' : ''}${(off * 100).toFixed(0)} %` : '—'}); ` +
        `abandon ${pct(real.abandonRate)} (${real.abandoned} of ${real.answered} answered; simulation ${pct(sim.abandonRate)}); ` +
        `${(real.dials / Math.max(1, real.connected)).toFixed(2)} dials per connected call (simulation ${sim.dialsPerConnect.toFixed(2)}); ${real.dials} dials, ${real.connected} connected`,
      `talk within ${TOLERANCE * 100} % of the simulation; abandon ≤ ${CAP_PCT} %`,
      !real.connected || !real.dials,
      !real.dials ? 'no call was placed' : 'no call was connected to an agent',
    ));
    rows.push(figure(
      'Dialer, real calls: contacts dialled more than once (retries off)',
      `${twice} of ${perNumber.size} numbers dialled`,
      '0',
      twice > 0 || !perNumber.size,
      twice > 0 ? `${twice} numbers were dialled twice` : 'no number was dialled',
    ));
    const [api, worker] = [cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]];
    const wall = (end - t0) / 1000;
    const perCall = Math.max(0, api - idleRate * wall) / Math.max(1, real.dials);
    rows.push(figure(
      'Dialer, real calls: CPU of the API and the media worker; the API per placed call',
      `API ${((api / wall) * 100).toFixed(1)} %, worker ${((worker / wall) * 100).toFixed(1)} % of a core; API ${(perCall * 1000).toFixed(1)} ms per placed call over its ${(idleRate * 100).toFixed(1)} % with the ${AGENTS} screens open and nothing to call (what the calls cost it: the claims, plans, call events, reports, records, hand-overs, results); load ${load0.toFixed(1)} → ${load1.toFixed(1)}`,
      '—',
      !real.dials || worker === 0,
      !real.dials ? 'no call was placed' : 'the media worker used no CPU (not found)',
    ));
  } finally {
    floor.close();
  }
  return rows;
}
