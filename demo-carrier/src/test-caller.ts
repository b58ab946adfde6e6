import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { header, parseMessage, type SipMessage } from '@tongdai/media/sip/message';
import { digestHeader } from '@tongdai/testkit/sip-client';

/** What a test saw of one call, in ms since its INVITE. */
export interface PlacedCall {
  called: string;
  /** The 180, and the final answer (200, 486, 487…). */
  ringing: Promise<number>;
  final: Promise<{ status: number; at: number }>;
  /** The carrier's BYE (answered 200 here). */
  bye: Promise<number>;
  /** CANCEL of the authenticated INVITE. */
  cancel(): void;
  /** The keys the carrier's person pressed, by SIP INFO (application/dtmf-relay), each answered 200. */
  keys: string[];
}

const rand = () => randomBytes(6).toString('hex');

/**
 * A SIP caller for the population tests (the PBX's side of a campaign call): INVITE with a G.711
 * offer and digest, CANCEL, ACK of every final answer, 200 to the carrier's BYE. Many calls at
 * once on one socket. Its SDP points at a socket that swallows the RTP.
 */
export class TestCaller {
  private readonly calls = new Map<string, (m: SipMessage) => void>();

  private constructor(
    private readonly sock: Socket,
    private readonly rtp: Socket,
    private readonly carrierPort: number,
    private readonly account: { user: string; password: string },
  ) {
    sock.on('message', (buf) => {
      const m = parseMessage(buf.toString());
      if (m) this.calls.get(header(m, 'call-id') ?? '')?.(m);
    });
  }

  static async open(carrierPort: number, account: { user: string; password: string }): Promise<TestCaller> {
    const bind = async () => {
      const s = createSocket('udp4');
      await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
      return s;
    };
    return new TestCaller(await bind(), await bind(), carrierPort, account);
  }

  close(): void {
    this.sock.close();
    this.rtp.close();
  }

  /** Calls `called`; its RTP goes to `rtpPort` (an Ear) or is swallowed. */
  call(called: string, rtpPort = this.rtp.address().port): PlacedCall {
    const t0 = Date.now();
    const me = this.sock.address().port;
    const uri = `sip:${called}@127.0.0.1:${this.carrierPort}`;
    const callId = `${rand()}@test-caller`;
    const from = `<sip:${this.account.user}@127.0.0.1:${me}>;tag=${rand()}`;
    const sdp = ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${rtpPort} RTP/AVP 0 101`, 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=sendrecv', ''].join('\r\n');
    let branch = `z9hG4bK${rand()}`;
    let seq = 1;
    const send = (lines: string[], body = '') => this.sock.send([...lines, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'), this.carrierPort, '127.0.0.1');
    const head = (method: string, ruri: string, to: string, b = branch, cseq = seq) => [`${method} ${ruri} SIP/2.0`, `Via: SIP/2.0/UDP 127.0.0.1:${me};branch=${b};rport`, 'Max-Forwards: 70', `From: ${from}`, `To: ${to}`, `Call-ID: ${callId}`, `CSeq: ${cseq} ${method}`];
    const invite = (auth?: string) => send([...head('INVITE', uri, `<${uri}>`), `Contact: <sip:${this.account.user}@127.0.0.1:${me}>`, ...(auth ? [`Proxy-Authorization: ${auth}`] : []), 'Content-Type: application/sdp'], sdp);

    let ringing!: (at: number) => void;
    let final!: (f: { status: number; at: number }) => void;
    let bye!: (at: number) => void;
    const placed: PlacedCall = {
      called,
      ringing: new Promise((r) => (ringing = r)),
      final: new Promise((r) => (final = r)),
      bye: new Promise((r) => (bye = r)),
      cancel: () => send(head('CANCEL', uri, `<${uri}>`, branch, seq)),
      keys: [],
    };
    let done = false;
    this.calls.set(callId, (m) => {
      if (m.kind === 'request') {
        const ok = () => send(['SIP/2.0 200 OK', ...['via', 'from', 'to', 'call-id', 'cseq'].map((h) => `${h}: ${header(m, h)}`)]);
        if (m.method === 'INFO') {
          const key = /^signal=(.)/im.exec(m.body)?.[1];
          if (key) placed.keys.push(key);
          return void ok();
        }
        if (m.method !== 'BYE') return;
        bye(Date.now() - t0);
        return void ok();
      }
      if (!header(m, 'cseq')?.endsWith('INVITE')) return;
      if (m.status === 180) return ringing(Date.now() - t0);
      if (m.status < 200) return;
      const to = header(m, 'to')!;
      if (m.status >= 300) send(head('ACK', uri, to));
      if (m.status === 407 && seq === 1) {
        seq = 2;
        branch = `z9hG4bK${rand()}`;
        return invite(digestHeader({ method: 'INVITE', uri, user: this.account.user, password: this.account.password, challenge: header(m, 'proxy-authenticate')! }));
      }
      // 2xx: ACK in the dialog, to the carrier's Contact (every retransmission of the 200 too).
      if (m.status < 300) send(head('ACK', /<([^>]+)>/.exec(header(m, 'contact') ?? '')?.[1] ?? uri, to, `z9hG4bK${rand()}`));
      if (done) return;
      done = true;
      final({ status: m.status, at: Date.now() - t0 });
    });
    invite();
    return placed;
  }
}
