import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { digestHeader } from './sip-client';

/**
 * REGISTERs <user>@<domain> with digest auth and binds it to another process's address (a sipp
 * phone on 127.0.0.1:contactPort): sipp answers calls, this does the authentication. Resolves
 * with the final status (200 when bound).
 */
export async function registerContact(o: { proxyPort: number; user: string; domain: string; password: string; contactPort: number; expires?: number }): Promise<number> {
  const sock = createSocket('udp4');
  await new Promise<void>((resolve) => sock.bind(0, '127.0.0.1', resolve));
  const port = sock.address().port;
  const callId = `${randomBytes(6).toString('hex')}@tongdai-test`;
  const aor = `sip:${o.user}@${o.domain}`;
  const uri = `sip:${o.domain}`;
  const send = (cseq: number, auth?: string) =>
    new Promise<{ status: number; challenge: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to REGISTER ${aor}`)), 3000);
      const onMessage = (buf: Buffer) => {
        const raw = buf.toString();
        const status = Number(/^SIP\/2\.0 (\d{3})/.exec(raw)?.[1] ?? 0);
        if (status < 200) return;
        clearTimeout(timer);
        sock.off('message', onMessage);
        resolve({ status, challenge: /^WWW-Authenticate:\s*(.*)$/im.exec(raw)?.[1] ?? '' });
      };
      sock.on('message', onMessage);
      const lines = [
        `REGISTER ${uri} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
        'Max-Forwards: 70',
        `From: <${aor}>;tag=${randomBytes(4).toString('hex')}`,
        `To: <${aor}>`,
        `Call-ID: ${callId}`,
        `CSeq: ${cseq} REGISTER`,
        `Contact: <sip:${o.user}@127.0.0.1:${o.contactPort}>`,
        `Expires: ${o.expires ?? 60}`,
        ...(auth ? [`Authorization: ${auth}`] : []),
        'Content-Length: 0',
        '',
        '',
      ];
      sock.send(lines.join('\r\n'), o.proxyPort, '127.0.0.1');
    });
  try {
    const first = await send(1);
    if (first.status !== 401) return first.status;
    const auth = digestHeader({ method: 'REGISTER', uri, user: o.user, password: o.password, challenge: first.challenge });
    return (await send(2, auth)).status;
  } finally {
    sock.close();
  }
}
