import { createHash, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/** A minimal UDP SIP user agent for tests: REGISTER / INVITE with digest auth (RFC 2617, qop=auth). */

export interface SipResponse {
  status: number;
  headers: Record<string, string>;
  raw: string;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const rand = () => randomBytes(6).toString('hex');

function parse(raw: string): SipResponse {
  const [head] = raw.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const status = Number(/^SIP\/2\.0 (\d{3})/.exec(lines[0])?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status, headers, raw };
}

/** The fields of a WWW-Authenticate / Proxy-Authenticate challenge. */
function challengeOf(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^Digest\s+/i, '').matchAll(/(\w+)=("([^"]*)"|[^,\s]+)/g)) out[m[1]] = m[3] ?? m[2];
  return out;
}

/** The Authorization value answering `challenge`; `cnonce` is random unless given (known-answer tests). */
export function digestHeader(o: { method: string; uri: string; user: string; password: string; challenge: string; cnonce?: string }): string {
  const c = challengeOf(o.challenge);
  const ha1 = md5(`${o.user}:${c.realm}:${o.password}`);
  const ha2 = md5(`${o.method}:${o.uri}`);
  const qop = c.qop?.split(',').map((q) => q.trim()).includes('auth') ? 'auth' : undefined;
  const cnonce = o.cnonce ?? rand();
  const nc = '00000001';
  const response = qop ? md5(`${ha1}:${c.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5(`${ha1}:${c.nonce}:${ha2}`);
  const parts = [`username="${o.user}"`, `realm="${c.realm}"`, `nonce="${c.nonce}"`, `uri="${o.uri}"`, `response="${response}"`, 'algorithm=MD5'];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  if (c.opaque) parts.push(`opaque="${c.opaque}"`);
  return `Digest ${parts.join(', ')}`;
}

/**
 * How long a request waits for its final answer: what the proxy itself may take, not what it takes on a
 * quiet machine — a new call's INVITE may wait up to 8 s for its plan (sip/kamailio.cfg, PLAN_WAIT) and a
 * digest up to 2 s for the API's credentials; at load 13 an INVITE of carrier-calls.integration went
 * unanswered for 3 s, the old limit (ci3 of the thirtieth session). An answer that comes is taken at once.
 */
const ANSWER_WITHIN_MS = 15_000;

export class SipUdpClient {
  private readonly sock: Socket = createSocket('udp4');
  private waiters: { callId: string; cseq: string; resolve: (raw: string) => void }[] = [];
  /** Called with each provisional status (100, 180, 183) the proxy sends back (benchmarks time them). */
  onProvisional?: (status: number) => void;
  /** Called as each request leaves; `authenticated`: it carries credentials. */
  onSend?: (method: string, authenticated: boolean) => void;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Requests the proxy sent to this client (e.g. a relayed INVITE). */
  readonly received: string[] = [];
  port = 0;

  constructor(private readonly proxyPort: number) {}

  async open(): Promise<this> {
    await new Promise<void>((resolve) => this.sock.bind(0, '127.0.0.1', resolve));
    this.port = this.sock.address().port;
    this.sock.on('message', (buf) => {
      const raw = buf.toString();
      if (raw.startsWith('SIP/2.0 ')) {
        const res = parse(raw);
        // Provisional answers (100 Trying, 180) are not what a test waits for.
        if (res.status < 200) return this.onProvisional?.(res.status);
        // Only the answer to the request in flight: a retransmitted final of an earlier one is dropped.
        const i = this.waiters.findIndex((w) => w.callId === res.headers['call-id'] && w.cseq === res.headers.cseq);
        if (i >= 0) this.waiters.splice(i, 1)[0].resolve(raw);
      } else {
        this.received.push(raw);
      }
    });
    return this;
  }

  /** Closes the socket; requests still waiting are abandoned (their timers cleared). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.waiters = [];
    this.sock.close();
  }

  /** A request written by the test (its Call-ID and CSeq pair it with the final answer). */
  sendRaw(msg: string, timeoutMs = ANSWER_WITHIN_MS): Promise<SipResponse> {
    return this.send(msg, timeoutMs);
  }

  private send(msg: string, timeoutMs = ANSWER_WITHIN_MS): Promise<SipResponse> {
    const callId = /^Call-ID: (.*)$/m.exec(msg)?.[1].trim() ?? '';
    const cseq = /^CSeq: (.*)$/m.exec(msg)?.[1].trim() ?? '';
    this.onSend?.(msg.slice(0, msg.indexOf(' ')), /^(Proxy-)?Authorization:/im.test(msg));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        reject(new Error(`no SIP answer within ${timeoutMs} ms to:\n${msg.split('\r\n')[0]}`));
      }, timeoutMs);
      this.timers.add(timer);
      this.waiters.push({
        callId,
        cseq,
        resolve: (raw) => {
          clearTimeout(timer);
          this.timers.delete(timer);
          resolve(parse(raw));
        },
      });
      this.sock.send(msg, this.proxyPort, '127.0.0.1');
    });
  }

  private build(o: { method: string; uri: string; from: string; to: string; callId: string; cseq: number; auth?: [string, string]; branch?: string; fromTag?: string }): string {
    const lines = [
      `${o.method} ${o.uri} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=${o.branch ?? `z9hG4bK${rand()}`};rport`,
      'Max-Forwards: 70',
      `From: <${o.from}>;tag=${o.fromTag ?? rand()}`,
      `To: <${o.to}>`,
      `Call-ID: ${o.callId}`,
      `CSeq: ${o.cseq} ${o.method}`,
      `Contact: <sip:${o.from.slice(4).split('@')[0]}@127.0.0.1:${this.port}>`,
      ...(o.method === 'REGISTER' ? ['Expires: 60'] : []),
      ...(o.auth ? [`${o.auth[0]}: ${o.auth[1]}`] : []),
      'User-Agent: tongdai-test',
      'Content-Length: 0',
      '',
      '',
    ];
    return lines.join('\r\n');
  }

  /**
   * Sends the request, answers the challenge with (authUser, password) and resolves with the
   * final answer to the authenticated request (or the first answer when it is not a challenge).
   */
  async request(o: { method: 'REGISTER' | 'INVITE'; from: string; to: string; uri: string; authUser: string; password: string }): Promise<SipResponse> {
    const callId = `${rand()}@tongdai-test`;
    const fromTag = rand();
    const branches = [`z9hG4bK${rand()}`, `z9hG4bK${rand()}`];
    const first = await this.send(this.build({ ...o, callId, cseq: 1, branch: branches[0], fromTag }));
    this.ackFailure(o, first, { callId, cseq: 1, branch: branches[0], fromTag });
    if (first.status !== 401 && first.status !== 407) return first;
    const [challengeName, authName] = first.status === 401 ? ['www-authenticate', 'Authorization'] : ['proxy-authenticate', 'Proxy-Authorization'];
    const auth = digestHeader({ method: o.method, uri: o.uri, user: o.authUser, password: o.password, challenge: first.headers[challengeName] });
    const final = await this.send(this.build({ ...o, callId, cseq: 2, auth: [authName, auth], branch: branches[1], fromTag }));
    this.ackFailure(o, final, { callId, cseq: 2, branch: branches[1], fromTag });
    return final;
  }

  /** A final failure to an INVITE is ACKed (same branch), or the proxy keeps repeating it. */
  private ackFailure(o: { method: string; uri: string; from: string }, res: SipResponse, t: { callId: string; cseq: number; branch: string; fromTag: string }): void {
    if (o.method !== 'INVITE' || res.status < 300) return;
    const ack = [
      `ACK ${o.uri} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=${t.branch};rport`,
      'Max-Forwards: 70',
      `From: <${o.from}>;tag=${t.fromTag}`,
      `To: ${res.headers.to}`,
      `Call-ID: ${t.callId}`,
      `CSeq: ${t.cseq} ACK`,
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    this.sock.send(ack, this.proxyPort, '127.0.0.1');
  }

  /** REGISTER sip:<domain> binding <user>@<domain> to this socket. */
  register(user: string, domain: string, password: string, authUser = user): Promise<SipResponse> {
    const aor = `sip:${user}@${domain}`;
    return this.request({ method: 'REGISTER', from: aor, to: aor, uri: `sip:${domain}`, authUser, password });
  }
}
