import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeUlaw } from '../rtp/g711';
import { PT_PCMU } from '../rtp/session';
import { decodeMp3Channels } from './mp3';
import { CallRecorder } from './recorder';
import { encodeSpooled, RecordingSpool, spooledSeconds, type RecordingMeta } from './recording-spool';
import { tone } from './tones';

const until = async (what: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !what(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Loudness of a channel (0..32767) and its strongest frequency among `freqs` (Goertzel). */
function loudest(c: Float32Array, rate: number, freqs: number[]): { rms: number; freq: number } {
  const rms = Math.sqrt(c.reduce((a, v) => a + v * v, 0) / c.length) * 32767;
  const power = (f: number) => {
    const k = 2 * Math.cos((2 * Math.PI * f) / rate);
    let s1 = 0, s2 = 0;
    for (const x of c) [s1, s2] = [x + k * s1 - s2, s1];
    return s1 * s1 + s2 * s2 - k * s1 * s2;
  };
  return { rms, freq: freqs.reduce((a, f) => (power(f) > power(a) ? f : a)) };
}

describe('RecordingSpool (issue 41)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spool-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const meta: RecordingMeta = { callId: 'c-1@x', ticket: '1.2.t', startedAt: new Date('2026-11-25T10:00:00Z') };

  /** A recorder writing to `file`, fed `seconds` of a call (440 Hz from the caller, 1 kHz from the other side) on a clock of its own. */
  function talk(seconds: number, file?: string) {
    let now = 0;
    const rec = new CallRecorder(() => now, file);
    const a = tone([440], seconds * 1000, 8000);
    const b = tone([1000], seconds * 1000, 8000);
    for (let i = 0; i < seconds * 50; i++) {
      now = (i + 1) * 20;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), i * 160, 7);
      rec.packet(1, PT_PCMU, encodeUlaw(b.subarray(i * 160, (i + 1) * 160)), i * 160, 8);
    }
    // The clock goes on past the jitter held back: the recorder's next half-second takes it all.
    now += 400;
    return rec;
  }

  it('the spool holds the call\'s audio as it goes; the MP3 the call\'s end hands over is removed with it once the API stored it; a failed upload is tried again', async () => {
    const uploads: { seconds: number; bytes: number }[] = [];
    let fail = 2;
    const spool = new RecordingSpool(dir, async (r, mp3) => {
      if (fail-- > 0) throw new Error('fetch failed');
      uploads.push({ seconds: r.seconds, bytes: mp3.length });
    }, () => undefined, { firstMs: 20, maxMs: 40 });
    const entry = spool.open(meta)!;
    const rec = talk(3, entry.audioPath);
    // Within the recorder's half second, the audio so far is on disk, before the call ends.
    await until(() => (statSync(entry.audioPath, { throwIfNoEntry: false })?.size ?? 0) > 0, 2000);
    expect(spooledSeconds(statSync(entry.audioPath).size)).toBeGreaterThan(2.9);
    const { mp3, seconds } = await rec.finish();
    expect(readdirSync(dir).sort()).toEqual([entry.audioPath, entry.metaPath].map((p) => p.slice(dir.length + 1)).sort());
    expect(spooledSeconds(statSync(entry.audioPath).size)).toBeCloseTo(seconds, 2);
    spool.handOver(meta, entry, mp3, seconds);
    await until(() => uploads.length === 1);
    expect(uploads[0]).toEqual({ seconds, bytes: mp3.length });
    await until(() => readdirSync(dir).length === 0);
    spool.close();
  });

  it('a spool left by a killed process is encoded and handed over by the next one, as long as what reached the disk, each voice on its side; a refused one is set aside with its MP3', async () => {
    // What a process killed 2 s into a call left: its metadata and the audio so far (the recorder never finished).
    const first = new RecordingSpool(dir, async () => undefined, () => undefined);
    const left = first.open(meta)!;
    const refusedToo = first.open({ ...meta, callId: 'expired' })!;
    const scratch = join(dir, 'scratch.raw');
    const rec = talk(2, scratch);
    await until(() => (statSync(scratch, { throwIfNoEntry: false })?.size ?? 0) >= 2 * 8000 * 2, 2000);
    copyFileSync(scratch, left.audioPath);
    copyFileSync(scratch, refusedToo.audioPath);
    const onDisk = spooledSeconds(statSync(left.audioPath).size);
    expect(onDisk).toBeGreaterThanOrEqual(2);
    // A write cut in the middle of a sample by the kill: its odd byte is left out.
    appendFileSync(left.audioPath, Buffer.from([0xff]));
    await rec.finish();
    rmSync(scratch);
    const got: { callId: string; seconds: number; startedAt: Date; mp3: Buffer }[] = [];
    const next = new RecordingSpool(dir, async (r, file) => {
      if (r.callId === 'expired') throw Object.assign(new Error('HTTP 403'), { status: 403 });
      got.push({ callId: r.callId, seconds: r.seconds, startedAt: r.startedAt, mp3: file });
    }, () => undefined);
    expect(next.recover()).toBe(2);
    await until(() => got.length === 1 && !existsSync(left.audioPath) && readdirSync(dir).length === 1);
    expect(got[0]).toMatchObject({ callId: 'c-1@x', startedAt: meta.startedAt });
    expect(got[0].seconds).toBe(onDisk);
    const { channels, sampleRate } = await decodeMp3Channels(got[0].mp3);
    // The MP3 decoded: its frames and the encoder's delay add a little (under 0.3 s, as media-faults allows).
    expect(Math.abs(channels[0].length / sampleRate - onDisk)).toBeLessThan(0.3);
    const middle = (c: Float32Array) => c.subarray(Math.round(0.3 * sampleRate), Math.round(1.7 * sampleRate));
    expect(loudest(middle(channels[0]), sampleRate, [440, 1000])).toMatchObject({ freq: 440, rms: expect.any(Number) });
    expect(loudest(middle(channels[1]), sampleRate, [440, 1000]).freq).toBe(1000);
    expect(loudest(middle(channels[0]), sampleRate, [440]).rms).toBeGreaterThan(2000);
    // The refused one: its metadata and the MP3 it was refused with, the raw audio gone.
    expect(readdirSync(join(dir, 'refused')).sort()).toEqual([refusedToo.metaPath, refusedToo.metaPath.replace(/json$/, 'mp3')].map((p) => p.slice(dir.length + 1)).sort());
    expect(readdirSync(dir)).toEqual(['refused']);
  });

  it('an MP3 a worker of before this change spooled is handed over as it is', async () => {
    const rec = talk(1);
    const { mp3, seconds } = await rec.finish();
    const old = new RecordingSpool(dir, async () => undefined, () => undefined).open(meta)!;
    writeFileSync(old.metaPath.replace(/json$/, 'mp3'), mp3);
    const got: { seconds: number; mp3: Buffer }[] = [];
    const next = new RecordingSpool(dir, async (r, file) => void got.push({ seconds: r.seconds, mp3: file }), () => undefined);
    expect(next.recover()).toBe(1);
    await until(() => got.length === 1 && readdirSync(dir).length === 0);
    expect(got[0].mp3.equals(mp3)).toBe(true);
    expect(Math.abs(got[0].seconds - seconds)).toBeLessThan(0.3);
  });

  it('encodeSpooled: nothing on disk is a recording of 0 s', async () => {
    const empty = join(dir, 'empty.ulaw');
    writeFileSync(empty, Buffer.alloc(0));
    expect((await encodeSpooled(empty)).seconds).toBe(0);
  });
});
