import { createSocket, type Socket } from 'node:dgram';
import { cseq, header, headerList, param, parseMessage, randomToken, serialize, type SipRequest, type SipResponse } from './message';

export interface Remote {
  address: string;
  port: number;
}

const T1 = 500;
const T2 = 4000;

interface ClientTx {
  request: SipRequest;
  to: Remote;
  timer: NodeJS.Timeout | null;
  interval: number;
  deadline: number;
  onResponse: (r: SipResponse) => void;
  onTimeout: () => void;
  gotProvisional: boolean;
}

interface ServerInvite {
  last: SipResponse | null;
  to: Remote;
  /** Its top Via branch: a retransmission has the same; a new INVITE with the same Call-ID and CSeq does not. */
  branch?: string;
  /** 2xx retransmission until the ACK comes (the transaction layer does not do it for 2xx). */
  timer: NodeJS.Timeout | null;
}

/**
 * SIP over UDP with the parts of the transaction layer a B2BUA on a LAN needs: requests are
 * retransmitted with T1 backoff until answered, a retransmitted request gets the last response
 * again, a 2xx to an INVITE is repeated until its ACK, a final non-2xx to our INVITE is ACKed.
 */
export class SipEndpoint {
  private readonly socket: Socket;
  private readonly clients = new Map<string, ClientTx>();
  private readonly invites = new Map<string, ServerInvite>();
  private readonly nonInvite = new Map<string, SipResponse>();
  onRequest: (req: SipRequest, from: Remote) => void = () => undefined;

  private constructor(
    socket: Socket,
    /** The address peers reach us at (Via, Contact, SDP). */
    readonly address: string,
    /** The address sockets bind to (0.0.0.0 in a container). */
    readonly bindAddress: string,
  ) {
    this.socket = socket;
    socket.on('message', (buf, rinfo) => this.receive(buf.toString(), { address: rinfo.address, port: rinfo.port }));
  }

  static async listen(bindAddress: string, port: number, announce = bindAddress): Promise<SipEndpoint> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, bindAddress, () => resolve());
    });
    return new SipEndpoint(socket, announce, bindAddress);
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** A Via for a new client transaction from this endpoint. */
  via(): string {
    return `SIP/2.0/UDP ${this.address}:${this.port};branch=z9hG4bK${randomToken(16)};rport`;
  }

  private write(text: string, to: Remote): void {
    this.socket.send(text, to.port, to.address);
  }

  private receive(raw: string, from: Remote): void {
    if (!raw.trim()) return; // keepalive CRLF
    const m = parseMessage(raw);
    if (!m) return;
    if (m.kind === 'response') return this.onResponse(m);
    const branch = param(headerList(m, 'via')[0] ?? '', 'branch') ?? '';
    if (m.method === 'ACK') {
      const tx = this.invites.get(`${header(m, 'call-id')}|${cseq(m).seq}`);
      if (tx?.timer) {
        clearTimeout(tx.timer);
        tx.timer = null;
      }
      return this.onRequest(m, from);
    }
    if (m.method === 'INVITE') {
      const key = `${header(m, 'call-id')}|${cseq(m).seq}`;
      const tx = this.invites.get(key);
      // A retransmission (same branch, RFC 3261 §17.2.3) gets the last response again. A new branch
      // with the same Call-ID and CSeq is a new request: a proxy answering our digest challenge on
      // the caller's behalf (Kamailio's uac_auth) resends the INVITE without incrementing CSeq.
      if (tx && (tx.branch === undefined || tx.branch === branch)) {
        if (tx.last) this.write(serialize(tx.last), tx.to);
        return;
      }
      if (tx?.timer) clearTimeout(tx.timer);
      this.invites.set(key, { last: null, to: responseTarget(m, from), timer: null, branch });
      setTimeout(() => this.invites.delete(key), 64 * T1 + 5 * 60_000).unref();
    } else {
      const again = this.nonInvite.get(`${branch}|${m.method}`);
      if (again) return this.write(serialize(again), responseTarget(m, from));
    }
    this.onRequest(m, from);
  }

  /** Answers a request (to its top Via, as RFC 3261 §18.2.2 / RFC 3581 say). */
  respond(req: SipRequest, from: Remote, status: number, reason: string, extra: [string, string][] = [], body = ''): SipResponse {
    const res = response(req, status, reason, extra, body);
    const to = responseTarget(req, from);
    this.write(serialize(res), to);
    if (req.method === 'INVITE') {
      const key = `${header(req, 'call-id')}|${cseq(req).seq}`;
      const tx = this.invites.get(key) ?? { last: null, to, timer: null };
      tx.last = res;
      this.invites.set(key, tx);
      if (status >= 200 && status < 300) {
        let interval = T1;
        const started = Date.now();
        const again = () => {
          if (Date.now() - started > 64 * T1) return;
          this.write(serialize(res), to);
          interval = Math.min(interval * 2, T2);
          tx.timer = setTimeout(again, interval);
        };
        tx.timer = setTimeout(again, interval);
      }
    } else if (status >= 200) {
      const key = `${param(headerList(req, 'via')[0] ?? '', 'branch')}|${req.method}`;
      this.nonInvite.set(key, res);
      setTimeout(() => this.nonInvite.delete(key), 64 * T1).unref();
    }
    return res;
  }

  /** Sends a request in a new client transaction; ACK is sent once, without a transaction. */
  send(req: SipRequest, to: Remote, handlers: { onResponse?: (r: SipResponse) => void; onTimeout?: () => void } = {}): void {
    const text = serialize(req);
    this.write(text, to);
    if (req.method === 'ACK') return;
    const branch = param(headerList(req, 'via')[0] ?? '', 'branch') ?? '';
    const tx: ClientTx = {
      request: req,
      to,
      timer: null,
      interval: T1,
      deadline: Date.now() + 64 * T1,
      onResponse: handlers.onResponse ?? (() => undefined),
      onTimeout: handlers.onTimeout ?? (() => undefined),
      gotProvisional: false,
    };
    this.clients.set(branch, tx);
    const again = () => {
      if (Date.now() > tx.deadline) {
        this.clients.delete(branch);
        tx.onTimeout();
        return;
      }
      if (!(req.method === 'INVITE' && tx.gotProvisional)) this.write(text, to);
      tx.interval = req.method === 'INVITE' ? tx.interval * 2 : Math.min(tx.interval * 2, T2);
      tx.timer = setTimeout(again, tx.interval);
    };
    tx.timer = setTimeout(again, tx.interval);
  }

  private onResponse(res: SipResponse): void {
    const branch = param(headerList(res, 'via')[0] ?? '', 'branch') ?? '';
    const tx = this.clients.get(branch);
    if (!tx) return;
    const { method } = cseq(res);
    if (res.status < 200) {
      tx.gotProvisional = true;
      // An INVITE that got a provisional answer waits as long as the far end rings (max 10 min).
      if (method === 'INVITE') tx.deadline = Date.now() + 10 * 60_000;
      tx.onResponse(res);
      return;
    }
    if (tx.timer) clearTimeout(tx.timer);
    // Retransmitted finals reach nobody twice (the dialog layer ACKs 2xx retransmissions itself).
    this.clients.delete(branch);
    if (method === 'INVITE' && res.status >= 300) this.ackFailure(tx, res);
    tx.onResponse(res);
    if (method === 'INVITE' && res.status < 300) {
      // Keep the branch for a while: a retransmitted 2xx must be ACKed again by the dialog.
      this.clients.set(branch, { ...tx, timer: null, onResponse: tx.onResponse, deadline: Date.now() + 32_000 });
      setTimeout(() => this.clients.get(branch) === undefined || this.clients.delete(branch), 32_000).unref();
    }
  }

  /** ACK of a final failure: same branch, hop by hop (RFC 3261 §17.1.1.3). */
  private ackFailure(tx: ClientTx, res: SipResponse): void {
    this.write(serialize(hopRequest('ACK', tx.request, header(res, 'to')!)), tx.to);
  }

  /** Cancels a pending INVITE of ours (RFC 3261 §9.1). */
  cancel(invite: SipRequest, to: Remote): void {
    this.send(hopRequest('CANCEL', invite, header(invite, 'to')!), to);
  }

  close(): void {
    for (const tx of this.clients.values()) if (tx.timer) clearTimeout(tx.timer);
    for (const tx of this.invites.values()) if (tx.timer) clearTimeout(tx.timer);
    this.clients.clear();
    this.socket.close();
  }
}

