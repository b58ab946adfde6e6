import { encodeUlaw } from '../rtp/g711';
import { PT_PCMU } from '../rtp/session';
import { decodeMp3Channels, looksLikeMp3 } from './mp3';
import { CallRecorder } from './recorder';
import { tone, tonePower } from './tones';

/** RMS of a channel between two times (seconds). */
const rms = (x: Float32Array, rate: number, from: number, to: number) => {
  const s = x.subarray(Math.floor(from * rate), Math.floor(to * rate));
  return Math.sqrt(s.reduce((a, v) => a + v * v, 0) / s.length);
};

describe('CallRecorder', () => {
  it('puts the caller on the left and the other party on the right, each at the time they spoke', async () => {
    let now = 0;
    const rec = new CallRecorder(() => now);
    const a = tone([440], 1000, 8000);
    const b = tone([880], 1000, 8000);
    // 0–1 s the caller speaks, 1–2 s silence from both (no packets: suppression), 2–3 s the other party.
    for (let i = 0; i < 50; i++) {
      now = (i + 1) * 20;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), 1000 + i * 160, 11);
    }
    for (let i = 0; i < 50; i++) {
      now = 2000 + (i + 1) * 20;
      rec.packet(1, PT_PCMU, encodeUlaw(b.subarray(i * 160, (i + 1) * 160)), 5 + i * 160, 22);
    }
    now = 3000;
    const { mp3, seconds } = await rec.finish();
    expect(seconds).toBeCloseTo(3, 1);
    expect(looksLikeMp3(mp3)).toBe(true);
    const { channels, sampleRate } = await decodeMp3Channels(mp3);
    expect(channels).toHaveLength(2);
    expect(sampleRate).toBe(8000);
    // The encoder's delay is a few ms: compare the middle of each second.
    const [left, right] = channels;
    expect(rms(left, sampleRate, 0.2, 0.8)).toBeGreaterThan(0.1);
    expect(rms(right, sampleRate, 0.2, 0.8)).toBeLessThan(0.01);
    expect(rms(left, sampleRate, 1.2, 1.8)).toBeLessThan(0.01);
    expect(rms(right, sampleRate, 1.2, 1.8)).toBeLessThan(0.01);
    expect(rms(right, sampleRate, 2.2, 2.8)).toBeGreaterThan(0.1);
    expect(rms(left, sampleRate, 2.2, 2.8)).toBeLessThan(0.01);
  });

  it('puts a supervisor barging in mid-call in both channels, from when they spoke', async () => {
    let now = 0;
    const rec = new CallRecorder(() => now);
    const a = tone([440], 3000, 8000);
    const sup = tone([2000], 1000, 8000);
    // The caller speaks 3 s; from 1.5 s the encoder has taken the first second (the timer's work, done here by
    // the clock); a supervisor barges in at 2 s for 1 s.
    for (let i = 0; i < 150; i++) {
      now = (i + 1) * 20;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), i * 160, 11);
      if (i >= 100) rec.packet('joined', PT_PCMU, encodeUlaw(sup.subarray((i - 100) * 160, (i - 99) * 160)), 777 + (i - 100) * 160, 33);
      if (i === 75) (rec as unknown as { encode(final: boolean): void }).encode(false);
    }
    now = 3000;
    const { channels, sampleRate } = await decodeMp3Channels((await rec.finish()).mp3);
    const [left, right] = channels;
    const band = (x: Float32Array, from: number, to: number) => Int16Array.from(x.subarray(Math.floor(from * sampleRate), Math.floor(to * sampleRate)), (v) => Math.round(v * 32767));
    // Before the barge: no 2 kHz anywhere; during it: 2 kHz on both sides, the caller still on the left.
    expect(rms(right, sampleRate, 0.2, 1.8)).toBeLessThan(0.01);
    expect(rms(right, sampleRate, 2.2, 2.8)).toBeGreaterThan(0.1);
    expect(tonePower(band(right, 2.2, 2.8), 2000)).toBeGreaterThan(100 * tonePower(band(right, 2.2, 2.8), 440));
    expect(tonePower(band(left, 2.2, 2.8), 2000)).toBeGreaterThan(0.1 * tonePower(band(left, 2.2, 2.8), 440));
    expect(tonePower(band(left, 0.2, 1.8), 2000)).toBeLessThan(0.001 * tonePower(band(left, 0.2, 1.8), 440));
  });

  it('places packets by their RTP timestamps: held back by the network, then delivered at once, they stay where they were spoken', async () => {
    let now = 0;
    const rec = new CallRecorder(() => now);
    const a = tone([440], 2000, 8000);
    // 100 packets of 20 ms, delivered in bursts of 10 every 200 ms (all of a burst at the same instant).
    for (let i = 0; i < 100; i++) {
      now = Math.floor(i / 10) * 200 + 200;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), i * 160, 7);
    }
    now = 2000;
    const { seconds } = await rec.finish();
    // The first packet is placed where it arrived (180 ms late), the rest follow it by their
    // timestamps: 2.18 s. Arrival-time placement would push every burst 180 ms later: 3.8 s in all.
    expect(seconds).toBeGreaterThan(1.95);
    expect(seconds).toBeLessThan(2.25);
  });

  it('records silence while paused, keeping the timeline', async () => {
    let now = 0;
    const rec = new CallRecorder(() => now);
    const a = tone([440], 2000, 8000);
    for (let i = 0; i < 100; i++) {
      rec.paused = i >= 50;
      now = (i + 1) * 20;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), 1000 + i * 160, 11);
    }
    const { mp3, seconds } = await rec.finish();
    expect(seconds).toBeCloseTo(2, 1);
    const { channels, sampleRate } = await decodeMp3Channels(mp3);
    expect(rms(channels[0], sampleRate, 0.2, 0.8)).toBeGreaterThan(0.1);
    expect(rms(channels[0], sampleRate, 1.2, 1.8)).toBeLessThan(0.01);
  });
});
