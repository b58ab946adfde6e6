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

/** Linear PCM → µ-law (G.711's definition, as above). */
export function toUlaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let s = Math.min(Math.abs(sample), 32635) + 0x84;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** RTP packets (PCMU) on a socket, with their arrival time and loudness. */
export class Ear {
  readonly packets: { at: number; rms: number; pcm: Int16Array }[] = [];
  /** Where the far end sends from (symmetric RTP: what the caller says goes back there). */
  private from: { address: string; port: number } | null = null;
  private constructor(readonly socket: Socket) {
    socket.on('message', (m, rinfo) => {
      this.from = { address: rinfo.address, port: rinfo.port };
      if (m.length <= 12 || (m[1] & 0x7f) !== 0) return;
      const payload = m.subarray(12 + (m[0] & 0x0f) * 4);
      const pcm = Int16Array.from(payload, (b) => ULAW[b]);
      let sum = 0;
      for (const v of pcm) sum += v ** 2;
      this.packets.push({ at: Date.now(), rms: Math.sqrt(sum / pcm.length), pcm });
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

  /**
   * Resolves once the far end has sent something and then nothing for `quietMs` (a prompt that
   * ended: a voicemail's beep before the recording), with the time of the last packet heard.
   */
  /** Resolves once the first packet has arrived (its time), or rejects after `timeoutMs`. */
  async untilSound(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!this.packets.length) {
      if (Date.now() > deadline) throw new Error(`nothing heard within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.packets[0].at;
  }

  async untilQuiet(quietMs: number, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = this.packets.at(-1)?.at;
      if (last !== undefined && Date.now() - last >= quietMs) return last;
      if (Date.now() > deadline) throw new Error(`no quiet after sound within ${timeoutMs} ms (${this.packets.length} packets)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Like untilQuiet, but a quiet that sound follows within `confirmMs` more was a gap inside the prompt (a
   * loaded machine delays packets by 700 ms and more), not its end: waits on for the next quiet. Resolves
   * with the time of the last packet before a quiet of `quietMs + confirmMs` (the worker now listens).
   */
  async untilPromptEnds(quietMs: number, confirmMs: number, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = await this.untilQuiet(quietMs, Math.max(1, deadline - Date.now()));
      const heard = this.packets.length;
      await new Promise((r) => setTimeout(r, confirmMs));
      if (this.packets.length === heard) return last;
      if (Date.now() > deadline) throw new Error(`no prompt's end within ${timeoutMs} ms (${this.packets.length} packets)`);
    }
  }

  /** Mean RMS of the packets heard between `from` and `to` (ms since the first packet). */
  loudness(from: number, to: number): { packets: number; rms: number } {
    const t0 = this.packets[0]?.at ?? 0;
    const w = this.packets.filter((p) => p.at - t0 >= from && p.at - t0 < to);
    return { packets: w.length, rms: w.length ? w.reduce((a, p) => a + p.rms, 0) / w.length : 0 };
  }

  /**
   * How strongly a `hz` tone is heard in the packets that arrived between two instants (Date.now()
   * ms): Goertzel's power of each packet (Hann window, so the neighbouring tones do not leak in),
   * averaged: about amplitude² / 16 for a pure tone, 0 when nothing came. Per packet, a gap or a
   * jump in the far end's stream costs only the packets it touches.
   */
  tone(hz: number, from: number, to: number): number {
    const heard = this.packets.filter((p) => p.at >= from && p.at < to);
    const coeff = 2 * Math.cos((2 * Math.PI * hz) / 8000);
    let total = 0;
    for (const { pcm } of heard) {
      let s1 = 0;
      let s2 = 0;
      const n = pcm.length;
      for (let i = 0; i < n; i++) {
        const s0 = pcm[i] * 0.5 * (1 - Math.cos((2 * Math.PI * i) / (n - 1))) + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
      }
      total += (s1 * s1 + s2 * s2 - coeff * s1 * s2) / (n * n);
    }
    return heard.length ? total / heard.length : 0;
  }

  /**
   * The caller speaks: a `hz` tone for `ms`, as PCMU RTP every 20 ms to where the far end sends
   * from (nothing is sent before it has sent something).
   */
  async speak(hz: number, ms: number, amplitude = 8000): Promise<number> {
    const ssrc = 0x5eed;
    let seq = 0;
    let sent = 0;
    for (let n = 0; n * 20 < ms; n++) {
      const to = this.from;
      if (this.closed) break;
      if (to) {
        const packet = Buffer.alloc(12 + 160);
        packet[0] = 0x80;
        packet[1] = 0;
        packet.writeUInt16BE(seq++ & 0xffff, 2);
        packet.writeUInt32BE(n * 160, 4);
        packet.writeUInt32BE(ssrc, 8);
        for (let i = 0; i < 160; i++) packet[12 + i] = toUlaw(Math.round(amplitude * Math.sin((2 * Math.PI * hz * (n * 160 + i)) / 8000)));
        this.socket.send(packet, to.port, to.address);
        sent++;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return sent;
  }

  /**
   * The caller presses a key: an RFC 4733 telephone-event (payload type `pt`, as the SDP offered it) sent
   * to where the far end sends from, every 20 ms for `ms`, then its end packet three times, as phones do.
   * Resolves false when the far end has sent nothing yet (nowhere to send it).
   */
  async key(digit: string, ms = 160, pt = 101): Promise<boolean> {
    const to = this.from;
    if (!to) return false;
    const event = '0123456789*#ABCD'.indexOf(digit.toUpperCase());
    if (event < 0) throw new Error(`not a DTMF key: ${digit}`);
    const ssrc = 0xd7f0;
    const timestamp = (Date.now() * 8) >>> 0;
    const packet = (seq: number, duration: number, end: boolean, marker: boolean) => {
      const b = Buffer.alloc(16);
      b[0] = 0x80;
      b[1] = (marker ? 0x80 : 0) | pt;
      b.writeUInt16BE((this.keySeq + seq) & 0xffff, 2);
      b.writeUInt32BE(timestamp, 4);
      b.writeUInt32BE(ssrc, 8);
      b[12] = event;
      b[13] = (end ? 0x80 : 0) | 10;
      b.writeUInt16BE(Math.min(0xffff, duration), 14);
      return b;
    };
    const steps = Math.max(1, Math.round(ms / 20));
    for (let n = 0; n < steps; n++) {
      this.socket.send(packet(n, (n + 1) * 160, false, n === 0), to.port, to.address);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (let n = 0; n < 3; n++) this.socket.send(packet(steps + n, steps * 160, true, false), to.port, to.address);
    this.keySeq += steps + 3;
    return true;
  }
  private keySeq = 0;

  /** Everything heard, as one stream of linear samples (packets in arrival order). */
  samples(): Int16Array {
    const out = new Int16Array(this.packets.reduce((n, p) => n + p.pcm.length, 0));
    let at = 0;
    for (const p of this.packets) {
      out.set(p.pcm, at);
      at += p.pcm.length;
    }
    return out;
  }

  private closed = false;

  close() {
    this.closed = true;
    this.socket.close();
  }
}

/** A `hz` tone as raw 8 kHz µ-law bytes (what sipp's rtp_stream sends as PCMU). */
export function toneUlaw(seconds: number, hz: number, amplitude = 8000): Buffer {
  const n = Math.round(seconds * 8000);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = toUlaw(Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 8000)));
  return out;
}

/** A clip as it arrives over PCMU: each sample through µ-law and back. */
export const throughUlaw = (clip: Int16Array): Int16Array => Int16Array.from(clip, (v) => ULAW[toUlaw(v)]);

/**
 * Which clips a heard stream is made of, in order (prompts a call says from prepared files: the
 * voice-OTP digits): silence skipped, and at each sound the clip (after µ-law) whose samples are
 * there, within `tolerance` of each sample's size (encoders round differently). Throws where no
 * clip fits, with the offset.
 */
export function heardClips(stream: Int16Array, clips: Readonly<Record<string, Int16Array>>, tolerance = 0.08): string[] {
  const coded = Object.entries(clips).map(([name, c]) => {
    const q = throughUlaw(c);
    return { name, q, lead: Math.max(0, q.findIndex((v) => Math.abs(v) >= 64)) };
  }).sort((a, b) => b.q.length - a.q.length);
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(64, Math.abs(b) * tolerance);
  const out: string[] = [];
  let i = 0;
  while (i < stream.length) {
    if (Math.abs(stream[i]) < 64) {
      i++;
      continue;
    }
    const hit = coded.find(({ q, lead }) => {
      const at = i - lead;
      if (at < 0 || at + q.length > stream.length) return false;
      for (let k = 0; k < q.length; k++) if (!near(stream[at + k], q[k])) return false;
      return true;
    });
    if (!hit) {
      const starts = coded.map(({ name, q, lead }) => `${name}: ${[...stream.subarray(i, i + 6)]} vs ${[...q.subarray(lead, lead + 6)]}`).slice(0, 3);
      throw new Error(`no clip at sample ${i} (${out.join(' ')} so far; ${starts.join('; ')})`);
    }
    out.push(hit.name);
    i = i - hit.lead + hit.q.length;
  }
  return out;
}
