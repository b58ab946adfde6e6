import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { DialerBridge, PlacedJob } from '@tongdai/contracts';
import { digitEvent } from '../../rtp/dtmf';
import { header, parseMessage, serialize, type SipRequest, type SipResponse } from '../../sip/message';
import { buildSdp } from '../../sip/sdp';

/**
 * What the tests of the worker's calls share (dialer, voice survey, a queue's post-call CSAT): Kamailio's
 * stand-in and a phone's RTP, all on 127.0.0.1. Test code only.
 */

export const until = async (what: string, ok: () => boolean, ms = 4000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

export const udp = async (): Promise<Socket> => {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  return s;
};

/** A phone's RTP: what it received, and a packet it sends to the worker's leg. */
export class Phone {
  received: Buffer[] = [];
  private constructor(readonly socket: Socket) {
    socket.on('message', (m) => this.received.push(m));
  }
  static async open(): Promise<Phone> {
    return new Phone(await udp());
  }
  get port(): number {
    return this.socket.address().port;
  }
  /** An RTP packet (PCMU) whose payload is `marker` repeated. */
  send(to: number, marker: number): void {
    this.sendAudio(to, Buffer.alloc(160, marker), 0);
  }

  /** An RTP packet (PCMU) of this phone's stream with `payload` (μ-law bytes) and RTP timestamp `ts`. */
  sendAudio(to: number, payload: Buffer, ts: number): void {
    const head = Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef]);
    head.writeUInt32BE(ts >>> 0, 4);
    this.socket.send(Buffer.concat([head, payload]), to, '127.0.0.1');
  }

  private eventTimestamp = 1000;

  /**
   * A key as a phone sends it by RFC 4733 (payload type 101, as the fake proxy's SDP answers): the
   * event's packets, all with its own timestamp, the last three marked as its end.
   */
  dtmf(to: number, digit: string): void {
    const ts = (this.eventTimestamp += 8000);
    const event = digitEvent(digit);
    [0, 400, 800, 800, 800].forEach((duration, i) => {
      const head = Buffer.from([0x80, (i === 0 ? 0x80 : 0) | 101, 0, i + 2, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef]);
      head.writeUInt32BE(ts, 4);
      const payload = Buffer.from([event, (i >= 2 ? 0x80 : 0) | 10, duration >> 8, duration & 0xff]);
      this.socket.send(Buffer.concat([head, payload]), to, '127.0.0.1');
    });
  }
}

/** `headers`: more on the 200 (a worker's media step answering: X-Tongdai-Media). */
export type Behaviour = { answer: 'ok'; phone: Phone; headers?: [string, string][] } | { answer: 'ring' } | { answer: number };

/**
 * Kamailio's stand-in: answers each INVITE as its token says (200 with the phone's SDP, a status, or
 * 180 and nothing more), answers BYE / CANCEL, and hangs up a dialog on request. It also sends a
 * caller to a media step of the worker (callWorker) and speaks for that caller in its dialog.
 */
export class FakeProxy {
  requests: SipRequest[] = [];
  /** The worker's answers to the callers sent to it (callWorker). */
  responses: SipResponse[] = [];
  private readonly dialogs = new Map<string, { invite: SipRequest; toTag: string }>();
  /** Callers sent to the worker, by Call-ID: their INVITE and the worker's 200 once it answered. */
  private readonly callers = new Map<string, { invite: SipRequest; ok: SipResponse | null; workerPort: number }>();
  behaviours = new Map<string, Behaviour>();
  private constructor(readonly socket: Socket) {
    socket.on('message', (raw, from) => {
      const m = parseMessage(raw.toString());
      if (m?.kind === 'request') this.onRequest(m, from.port);
      else if (m?.kind === 'response') this.onResponse(m);
    });
  }
  static async open(): Promise<FakeProxy> {
    return new FakeProxy(await udp());
  }
  get port(): number {
    return this.socket.address().port;
  }

  private reply(req: SipRequest, to: number, status: number, toTag: string | null, extra: [string, string][] = [], body = ''): void {
    const copied = req.headers.filter(([n]) => ['via', 'from', 'to', 'call-id', 'cseq'].includes(n));
    const headers = copied.map(([n, v]): [string, string] => [n, n === 'to' && toTag ? `${v};tag=${toTag}` : v]);
    const res: SipResponse = { kind: 'response', status, reason: 'Fake', headers: [...headers, ...extra], body };
    this.socket.send(serialize(res), to, '127.0.0.1');
  }

