// The OTP bench's phones: one UDP SIP user agent standing for every callee behind a carrier (a
// switchboard of the demo tenant). It notes when each INVITE arrives (by the number called, the
// moment the callee's phone would ring), answers 180 then 200 with its RTP pointed at the bench's ear,
// and takes the BYE. sipp could answer, but not say when each number's INVITE came on the bench's
// clock, which is what "start → callee ringing" needs.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

interface Callee {
  /** The number called (its last 9 digits: Kamailio may send it national or international). */
  number: string;
  invitedAt: number;
  answeredAt?: number;
  endedAt?: number;
  ok?: string;
  acked: boolean;
  resend?: NodeJS.Timeout;
}

const head = (raw: string, name: string): string | undefined => {
  const m = new RegExp(`^(?:${name}):[ \\t]*(.*)$`, 'im').exec(raw.split('\r\n\r\n')[0]);
  return m?.[1].trim();
};

/** Every Via of the request, in order (a response carries them all back). */
const vias = (raw: string) => raw.split('\r\n\r\n')[0].split('\r\n').filter((l) => /^(via|v):/i.test(l));

export class OtpCallees {
  private sock!: Socket;
  readonly calls = new Map<string, Callee>();
  /** The most calls talking at once (200 sent, BYE not yet received). */
  peak = 0;
  private talking = 0;
  /** Requests this UA could not place (no Call-ID, an unknown dialog): said in the figure when not 0. */
  strays = 0;
  private dialogs = 0;

  private constructor(private readonly earPort: number, private readonly answerMs: number) {}

  static async open(o: { port: number; earPort: number; answerMs?: number }): Promise<OtpCallees> {
    const c = new OtpCallees(o.earPort, o.answerMs ?? 100);
    c.sock = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    c.sock.on('message', (m, from) => c.onMessage(m.toString('latin1'), from));
    await new Promise<void>((r) => c.sock.bind(o.port, '127.0.0.1', r));
    return c;
  }

  /** When the INVITE for `number` (any form: its last 9 digits) arrived, ms on performance.now()'s clock. */
  invitedAt(number: string): number | undefined {
    const want = number.replace(/\D/g, '').slice(-9);
    for (const c of this.calls.values()) if (c.number === want) return c.invitedAt;
    return undefined;
  }

  get ended(): number {
    let n = 0;
    for (const c of this.calls.values()) if (c.endedAt !== undefined) n++;
    return n;
  }

  close(): void {
    for (const c of this.calls.values()) clearTimeout(c.resend);
    this.sock.close();
  }

  private send(text: string, to: RemoteInfo): void {
    this.sock.send(Buffer.from(text, 'latin1'), to.port, to.address);
  }

  private reply(raw: string, to: RemoteInfo, status: string, o: { toTag?: string; body?: string; contact?: boolean } = {}): string {
    const toHeader = head(raw, 'to|t') ?? '';
    const lines = [
      `SIP/2.0 ${status}`,
      ...vias(raw),
      `From: ${head(raw, 'from|f')}`,
      `To: ${o.toTag && !/;tag=/i.test(toHeader) ? `${toHeader};tag=${o.toTag}` : toHeader}`,
      `Call-ID: ${head(raw, 'call-id|i')}`,
      `CSeq: ${head(raw, 'cseq')}`,
      ...(o.contact ? [`Contact: <sip:callee@127.0.0.1:${(this.sock.address() as { port: number }).port}>`] : []),
      ...(o.body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(o.body ?? '', 'latin1')}`,
      '',
      o.body ?? '',
    ];
    const text = lines.join('\r\n');
    this.send(text, to);
    return text;
  }

  private onMessage(raw: string, from: RemoteInfo): void {
    if (raw.startsWith('SIP/2.0')) return; // no requests of its own
    const method = raw.slice(0, raw.indexOf(' '));
    const callId = head(raw, 'call-id|i');
    if (!callId) {
      this.strays++;
      return;
    }
    const call = this.calls.get(callId);
    if (method === 'INVITE') {
      if (call) {
        // The INVITE sent again before our answer reached the proxy: the last answer again.
        if (call.ok) this.send(call.ok, from);
        return;
      }
      const uri = raw.slice(raw.indexOf(' ') + 1, raw.indexOf(' SIP/2.0'));
      const number = (/^sips?:([^@;]+)/.exec(uri)?.[1] ?? '').replace(/\D/g, '').slice(-9);
      const c: Callee = { number, invitedAt: performance.now(), acked: false };
      const tag = `otp${++this.dialogs}`;
      this.calls.set(callId, c);
      this.reply(raw, from, '180 Ringing', { toTag: tag });
      setTimeout(() => {
        const sdp = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${this.earPort} RTP/AVP 0 101`, 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv', ''].join('\r\n');
        c.ok = this.reply(raw, from, '200 OK', { toTag: tag, body: sdp, contact: true });
        c.answeredAt = performance.now();
        this.talking++;
        this.peak = Math.max(this.peak, this.talking);
        // Sent again until the ACK comes (RFC 3261's 2xx retransmission, 0.5 s doubling, 4 s at most).
        let every = 500;
        const again = () => {
          if (c.acked || c.endedAt !== undefined) return;
          this.send(c.ok!, from);
          every = Math.min(every * 2, 4000);
          c.resend = setTimeout(again, every);
        };
        c.resend = setTimeout(again, every);
      }, this.answerMs);
      return;
    }
    if (!call) {
      if (method !== 'ACK') this.reply(raw, from, '481 Call/Transaction Does Not Exist');
      this.strays++;
      return;
    }
    if (method === 'ACK') {
      call.acked = true;
      clearTimeout(call.resend);
    } else if (method === 'BYE') {
      this.reply(raw, from, '200 OK');
      if (call.endedAt === undefined) {
        call.endedAt = performance.now();
        clearTimeout(call.resend);
        if (call.answeredAt !== undefined) this.talking--;
      }
    } else if (method === 'CANCEL') {
      this.reply(raw, from, '200 OK');
      call.endedAt ??= performance.now();
    } else {
      this.reply(raw, from, '200 OK'); // OPTIONS (a keep-alive), INFO
    }
  }
}
