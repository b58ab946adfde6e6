import { digitEvent, DtmfReceiver, infoDigit } from './dtmf';

describe('DTMF', () => {
  it('reports an RFC 4733 event once, however many packets carry it', () => {
    const r = new DtmfReceiver();
    const pkt = (event: number, end: boolean) => Uint8Array.from([event, end ? 0x8a : 0x0a, 0x01, 0x40]);
    expect(r.receive(pkt(1, false), 1000)).toBe('1');
    expect(r.receive(pkt(1, false), 1000)).toBeNull();
    expect(r.receive(pkt(1, true), 1000)).toBeNull();
    expect(r.receive(pkt(11, false), 2600)).toBe('#');
    expect(r.receive(pkt(10, false), 4200)).toBe('*');
    expect(digitEvent('#')).toBe(11);
  });

  it('reads SIP INFO bodies of both usual kinds', () => {
    expect(infoDigit('application/dtmf-relay', 'Signal=1\r\nDuration=160\r\n')).toBe('1');
    expect(infoDigit('Application/DTMF-Relay', 'Signal= #\r\n')).toBe('#');
    expect(infoDigit('application/dtmf', '5')).toBe('5');
    expect(infoDigit('application/dtmf', '11')).toBe('#');
    expect(infoDigit('text/plain', 'Signal=1')).toBeNull();
    expect(infoDigit('application/dtmf-relay', 'Duration=160')).toBeNull();
  });
});