  private onRequest(req: SipRequest, from: number): void {
    this.requests.push(req);
    if (req.method === 'ACK') return;
    if (req.method !== 'INVITE') return this.reply(req, from, 200, null);
    const token = header(req, 'x-tongdai-continue') ?? '';
    const b = this.behaviours.get(token) ?? { answer: 404 };
    if (b.answer === 'ring') return this.reply(req, from, 180, `ring-${token}`);
    if (typeof b.answer === 'number') return this.reply(req, from, b.answer, `no-${token}`);
    const toTag = `callee-${token}`;
    this.dialogs.set(token, { invite: req, toTag });
    const sdp = buildSdp({ address: '127.0.0.1', port: b.phone.port, sessionId: 1 });
    this.reply(req, from, 200, toTag, [['contact', `<sip:phone@127.0.0.1:${this.port}>`], ...(b.headers ?? []), ['content-type', 'application/sdp']], sdp);
  }

  /** The callee reached by `token` hangs up (a BYE to the worker, in its dialog; `extra`: its headers, X-Tongdai-Media). */
  hangUp(token: string, workerPort: number, extra: [string, string][] = []): void {
    this.inDialog('BYE', token, workerPort, extra);
  }

  /** The callee reached by `token` presses a key by SIP INFO (e.g. application/dtmf-relay "Signal=3"). */
  info(token: string, workerPort: number, contentType: string, body: string): void {
    this.inDialog('INFO', token, workerPort, [['content-type', contentType]], body);
  }

  private cseq = 1;

  /** A request from the callee reached by `token` to the worker, in its dialog. */
  private inDialog(method: string, token: string, workerPort: number, extra: [string, string][] = [], body = ''): void {
    const d = this.dialogs.get(token)!;
    const seq = ++this.cseq;
    const req: SipRequest = {
      kind: 'request',
      method,
      uri: `sip:media@127.0.0.1:${workerPort}`,
      headers: [
        ['via', `SIP/2.0/UDP 127.0.0.1:${this.port};branch=z9hG4bK${method.toLowerCase()}${seq}${token}`],
        ['from', `${header(d.invite, 'to')};tag=${d.toTag}`],
        ['to', header(d.invite, 'from')!],
        ['call-id', header(d.invite, 'call-id')!],
        ['cseq', `${seq} ${method}`],
        ...extra,
      ],
      body,
    };
    this.socket.send(serialize(req), workerPort, '127.0.0.1');
  }

  /**
   * A caller (RTP at `phone`, keys by RFC 4733 on payload type 101) sent to the worker's media step
   * `step` of the call `callId` (X-Tongdai-Step), as Kamailio's dispatcher does; its dialog's
   * requests (the worker's BYE) come back here.
   */
  callWorker(workerPort: number, callId: string, step: number, phone: Phone): void {
    const invite: SipRequest = {
      kind: 'request',
      method: 'INVITE',
      uri: `sip:media@127.0.0.1:${workerPort}`,
      headers: [
        ['via', `SIP/2.0/UDP 127.0.0.1:${this.port};branch=z9hG4bKinvite${callId}`],
        ['from', `<sip:0912000111@127.0.0.1>;tag=caller-${callId}`],
        ['to', '<sip:queue@127.0.0.1>'],
        ['call-id', callId],
        ['cseq', '1 INVITE'],
        ['contact', `<sip:caller@127.0.0.1:${this.port}>`],
        ['x-tongdai-step', String(step)],
        ['content-type', 'application/sdp'],
      ],
      body: buildSdp({ address: '127.0.0.1', port: phone.port, sessionId: 2 }),
    };
    this.callers.set(callId, { invite, ok: null, workerPort });
    this.socket.send(serialize(invite), workerPort, '127.0.0.1');
  }

  /** The worker's 200 to the caller of `callId` (its SDP: where the caller's RTP goes), once answered. */
  answered(callId: string): SipResponse | null {
    return this.callers.get(callId)?.ok ?? null;
  }

