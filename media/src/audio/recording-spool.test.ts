import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeUlaw } from '../rtp/g711';
import { PT_PCMU } from '../rtp/session';
import { decodeMp3Channels } from './mp3';
import { CallRecorder } from './recorder';
import { RecordingSpool, spooledSeconds, type RecordingMeta } from './recording-spool';
import { tone } from './tones';

const until = async (what: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !what(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('RecordingSpool (issue 41)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spool-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const meta: RecordingMeta = { callId: 'c-1@x', ticket: '1.2.t', startedAt: new Date('2026-11-25T10:00:00Z') };

  /** `seconds` of a recorded call (440 Hz left) through a CallRecorder writing to `file`. */
  async function record(seconds: number, file?: string) {
    let now = 0;
    const rec = new CallRecorder(() => now, file);
    const a = tone([440], seconds * 1000, 8000);
    for (let i = 0; i < seconds * 50; i++) {
      now = (i + 1) * 20;
      rec.packet(0, PT_PCMU, encodeUlaw(a.subarray(i * 160, (i + 1) * 160)), i * 160, 7);
    }
    return rec.finish();
  }

  it('the spool holds the MP3 the call hands over, removed once the API stored it; a failed upload is tried again', async () => {
    const uploads: { seconds: number; bytes: number }[] = [];
    let fail = 2;
    const spool = new RecordingSpool(dir, async (r, mp3) => {
      if (fail-- > 0) throw new Error('fetch failed');
      uploads.push({ seconds: r.seconds, bytes: mp3.length });
    }, () => undefined, { firstMs: 20, maxMs: 40 });
    const entry = spool.open(meta)!;
    const { mp3, seconds } = await record(3, entry.mp3Path);
    // The spool holds the same MP3 the call's end hands over.
    expect(readdirSync(dir).sort()).toEqual([entry.mp3Path, entry.metaPath].map((p) => p.slice(dir.length + 1)).sort());
    expect(spooledSeconds(mp3.length)).toBeCloseTo(seconds, 0);
    spool.handOver(meta, entry, mp3, seconds);
    await until(() => uploads.length === 1);
    expect(uploads[0]).toEqual({ seconds, bytes: mp3.length });
    await until(() => readdirSync(dir).length === 0);
    spool.close();
  });

  it('a spool left by a killed process is handed over by the next one, as long as what reached the disk; a refused one is set aside', async () => {
    // What a process killed 2 s into a call left: its metadata and the MP3 so far.
    const first = new RecordingSpool(dir, async () => undefined, () => undefined);
    const left = first.open(meta)!;
    const { mp3 } = await record(2);
    writeFileSync(left.mp3Path, mp3);
    const refusedToo = first.open({ ...meta, callId: 'expired' })!;
    writeFileSync(refusedToo.mp3Path, mp3);
    const got: { callId: string; seconds: number; startedAt: Date; mp3: Buffer }[] = [];
    const next = new RecordingSpool(dir, async (r, file) => {
      if (r.callId === 'expired') throw Object.assign(new Error('HTTP 403'), { status: 403 });
      got.push({ callId: r.callId, seconds: r.seconds, startedAt: r.startedAt, mp3: file });
    }, () => undefined);
    expect(next.recover()).toBe(2);
    await until(() => got.length === 1 && !existsSync(left.mp3Path) && existsSync(join(dir, 'refused')));
    expect(got[0]).toMatchObject({ callId: 'c-1@x', startedAt: meta.startedAt });
    expect(got[0].seconds).toBeCloseTo(2, 0);
    const { channels, sampleRate } = await decodeMp3Channels(got[0].mp3);
    expect(channels[0].length / sampleRate).toBeCloseTo(2, 0);
    expect(readdirSync(join(dir, 'refused'))).toHaveLength(2);
    expect(readdirSync(dir)).toEqual(['refused']);
  });
});
