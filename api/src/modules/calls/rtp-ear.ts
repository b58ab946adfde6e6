import { createSocket, type Socket } from 'node:dgram';

/**
 * What a test caller hears, for call tests (Jest and Playwright): its SDP points at an Ear's
 * socket instead of sipp's, and the Ear measures the PCMU it receives. No worker code is reused
 * here on purpose: the decoding is written once more, from the G.711 definition.
 */

/** An 8 kHz 16-bit WAV of a tone (default 1 s of 600 Hz at about -9 dBFS): a greeting as an admin uploads it. */
export function toneWav(seconds = 1, freq = 600, amplitude = 12000): Buffer {
  const n = 8000 * seconds;
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / 8000)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

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
