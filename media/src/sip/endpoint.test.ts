import { createSocket, type Socket } from 'node:dgram';
import { SipEndpoint } from './endpoint';

/** An INVITE with its Via branch and CSeq number (a proxy's resend after a digest challenge keeps the CSeq). */
const invite = (me: number, branch: string, seq: number) =>
  [
    'INVITE sip:0911000111@127.0.0.1 SIP/2.0',
    `Via: SIP/2.0/UDP 127.0.0.1:${me};branch=z9hG4bK${branch};rport`,
    'Max-Forwards: 70',
    'From: <sip:84869000111@127.0.0.1>;tag=t1',
    'To: <sip:0911000111@127.0.0.1>',
    'Call-ID: endpoint-test-1',
    `CSeq: ${seq} INVITE`,
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');

describe('SipEndpoint: INVITE server transactions', () => {
  let ep: SipEndpoint;
  let sock: Socket;
  const seen: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    ep = await SipEndpoint.listen('127.0.0.1', 0);
    ep.onRequest = (req, from) => {
      seen.push(req.method);
      ep.respond(req, from, 407, 'Proxy Authentication Required', [['x-to-tag', 'abc']]);
    };
    sock = createSocket('udp4');
    sock.on('message', (b) => answers.push(b.toString().split('\r\n')[0]));
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
  });
  afterAll(() => {
    ep.close();
    sock.close();
  });

  const send = async (raw: string, answersExpected: number) => {
    sock.send(raw, ep.port, '127.0.0.1');
    const until = Date.now() + 2000;
    while (answers.length < answersExpected && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  };

  it('answers a retransmission (same branch) from the transaction, and a resend with a new branch but the same CSeq as a new request', async () => {
    const me = sock.address().port;
    await send(invite(me, 'first', 1), 1);
    expect(seen).toEqual(['INVITE']);
    // The same INVITE again: the last answer is repeated, the application does not see it twice.
    await send(invite(me, 'first', 1), 2);
    expect(seen).toEqual(['INVITE']);
    // Kamailio's uac_auth answers the challenge with a new branch and the same CSeq: a new request.
    await send(invite(me, 'second', 1), 3);
    expect(seen).toEqual(['INVITE', 'INVITE']);
    expect(answers).toEqual(Array(3).fill('SIP/2.0 407 Proxy Authentication Required'));
  });
});
