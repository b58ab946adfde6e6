/**
 * G.711 µ-law (PCMU, RTP payload type 0): what every carrier and browser accepts, no transcoding.
 * A-law (PCMA, payload type 8) too: what many carrier trunks offer first.
 */

const BIAS = 0x84;
const CLIP = 32635;

export function linearToUlaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const t = (((u & 0x0f) << 3) + BIAS) << ((u & 0x70) >> 4);
  return u & 0x80 ? BIAS - t : t - BIAS;
}

const DECODE = Int16Array.from({ length: 256 }, (_, i) => ulawToLinear(i));

export function encodeUlaw(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = linearToUlaw(pcm[i]);
  return out;
}

export function decodeUlaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i]];
  return out;
}

/** Root mean square of µ-law samples, in linear units (0 = silence, ~23 000 = a full-scale sine). */
export function ulawRms(bytes: Uint8Array): number {
  if (!bytes.length) return 0;
  let sum = 0;
  for (let i = 0; i < bytes.length; i++) sum += DECODE[bytes[i]] ** 2;
  return Math.sqrt(sum / bytes.length);
}

const ALAW_SEGMENT_ENDS = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

/** G.711 A-law of one linear sample (ITU-T G.711: 13-bit magnitude, segment, even bits inverted). */
export function linearToAlaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample))) >> 3;
  const mask = s >= 0 ? 0xd5 : 0x55;
  if (s < 0) s = -s - 1;
  const seg = ALAW_SEGMENT_ENDS.findIndex((end) => s <= end);
  if (seg < 0) return 0x7f ^ mask;
  return ((seg << 4) | ((seg < 2 ? s >> 1 : s >> seg) & 0x0f)) ^ mask;
}

export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a & 0x70) >> 4;
  let t = ((a & 0x0f) << 4) + 8;
  if (exponent) t = (t + 0x100) << (exponent - 1);
  return a & 0x80 ? t : -t;
}

export function encodeAlaw(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = linearToAlaw(pcm[i]);
  return out;
}

export function decodeAlaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = alawToLinear(bytes[i]);
  return out;
}
