import { RATE } from './wav';

/** Sine tones at 8 kHz: the default prompts and the default music on hold (no file needed). */
export function tone(freqs: number[], ms: number, amplitude = 6000): Int16Array {
  const n = Math.round((RATE * ms) / 1000);
  const out = new Int16Array(n);
  const fade = Math.min(80, n / 4);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (const f of freqs) v += Math.sin((2 * Math.PI * f * i) / RATE);
    const env = Math.min(1, i / fade, (n - 1 - i) / fade);
    out[i] = Math.round((v / freqs.length) * amplitude * env);
  }
  return out;
}

export const silence = (ms: number) => new Int16Array(Math.round((RATE * ms) / 1000));

export function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** A soft arpeggio, looped while a queue caller waits and no class of music was uploaded. */
export const DEFAULT_MOH = concat([523.25, 659.25, 783.99, 659.25, 587.33, 698.46, 880, 698.46].map((f) => concat([tone([f, f / 2], 420, 4500), silence(60)])));
/** Two soft beeps: "please choose" when an IVR has no greeting. */
export const DEFAULT_PROMPT = concat([tone([440], 250), silence(150), tone([554.37], 250), silence(300)]);
/** Ringback as callers in Vietnam hear it (425 Hz, 1 s on, 4 s off) while the next destination rings. */
export const RINGBACK = concat([tone([425], 1000, 5000), silence(4000)]);
/** A low double tone: "that choice does not exist". */
export const INVALID_TONE = concat([tone([330], 200), silence(100), tone([262], 300), silence(300)]);

/** The beep after a mailbox's greeting: record from here (1 kHz, half a second). */
export const BEEP = concat([silence(200), tone([1000], 500, 7000), silence(100)]);
/** After a message: a falling two-tone goodbye. */
export const GOODBYE = concat([tone([660], 200), silence(80), tone([440], 300), silence(200)]);

/** Goertzel power of `hz` in 8 kHz samples: how much of that pitch a stretch of audio holds. */
export function tonePower(x: Int16Array, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / 8000);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < x.length; i++) {
    const s0 = x[i] + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}
