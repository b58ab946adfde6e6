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

export function digestHeader(o: { method: string; uri: string; user: string; password: string; challenge: string }): string {
  const c = challengeOf(o.challenge);
  const ha1 = md5(`${o.user}:${c.realm}:${o.password}`);
  const ha2 = md5(`${o.method}:${o.uri}`);
  const qop = c.qop?.split(',').map((q) => q.trim()).includes('auth') ? 'auth' : undefined;
  const cnonce = rand();
  const nc = '00000001';
  const response = qop ? md5(`${ha1}:${c.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5(`${ha1}:${c.nonce}:${ha2}`);
  const parts = [`username="${o.user}"`, `realm="${c.realm}"`, `nonce="${c.nonce}"`, `uri="${o.uri}"`, `response="${response}"`, 'algorithm=MD5'];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  if (c.opaque) parts.push(`opaque="${c.opaque}"`);
  return `Digest ${parts.join(', ')}`;
}

export class SipUdpClient {
  private readonly sock: Socket = createSocket('udp4');
  private waiters: ((raw: string) => void)[] = [];
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
        // Provisional answers (100 Trying) are not what a test waits for.
        if (/^SIP\/2\.0 1\d\d/.test(raw)) return;
        this.waiters.shift()?.(raw);
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

  private send(msg: string, timeoutMs = 3000): Promise<SipResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        reject(new Error(`no SIP answer within ${timeoutMs} ms to:\n${msg.split('\r\n')[0]}`));
      }, timeoutMs);
      this.timers.add(timer);
      this.waiters.push((raw) => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(parse(raw));
      });
      this.sock.send(msg, this.proxyPort, '127.0.0.1');
    });
  }

  private build(o: { method: string; uri: string; from: string; to: string; callId: string; cseq: number; auth?: [string, string] }): string {
    const lines = [
      `${o.method} ${o.uri} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=z9hG4bK${rand()};rport`,
      'Max-Forwards: 70',
      `From: <${o.from}>;tag=${rand()}`,
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
    const first = await this.send(this.build({ ...o, callId, cseq: 1 }));
    if (first.status !== 401 && first.status !== 407) return first;
    const [challengeName, authName] = first.status === 401 ? ['www-authenticate', 'Authorization'] : ['proxy-authenticate', 'Proxy-Authorization'];
    const auth = digestHeader({ method: o.method, uri: o.uri, user: o.authUser, password: o.password, challenge: first.headers[challengeName] });
    return this.send(this.build({ ...o, callId, cseq: 2, auth: [authName, auth] }));
  }

  /** REGISTER sip:<domain> binding <user>@<domain> to this socket. */
  register(user: string, domain: string, password: string, authUser = user): Promise<SipResponse> {
    const aor = `sip:${user}@${domain}`;
    return this.request({ method: 'REGISTER', from: aor, to: aor, uri: `sip:${domain}`, authUser, password });
  }
}
