import type { Remote, SipEndpoint } from './endpoint';
import { cseq, header, headerList, hostPort, param, randomToken, uriOf, type SipRequest, type SipResponse } from './message';

/**
 * One dialog (RFC 3261 §12): tags, the remote target, the route set (Kamailio record-routes
 * every call) and our CSeq. In-dialog requests go to the first route (loose routing).
 */
export class Dialog {
  private localSeq: number;

  private constructor(
    private readonly ep: SipEndpoint,
    readonly callId: string,
    readonly local: string,
    readonly remote: string,
    readonly remoteTarget: string,
    readonly routeSet: string[],
    firstSeq: number,
  ) {
    this.localSeq = firstSeq;
  }

  /** As the called party: our To-tag, their Contact, the Record-Route as received. */
  static asUas(ep: SipEndpoint, invite: SipRequest, localTag: string): Dialog {
    const to = header(invite, 'to')!;
    return new Dialog(ep, header(invite, 'call-id')!, `${to};tag=${localTag}`, header(invite, 'from')!, uriOf(header(invite, 'contact') ?? header(invite, 'from')!), headerList(invite, 'record-route'), 1);
  }

  /** As the caller, from the 2xx: their To-tag, their Contact, the Record-Route reversed. */
  static asUac(ep: SipEndpoint, invite: SipRequest, ok: SipResponse): Dialog {
    return new Dialog(ep, header(invite, 'call-id')!, header(invite, 'from')!, header(ok, 'to')!, uriOf(header(ok, 'contact') ?? header(ok, 'to')!), headerList(ok, 'record-route').reverse(), cseq(invite).seq + 1);
  }

  get remoteTag(): string | undefined {
    return param(this.remote, 'tag');
  }

  /** Where in-dialog requests are sent: the first route, else the remote target. */
  destination(): Remote {
    const { host, port } = hostPort(uriOf(this.routeSet[0] ?? `<${this.remoteTarget}>`));
    return { address: host, port };
  }

  build(method: string, extra: [string, string][] = [], body = '', seq?: number): SipRequest {
    const n = seq ?? (method === 'ACK' ? this.localSeq - 1 : this.localSeq++);
    return {
      kind: 'request',
      method,
      uri: this.remoteTarget,
      headers: [
        ['via', this.ep.via()],
        ...this.routeSet.map((r): [string, string] => ['route', r]),
        ['from', this.local],
        ['to', this.remote],
        ['call-id', this.callId],
        ['cseq', `${n} ${method}`],
        ['max-forwards', '70'],
        ...extra,
      ],
      body,
    };
  }

  send(method: string, extra: [string, string][] = [], body = '', handlers: { onResponse?: (r: SipResponse) => void; onTimeout?: () => void } = {}): void {
    this.ep.send(this.build(method, extra, body), this.destination(), handlers);
  }

  /** ACK of our INVITE's 2xx (CSeq of the INVITE). */
  ack(inviteSeq: number, body = '', extra: [string, string][] = []): void {
    this.ep.send(this.build('ACK', extra, body, inviteSeq), this.destination());
  }
}

export const newTag = () => randomToken(12);
