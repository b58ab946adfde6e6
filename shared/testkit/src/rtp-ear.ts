import { createSocket, type Socket } from 'node:dgram';

/**
 * What a test caller hears, for call tests (Jest and Playwright): its SDP points at an Ear's
 * socket instead of sipp's, and the Ear measures the PCMU it receives. No worker code is reused
 * here on purpose: the decoding is written once more, from the G.711 definition.
 */

const ULAW = Int16Array.from({ length: 256 }, (_, b) => {
  const u = ~b & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
});

/** RTP packets (PCMU) on a socket, with their arrival time and loudness. */
export class Ear {
  readonly packets: { at: number; rms: number }[] = [];
  private constructor(readonly socket: Socket) {
    socket.on('message', (m) => {
      if (m.length <= 12 || (m[1] & 0x7f) !== 0) return;
      const payload = m.subarray(12 + (m[0] & 0x0f) * 4);
      let sum = 0;
      for (const b of payload) sum += ULAW[b] ** 2;
      this.packets.push({ at: Date.now(), rms: Math.sqrt(sum / payload.length) });
    });
  }

  static async open(): Promise<Ear> {
    const s = createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
    return new Ear(s);
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** Mean RMS of the packets heard between `from` and `to` (ms since the first packet). */
  loudness(from: number, to: number): { packets: number; rms: number } {
    const t0 = this.packets[0]?.at ?? 0;
    const w = this.packets.filter((p) => p.at - t0 >= from && p.at - t0 < to);
    return { packets: w.length, rms: w.length ? w.reduce((a, p) => a + p.rms, 0) / w.length : 0 };
  }

  close() {
    this.socket.close();
  }
}
