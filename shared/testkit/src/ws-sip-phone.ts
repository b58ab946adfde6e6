import { randomBytes } from 'node:crypto';
import { digestHeader } from './sip-client';

/**
 * A browser softphone as Kamailio sees it, without a browser: SIP over a WebSocket (subprotocol
 * "sip", Contact and Via in `<random>.invalid` like JsSIP), digest REGISTER, INVITE with digest,
 * and a phone that rings (180 at once) until the test answers, hangs up or closes its socket.
 * The WebSocket class is handed in (the `ws` package of the caller), so the kit needs no dependency.
 */

/** The part of the `ws` package's WebSocket this phone uses. */
export interface WsSocket {
  on(event: 'open' | 'close', cb: () => void): unknown;
  on(event: 'message', cb: (data: Buffer | string) => void): unknown;
  on(event: 'error', cb: (e: Error) => void): unknown;
  send(data: string): void;
  close(): void;
}
export type WsConnect = (url: string, protocol: string) => WsSocket;

export interface SipMessage {
  /** The request's method, or '' for a response. */
  method: string;
  status: number;
  first: string;
  /** Every header line in order, names as sent. */
  headers: [string, string][];
  body: string;
  raw: string;
}

const rand = () => randomBytes(6).toString('hex');

export function parseSip(raw: string): SipMessage {
  const at = raw.indexOf('\r\n\r\n');
  const head = at >= 0 ? raw.slice(0, at) : raw;
  const body = at >= 0 ? raw.slice(at + 4) : '';
  const [first, ...lines] = head.split('\r\n');
  const headers: [string, string][] = [];
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  const status = Number(/^SIP\/2\.0 (\d{3})/.exec(first)?.[1] ?? 0);
  return { method: status ? '' : first.split(' ')[0], status, first, headers, body, raw };
}

const COMPACT: Record<string, string> = { v: 'via', f: 'from', t: 'to', i: 'call-id', m: 'contact', l: 'content-length', c: 'content-type' };
const norm = (name: string) => COMPACT[name.toLowerCase()] ?? name.toLowerCase();

/** The values of header `name` (compact forms included), in order. */
export function headersOf(m: SipMessage, name: string): string[] {
  return m.headers.filter(([n]) => norm(n) === name.toLowerCase()).map(([, v]) => v);
}
export const headerOf = (m: SipMessage, name: string): string => headersOf(m, name)[0] ?? '';

const SDP = (host: string) =>
  ['v=0', `o=- ${Date.now()} 1 IN IP4 ${host}`, 's=-', `c=IN IP4 ${host}`, 't=0 0', 'm=audio 9 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', 'a=sendrecv', ''].join('\r\n');

/** An INVITE this phone received, ringing until answered, cancelled or the socket closed. */
export interface Ringing {
  invite: SipMessage;
  callId: string;
  /** Resolves when the proxy cancels this call (CANCEL, answered 200 and 487). */
  cancelled: Promise<void>;
  wasCancelled: boolean;
}

/** A call this phone placed: the statuses it was sent, the final one once it comes. */
export interface Outgoing {
  callId: string;
  statuses: number[];
  final: Promise<SipMessage>;
  /** Resolves at the first provisional status ≥ 180. */
  ringing: Promise<void>;
}

export class WsSipPhone {
  private host = `${rand()}.invalid`;
  private readonly waiters: { match: (m: SipMessage) => boolean; resolve: (m: SipMessage) => void }[] = [];
  private readonly incoming: Ringing[] = [];
  private readonly inviteWaiters: ((r: Ringing) => void)[] = [];
  private readonly cancels = new Map<string, () => void>();
  /** The answers still awaited: a closed phone awaits nothing (no rejection may outlive it into another suite). */
  private readonly timers = new Set<NodeJS.Timeout>();
  private cseq = 1;
  private regCallId = `${rand()}@${this.host}`;
  closed = false;

  private constructor(
    private readonly ws: WsSocket,
    readonly user: string,
    readonly domain: string,
    private readonly password: string,
  ) {
    ws.on('message', (data) => this.onMessage(parseSip(data.toString())));
    ws.on('close', () => {
      this.closed = true;
      for (const t of this.timers) clearTimeout(t);
      this.timers.clear();
    });
  }