/** Where a response goes: the top Via's sent-by, or received/rport when the request says so. */
function responseTarget(req: SipRequest, from: Remote): Remote {
  const via = headerList(req, 'via')[0] ?? '';
  const m = /^SIP\/2\.0\/UDP\s+([^;:\s]+)(?::(\d+))?/i.exec(via);
  const rport = param(via, 'rport');
  const received = param(via, 'received');
  return {
    address: received || (rport !== undefined ? from.address : m?.[1] ?? from.address),
    port: rport ? Number(rport) : rport === '' ? from.port : m?.[2] ? Number(m[2]) : 5060,
  };
}

/** ACK or CANCEL of our INVITE: its Via (branch), Route, From, Call-ID and CSeq number. */
function hopRequest(method: 'ACK' | 'CANCEL', invite: SipRequest, to: string): SipRequest {
  return {
    kind: 'request',
    method,
    uri: invite.uri,
    headers: [
      ['via', headerList(invite, 'via')[0]],
      ...invite.headers.filter(([n]) => n === 'route'),
      ['from', header(invite, 'from')!],
      ['to', to],
      ['call-id', header(invite, 'call-id')!],
      ['cseq', `${cseq(invite).seq} ${method}`],
      ['max-forwards', '70'],
    ],
    body: '',
  };
}

/** A response to `req`: Via, From, To (with a tag when we create one), Call-ID, CSeq copied. */
export function response(req: SipRequest, status: number, reason: string, extra: [string, string][] = [], body = ''): SipResponse {
  const copy = req.headers.filter(([n]) => n === 'via' || n === 'from' || n === 'call-id' || n === 'cseq' || (status > 100 && status < 300 && n === 'record-route'));
  let to = header(req, 'to') ?? '';
  const tag = extra.find(([n]) => n === 'x-to-tag');
  if (tag && param(to, 'tag') === undefined) to = `${to};tag=${tag[1]}`;
  return {
    kind: 'response',
    status,
    reason,
    headers: [...copy.filter(([n]) => n !== 'cseq' && n !== 'call-id'), ['to', to], ['call-id', header(req, 'call-id')!], ['cseq', header(req, 'cseq')!], ...extra.filter(([n]) => n !== 'x-to-tag')],
    body,
  };
}
