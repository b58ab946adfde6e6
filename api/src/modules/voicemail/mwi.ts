import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { sipDomain } from '@tongdai/contracts';

/**
 * Message waiting (issue 16, RFC 3842): after a mailbox changes, an unsolicited NOTIFY (Event:
 * message-summary) to the extension's phones, so a desk phone lights its lamp and shows "2 new".
 * The API sends it over UDP to Kamailio (KAMAILIO_SIP, "host:port"), which forwards it to every
 * registered contact of the extension; Kamailio accepts it only with the internal secret in
 * X-Tongdai-Internal, as the API's internal listener does (ADR 0019). Without KAMAILIO_SIP (an API
 * with no call plane) nothing is sent. A group's shared box has no phone of its own: not notified.
 */
export interface MailboxCounts {
  unheard: number;
  heard: number;
}

/** The NOTIFY's text (CRLF lines), to `extension` of the tenant `maDn`. */
export function mwiNotify(o: { maDn: string; extension: string; counts: MailboxCounts; via: string; secret: string }): string {
  const aor = `sip:${o.extension}@${sipDomain(o.maDn)}`;
  const body = [`Messages-Waiting: ${o.counts.unheard > 0 ? 'yes' : 'no'}`, `Message-Account: ${aor}`, `Voice-Message: ${o.counts.unheard}/${o.counts.heard} (0/0)`, ''].join('\r\n');
  return [
    `NOTIFY ${aor} SIP/2.0`,
    `Via: SIP/2.0/UDP ${o.via};branch=z9hG4bK${randomBytes(8).toString('hex')};rport`,
    'Max-Forwards: 70',
    `From: <${aor}>;tag=${randomBytes(6).toString('hex')}`,
    `To: <${aor}>`,
    `Call-ID: ${randomBytes(12).toString('hex')}@tongdai-api`,
    'CSeq: 1 NOTIFY',
    'Event: message-summary',
    'Subscription-State: active',
    `X-Tongdai-Internal: ${o.secret}`,
    'Content-Type: application/simple-message-summary',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

const kamailio = (): { host: string; port: number } | null => {
  const m = /^([^:\s]+):(\d{1,5})$/.exec(process.env.KAMAILIO_SIP ?? '');
  return m ? { host: m[1], port: Number(m[2]) } : null;
};

/** Sends the NOTIFY (fire and forget: a phone without MWI, or none registered, changes nothing). */
export function sendMwi(maDn: string, extension: string, counts: MailboxCounts): Promise<void> {
  const to = kamailio();
  const secret = process.env.INTERNAL_SECRET ?? '';
  if (!to || secret.length < 32 || !/^\d{2,6}$/.test(extension)) return Promise.resolve();
  const socket = createSocket('udp4');
  return new Promise<void>((resolve) => {
    const done = () => {
      socket.close();
      resolve();
    };
    socket.once('error', done);
    socket.bind(0, () => {
      const { address, port } = socket.address();
      const text = mwiNotify({ maDn, extension, counts, via: `${address === '0.0.0.0' ? '127.0.0.1' : address}:${port}`, secret });
      socket.send(text, to.port, to.host, () => done());
    });
  });
}
