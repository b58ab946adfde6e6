import { createSocket, type Socket } from 'node:dgram';
import { RtpSession } from './session';

/** An RTP packet: version 2, `pt`, the marker bit, and a payload. */
const packet = (pt: number, payload: Buffer, marker = false) => {
  const head = Buffer.alloc(12);
  head[0] = 0x80;
  head[1] = (marker ? 0x80 : 0) | pt;
  head.writeUInt16BE(7, 2);
  head.writeUInt32BE(16000, 4);
  head.writeUInt32BE(0xabcdef01, 8);
  return Buffer.concat([head, payload]);
};
/** An RFC 4733 event: '#' (11), end bit as given, volume 10, duration 800. */
const hash = (end: boolean) => Buffer.from([11, (end ? 0x80 : 0) | 10, 0x03, 0x20]);

describe('a bridge of two RTP legs and the keys (RFC 4733)', () => {
  let a: RtpSession, b: RtpSession;
  let caller: Socket, callee: Socket;
  let heard: Buffer[];
  const send = (from: Socket, to: RtpSession, msg: Buffer) => from.send(msg, (to.socket.address() as { port: number }).port, '127.0.0.1');
  const settle = () => new Promise((r) => setTimeout(r, 100));

  beforeEach(async () => {
    [a, b] = await Promise.all([RtpSession.open('127.0.0.1'), RtpSession.open('127.0.0.1')]);
    [caller, callee] = [createSocket('udp4'), createSocket('udp4')];
    await Promise.all([caller, callee].map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
    heard = [];
    callee.on('message', (m) => heard.push(m));
    a.dtmfPayloadType = 101;
    a.bridge(b);
    // Each leg learns its peer from the peer's first packet (symmetric RTP).
    send(caller, a, packet(0, Buffer.alloc(160, 0xff)));
    send(callee, b, packet(0, Buffer.alloc(160, 0xff)));
    await settle();
    heard = [];
  });
  afterEach(() => {
    a.close();
    b.close();
    caller.close();
    callee.close();
  });

  it("passes a key on to a far side that takes telephone-event, under that side's payload type, and still hears it itself", async () => {
    b.dtmfPayloadType = 96;
    const digits: string[] = [];
    a.on('dtmf', (d) => digits.push(d));
    send(caller, a, packet(101, hash(false), true));
    send(caller, a, packet(101, hash(true)));
    await settle();
    expect(heard.map((m) => m[1] & 0x7f)).toEqual([96, 96]);
    expect(heard[0][1] & 0x80).toBe(0x80);
    expect(heard.map((m) => m.subarray(12))).toEqual([hash(false), hash(true)]);
    expect(digits).toEqual(['#']);
  });

  it('passes no key to a far side that did not offer telephone-event; audio goes on as before', async () => {
    send(caller, a, packet(101, hash(true), true));
    send(caller, a, packet(0, Buffer.alloc(160, 0x7f)));
    await settle();
    expect(heard.map((m) => m[1] & 0x7f)).toEqual([0]);
  });
});