  /**
   * Connects to Kamailio's WebSocket (ws://127.0.0.1:port) and registers (expires seconds).
   * `reconnectOf`: the same phone after its socket dropped, as JsSIP reconnects: a new socket, the
   * same Contact and REGISTER Call-ID, the CSeq going on.
   */
  static async open(o: { url: string; connect: WsConnect; user: string; domain: string; password: string; expires?: number; reconnectOf?: WsSipPhone }): Promise<WsSipPhone> {
    const ws = o.connect(o.url, 'sip');
    await new Promise<void>((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    const phone = new WsSipPhone(ws, o.user, o.domain, o.password);
    if (o.reconnectOf) {
      phone.host = o.reconnectOf.host;
      phone.regCallId = o.reconnectOf.regCallId;
      phone.cseq = o.reconnectOf.cseq + 1;
    }
    const res = await phone.register(o.expires ?? 600);
    if (res.status !== 200) throw new Error(`REGISTER of ${o.user} answered ${res.first}`);
    return phone;
  }

  private contact() {
    return `<sip:${this.user}@${this.host};transport=ws>`;
  }

  private via(branch = `z9hG4bK${rand()}`) {
    return `SIP/2.0/WS ${this.host};branch=${branch}`;
  }

  private send(lines: string[], body = ''): void {
    if (this.closed) return;
    this.ws.send([...lines, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'));
  }

  private await(match: (m: SipMessage) => boolean, timeoutMs = 15_000): Promise<SipMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const i = this.waiters.findIndex((w) => w.resolve === done);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`${this.user}: no SIP answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (m: SipMessage) => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(m);
      };
      this.timers.add(timer);
      this.waiters.push({ match, resolve: done });
    });
  }

  private async register(expires: number): Promise<SipMessage> {
    const aor = `sip:${this.user}@${this.domain}`;
    const tag = rand();
    const build = (auth?: string) => {
      const cseq = this.cseq++;
      return {
        cseq,
        lines: [
          `REGISTER sip:${this.domain} SIP/2.0`,
          `Via: ${this.via()}`,
          'Max-Forwards: 70',
          `To: <${aor}>`,
          `From: <${aor}>;tag=${tag}`,
          `Call-ID: ${this.regCallId}`,
          `CSeq: ${cseq} REGISTER`,
          `Contact: ${this.contact()};expires=${expires}`,
          `Expires: ${expires}`,
          ...(auth ? [`Authorization: ${auth}`] : []),
          'User-Agent: tongdai-test-ws',
        ],
      };
    };
    const first = build();
    const answer = this.final(this.regCallId, first.cseq);
    this.send(first.lines);
    const r = await answer;
    if (r.status !== 401) return r;
    const authed = build(digestHeader({ method: 'REGISTER', uri: `sip:${this.domain}`, user: this.user, password: this.password, challenge: headerOf(r, 'www-authenticate') }));
    const again = this.final(this.regCallId, authed.cseq);
    this.send(authed.lines);
    return again;
  }

  private final(callId: string, cseq: number, timeoutMs?: number) {
    return this.await((m) => m.status >= 200 && headerOf(m, 'call-id') === callId && headerOf(m, 'cseq').startsWith(`${cseq} `), timeoutMs);
  }

  /** Calls `number` in the phone's domain (digest answered); the call rings until it is answered or fails. */
  call(number: string): Outgoing {
    const callId = `${rand()}${rand()}`;
    const tag = rand();
    const uri = `sip:${number}@${this.domain}`;
    const statuses: number[] = [];
    let rang!: () => void;
    const ringing = new Promise<void>((r) => (rang = r));
    const sdp = SDP('127.0.0.1');
    const invite = (cseq: number, branch: string, auth?: string) => [
      `INVITE ${uri} SIP/2.0`,
      `Via: ${this.via(branch)}`,
      'Max-Forwards: 70',
      `To: <${uri}>`,
      `From: <sip:${this.user}@${this.domain}>;tag=${tag}`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq} INVITE`,
      `Contact: ${this.contact()}`,
      'Content-Type: application/sdp',
      ...(auth ? [`Proxy-Authorization: ${auth}`] : []),
      'User-Agent: tongdai-test-ws',
    ];
    const mine = (m: SipMessage) => m.status > 0 && headerOf(m, 'call-id') === callId;
    const onStatus = (m: SipMessage) => {
      statuses.push(m.status);
      if (m.status >= 180 && m.status < 200) rang();
    };
    const final = (async () => {
      const cseq = this.cseq++;
      const branch = `z9hG4bK${rand()}`;
      const first = this.final(callId, cseq, 30_000);
      this.send(invite(cseq, branch), sdp);
      const r = await first;
      this.ack(r, uri, cseq, branch);
      if (r.status !== 407) return r;
      const auth = digestHeader({ method: 'INVITE', uri, user: this.user, password: this.password, challenge: headerOf(r, 'proxy-authenticate') });
      const cseq2 = this.cseq++;
      const branch2 = `z9hG4bK${rand()}`;
      const watch = (m: SipMessage): boolean => {
        if (mine(m) && headerOf(m, 'cseq').startsWith(`${cseq2} `) && m.status < 200) onStatus(m);
        return false;
      };
      this.waiters.push({ match: watch, resolve: () => undefined });
      const second = this.final(callId, cseq2, 60_000);
      this.send(invite(cseq2, branch2, auth), sdp);
      const r2 = await second;
      this.waiters.splice(this.waiters.findIndex((w) => w.match === watch), 1);
      onStatus(r2);
      if (r2.status >= 300) this.ack(r2, uri, cseq2, branch2);
      return r2;
    })();
    // A call whose final answer a test never reads (its caller closed) rejects nobody's suite later.
    final.catch(() => undefined);
    return { callId, statuses, final, ringing };
  }

  /** The hop-by-hop ACK of a non-2xx final answer. */
  private ack(r: SipMessage, uri: string, cseq: number, branch: string) {
    if (r.status < 300) return;
    this.send([
      `ACK ${uri} SIP/2.0`,
      `Via: ${this.via(branch)}`,
      'Max-Forwards: 70',
      `To: ${headerOf(r, 'to')}`,
      `From: ${headerOf(r, 'from')}`,
      `Call-ID: ${headerOf(r, 'call-id')}`,
      `CSeq: ${cseq} ACK`,
    ]);
  }

  /** The next INVITE this phone receives (one already received and not yet taken first). */
  nextInvite(timeoutMs = 10_000): Promise<Ringing> {
    const ready = this.incoming.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.inviteWaiters.splice(this.inviteWaiters.indexOf(take), 1);
        reject(new Error(`${this.user}: no INVITE within ${timeoutMs} ms`));
      }, timeoutMs);
      const take = (r: Ringing) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.inviteWaiters.push(take);
    });
  }

  /** Answers a ringing call (200 with an SDP answer). */
  answer(r: Ringing): void {
    this.respond(r.invite, 200, 'OK', true, SDP('127.0.0.1'));
  }

  /** The socket closes as a browser tab's does: no BYE, no CANCEL, no unregister. */
  close(): void {
    this.ws.close();
  }

  private toTags = new Map<string, string>();

  private respond(req: SipMessage, status: number, reason: string, withContact = false, body = '') {
    const callId = headerOf(req, 'call-id');
    let to = headerOf(req, 'to');
    if (req.method === 'INVITE' && status > 100 && !/;tag=/.test(to)) {
      if (!this.toTags.has(callId)) this.toTags.set(callId, rand());
      to = `${to};tag=${this.toTags.get(callId)}`;
    }
    this.send(
      [
        `SIP/2.0 ${status} ${reason}`,
        ...headersOf(req, 'via').map((v) => `Via: ${v}`),
        ...(status > 100 ? headersOf(req, 'record-route').map((v) => `Record-Route: ${v}`) : []),
        `From: ${headerOf(req, 'from')}`,
        `To: ${to}`,
        `Call-ID: ${callId}`,
        `CSeq: ${headerOf(req, 'cseq')}`,
        ...(withContact ? [`Contact: ${this.contact()}`] : []),
        ...(body ? ['Content-Type: application/sdp'] : []),
      ],
      body,
    );
  }

  private onMessage(m: SipMessage) {
    if (m.status) {
      for (const w of [...this.waiters]) {
        if (w.match(m)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(m);
          return;
        }
      }
      return;
    }
    const callId = headerOf(m, 'call-id');
    if (m.method === 'INVITE' && !/;tag=/.test(headerOf(m, 'to'))) {
      // As JsSIP: 100 Trying from the transaction (no To tag), then 180 from the session.
      this.respond(m, 100, 'Trying');
      this.respond(m, 180, 'Ringing', true);
      let done!: () => void;
      const r: Ringing = { invite: m, callId, cancelled: new Promise<void>((ok) => (done = ok)), wasCancelled: false };
      this.cancels.set(callId, () => {
        r.wasCancelled = true;
        this.respond(m, 487, 'Request Terminated');
        done();
      });
      const waiter = this.inviteWaiters.shift();
      if (waiter) waiter(r);
      else this.incoming.push(r);
    } else if (m.method === 'CANCEL') {
      this.respond(m, 200, 'OK');
      this.cancels.get(callId)?.();
      this.cancels.delete(callId);
    } else if (m.method === 'ACK') {
      this.cancels.delete(callId);
    } else if (m.method !== '') {
      this.respond(m, 200, 'OK');
    }
  }
}
