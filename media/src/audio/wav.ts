/**
 * Uploaded greetings to 8 kHz mono samples. WAV (PCM 8/16/24/32-bit, IEEE float, µ-law, any rate
 * and channel count) is decoded here; MP3 in mp3.ts.
 */
import { ulawToLinear } from '../rtp/g711';

export const RATE = 8000;

export class UnsupportedAudio extends Error {}

interface Format {
  tag: number;
  channels: number;
  rate: number;
  bits: number;
}

/** 8 kHz 16-bit mono PCM as a WAV file (a voicemail message as the worker records it). */
export function encodeWav(pcm: Int16Array): Buffer {
  const data = pcm.length * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(RATE, 24);
  out.writeUInt32LE(RATE * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(data, 40);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i], 44 + i * 2);
  return out;
}

export function decodeWav(buf: Buffer): Int16Array {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new UnsupportedAudio('not a WAV file');
  let fmt: Format | null = null;
  let data: Buffer | null = null;
  for (let off = 12; off + 8 <= buf.length; ) {
    const id = buf.toString('ascii', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    const body = buf.subarray(off + 8, Math.min(buf.length, off + 8 + size));
    if (id === 'fmt ') {
      let tag = body.readUInt16LE(0);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (tag === 0xfffe && body.length >= 26) tag = body.readUInt16LE(24);
      fmt = { tag, channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    } else if (id === 'data') {
      data = body;
    }
    off += 8 + size + (size & 1);
  }
  if (!fmt || !data) throw new UnsupportedAudio('WAV without fmt or data');
  return resample(toMono(data, fmt), fmt.rate, RATE);
}

function sampleAt(data: Buffer, i: number, f: Format): number {
  if (f.tag === 7) return ulawToLinear(data[i]);
  if (f.tag === 3 && f.bits === 32) return data.readFloatLE(i * 4) * 32767;
  if (f.tag !== 1) throw new UnsupportedAudio(`WAV format ${f.tag}`);
  switch (f.bits) {
    case 8: return (data[i] - 128) << 8;
    case 16: return data.readInt16LE(i * 2);
    case 24: return data.readIntLE(i * 3, 3) >> 8;
    case 32: return data.readInt32LE(i * 4) >> 16;
    default: throw new UnsupportedAudio(`${f.bits}-bit WAV`);
  }
}

function toMono(data: Buffer, f: Format): Float32Array {
  const bytes = f.tag === 7 ? 1 : f.bits / 8;
  const frames = Math.floor(data.length / (bytes * f.channels));
  const out = new Float32Array(frames);
  for (let n = 0; n < frames; n++) {
    let sum = 0;
    for (let c = 0; c < f.channels; c++) sum += sampleAt(data, n * f.channels + c, f);
    out[n] = sum / f.channels;
  }
  return out;
}

/** Linear interpolation, with a moving average first when going down (a crude anti-alias filter). */
export function resample(input: Float32Array, from: number, to: number): Int16Array {
  let src = input;
  if (from > to) {
    const w = Math.max(1, Math.round(from / to));
    src = new Float32Array(input.length);
    let acc = 0;
    for (let i = 0; i < input.length; i++) {
      acc += input[i] - (i >= w ? input[i - w] : 0);
      src[i] = acc / Math.min(i + 1, w);
    }
  }
  const n = Math.floor((src.length * to) / from);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const x = (i * from) / to;
    const i0 = Math.floor(x);
    const a = src[i0] ?? 0;
    const b = src[i0 + 1] ?? a;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(a + (b - a) * (x - i0))));
  }
  return out;
}
