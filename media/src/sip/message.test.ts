import { header, headerList, hostPort, param, parseMessage, serialize, uriOf, userOf } from './message';
import { buildSdp, parseSdp } from './sdp';
import { response } from './endpoint';

const INVITE = [
  'INVITE sip:02873000001@127.0.0.1:5060 SIP/2.0',
  'Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKabc;rport=5060, SIP/2.0/UDP 10.0.0.9:5080;branch=z9hG4bKcarrier',
  'Record-Route: <sip:127.0.0.1:5060;r2=on;lr>,<sip:127.0.0.1:8088;transport=ws;r2=on;lr>',
  'f: "Khách" <sip:0901000001@carrier.example>;tag=a1',
  'To: <sip:02873000001@127.0.0.1>',
  'i: call-1@carrier',
  'CSeq: 7 INVITE',
  'Contact: <sip:0901000001@10.0.0.9:5080>',
  'X-Tongdai-Step: 2',
  'Content-Type: application/sdp',
  'Content-Length: 999',
  '',
  'v=0\r\no=- 1 1 IN IP4 10.0.0.9\r\ns=-\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 40000 RTP/AVP 8 0 101\r\na=rtpmap:101 telephone-event/8000\r\n',
].join('\r\n');

describe('SIP messages', () => {
  it('parses compact and folded headers, lists, URIs and parameters', () => {
    const m = parseMessage(INVITE)!;
    expect(m.kind).toBe('request');
    expect(header(m, 'from')).toBe('"Khách" <sip:0901000001@carrier.example>;tag=a1');
    expect(header(m, 'call-id')).toBe('call-1@carrier');
    expect(header(m, 'X-Tongdai-Step')).toBe('2');
    expect(headerList(m, 'via')).toHaveLength(2);
    expect(headerList(m, 'record-route')).toEqual(['<sip:127.0.0.1:5060;r2=on;lr>', '<sip:127.0.0.1:8088;transport=ws;r2=on;lr>']);
    expect(param(header(m, 'from')!, 'tag')).toBe('a1');
    expect(param(headerList(m, 'via')[0], 'rport')).toBe('5060');
    expect(uriOf(header(m, 'contact')!)).toBe('sip:0901000001@10.0.0.9:5080');
    expect(hostPort('sip:02873000001@127.0.0.1:5060;transport=udp')).toEqual({ host: '127.0.0.1', port: 5060 });
    expect(hostPort('sip:carrier.example')).toEqual({ host: 'carrier.example', port: 5060 });
    expect(userOf('sip:c0ffee@127.0.0.1:5060')).toBe('c0ffee');
  });

  it('answers with the request\'s Via, From, Call-ID, CSeq, a To-tag and the Record-Route of a 2xx', () => {
    const req = parseMessage(INVITE)!;
    if (req.kind !== 'request') throw new Error('request expected');
    const ok = parseMessage(serialize(response(req, 200, 'OK', [['x-to-tag', 't9'], ['content-type', 'application/sdp']], 'v=0\r\n')))!;
    expect(ok.kind === 'response' && ok.status).toBe(200);
    expect(header(ok, 'to')).toBe('<sip:02873000001@127.0.0.1>;tag=t9');
    expect(headerList(ok, 'via')).toHaveLength(2);
    expect(headerList(ok, 'record-route')).toHaveLength(2);
    expect(header(ok, 'cseq')).toBe('7 INVITE');
    expect(header(ok, 'content-length')).toBe('5');
    const busy = parseMessage(serialize(response(req, 486, 'Busy Here')))!;
    expect(headerList(busy, 'record-route')).toHaveLength(0);
  });

  it('reads the audio of an offer and writes a PCMU answer with telephone-event', () => {
    const offer = parseSdp(parseMessage(INVITE)!.body)!;
    expect(offer).toEqual({ peer: { address: '10.0.0.9', port: 40000 }, pcmu: true, payloadTypes: [8, 0, 101], dtmf: 101 });
    const answer = buildSdp({ address: '127.0.0.1', port: 31000, dtmf: 101, sessionId: 5 });
    expect(parseSdp(answer)).toEqual({ peer: { address: '127.0.0.1', port: 31000 }, pcmu: true, payloadTypes: [0, 101], dtmf: 101 });
    expect(answer).toContain('m=audio 31000 RTP/AVP 0 101\r\n');
  });
});