  /** The caller of `callId` sends a request in its dialog with the worker (BYE, INFO). */
  callerSends(method: string, callId: string, extra: [string, string][] = [], body = ''): void {
    const c = this.callers.get(callId)!;
    const seq = ++this.cseq;
    this.socket.send(serialize(this.callerRequest(c, method, `${seq} ${method}`, `${method.toLowerCase()}${seq}${callId}`, extra, body)), c.workerPort, '127.0.0.1');
  }

  private callerRequest(c: { invite: SipRequest; ok: SipResponse | null }, method: string, cseq: string, branch: string, extra: [string, string][] = [], body = ''): SipRequest {
    return {
      kind: 'request',
      method,
      uri: /<([^>]+)>/.exec(header(c.ok!, 'contact') ?? '')?.[1] ?? c.invite.uri,
      headers: [
        ['via', `SIP/2.0/UDP 127.0.0.1:${this.port};branch=z9hG4bK${branch}`],
        ['from', header(c.invite, 'from')!],
        ['to', header(c.ok!, 'to')!],
        ['call-id', header(c.invite, 'call-id')!],
        ['cseq', cseq],
        ...extra,
      ],
      body,
    };
  }

  /** The worker's 200 to a caller is ACKed (each time it is sent). */
  private onResponse(res: SipResponse): void {
    const c = this.callers.get(header(res, 'call-id') ?? '');
    if (!c || !/INVITE$/.test(header(res, 'cseq') ?? '')) return;
    this.responses.push(res);
    if (res.status < 200 || res.status >= 300) return;
    c.ok = res;
    this.socket.send(serialize(this.callerRequest(c, 'ACK', '1 ACK', `ack${header(res, 'call-id')}`)), c.workerPort, '127.0.0.1');
  }

  /** The requests of `method` in the call `callId`. */
  seen(method: string, callId?: string): SipRequest[] {
    return this.requests.filter((r) => r.method === method && (callId === undefined || header(r, 'call-id') === callId));
  }

  invite(token: string): SipRequest | undefined {
    return this.requests.find((r) => r.method === 'INVITE' && header(r, 'x-tongdai-continue') === token);
  }
}

/**
 * The API's stand-in for a worker (the internal listener, secret "secret"): hands out `job` once on the
 * workers' ask, keeps every report in `bodies`, and answers `answered` with `bridge`. `audio`: the tenant's
 * files by "<tenant id>/<id>", served as GET /media/audio serves them (any other: 404); `audioAsked` lists
 * what was asked for. A call's recording (POST /media/recording) is taken (201) and kept in `recordings`.
 */
export async function fakeOriginateApi(
  job: PlacedJob, bridge: DialerBridge | null, audio: Record<string, { bytes: Buffer; mime: string }> = {},
): Promise<{ server: Server; bodies: Record<string, unknown>[]; port: number; audioAsked: string[]; recordings: { query: URLSearchParams; mp3: Buffer }[] }> {
  const bodies: Record<string, unknown>[] = [];
  const audioAsked: string[] = [];
  const recordings: { query: URLSearchParams; mp3: Buffer }[] = [];
  let handedOut = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const json = (x: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(x));
      if (req.headers['x-tongdai-internal'] !== 'secret') return res.writeHead(403).end();
      if (req.url?.startsWith('/media/recording?')) {
        recordings.push({ query: new URL(req.url, 'http://api').searchParams, mp3: Buffer.concat(chunks) });
        return res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
      }
      if (req.url === '/media/originate') {
        if (handedOut) return res.writeHead(204).end();
        handedOut = true;
        return json({ jobs: [job] });
      }
      const file = /^\/media\/audio\?tenant_id=(\d+)&id=(\d+)$/.exec(req.url ?? '');
      if (file) {
        const key = `${file[1]}/${file[2]}`;
        audioAsked.push(key);
        const found = audio[key];
        return found ? res.writeHead(200, { 'content-type': found.mime }).end(found.bytes) : res.writeHead(404).end();
      }
      if (req.url !== '/media/originated') return res.writeHead(404).end();
      const body = JSON.parse(raw) as Record<string, unknown>;
      bodies.push(body);
      json(body.outcome === 'answered' ? { ok: true, applied: true, bridge } : { ok: true, applied: true });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, bodies, port: (server.address() as { port: number }).port, audioAsked, recordings };
}
