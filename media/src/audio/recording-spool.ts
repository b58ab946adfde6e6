import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulawToLinear } from '../rtp/g711';
import { openMp3Stream } from './mp3-thread';
import { RECORDING_KBPS } from './recorder';
import { RATE } from './wav';

/** What the API needs to file a call's recording (ADR 0041): the call, its ticket, when it started. */
export interface RecordingMeta {
  callId: string;
  ticket: string;
  startedAt: Date;
}

/** Sends a recording to the API; an error with `status` is the API's answer, any other a failure to reach it. */
export type RecordingUpload = (r: RecordingMeta & { seconds: number }, mp3: Buffer) => Promise<void>;

/** One recording's place in the spool: its metadata file and the audio the recorder appends to (recorder.ts spoolAudio). */
export interface SpoolEntry {
  readonly meta: RecordingMeta;
  readonly audioPath: string;
  readonly metaPath: string;
}

/** Under half a second a bridge is not a conversation: nothing is filed. */
const MIN_SECONDS = 0.5;
/** Retries of an upload that failed: 1 s, doubling to a minute, for as long as the process lives. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;
/** The API's refusals that no retry changes (a bad query, a ticket expired or forged, the tenant gone). */
const FINAL = new Set([400, 403, 404, 413]);

/** A spool's audio: how long it lasts, from its size (two bytes a sample, 8000 samples a second). */
export const spooledSeconds = (bytes: number): number => Math.floor(bytes / 2) / RATE;
/** An MP3 a worker before 2026-11-26 spooled (constant bit rate): how long it lasts. */
const mp3Seconds = (bytes: number): number => (bytes * 8) / (RECORDING_KBPS * 1000);

/**
 * A spool's audio encoded to the recording's MP3, ten seconds at a time (an hour's call never holds an
 * hour of PCM): the MP3 and how long it lasts. An odd last byte (a write cut by the kill) is left out.
 */
export async function encodeSpooled(path: string): Promise<{ mp3: Buffer; seconds: number }> {
  const fd = openSync(path, 'r');
  const stream = openMp3Stream(RATE, RECORDING_KBPS);
  const chunk = Buffer.allocUnsafe(RATE * 2 * 10);
  let samples = 0;
  try {
    for (;;) {
      // A file reads whole chunks until its end: only the last can be odd.
      const n = readSync(fd, chunk, 0, chunk.length, null) & ~1;
      if (n === 0) break;
      const left = new Int16Array(n / 2);
      const right = new Int16Array(n / 2);
      for (let i = 0; i < n / 2; i++) {
        left[i] = ulawToLinear(chunk[2 * i]);
        right[i] = ulawToLinear(chunk[2 * i + 1]);
      }
      stream.encode(left, right);
      samples += n / 2;
    }
  } catch (e) {
    stream.finish().catch(() => undefined); // lets the encoder thread go
    throw e;
  } finally {
    closeSync(fd);
  }
  return { mp3: await stream.finish(), seconds: samples / RATE };
}

/**
 * The media worker's recordings on disk until the API has them (issue 41, ADR 0041 "What a dead
 * worker keeps"). A recording opens an entry: `<name>.json` with the call, its ticket and its start,
 * and `<name>.ulaw`, the call's audio, which the recorder appends to every half second. When the call
 * ends the whole MP3 is handed over; an upload that fails is tried again (1 s, doubling to a minute)
 * and the entry is removed only once the API answered 201. A process killed mid-call leaves its
 * entries: the next process of this worker (the same folder) encodes each one's audio and hands it
 * over on start, as long as what reached the disk. A refusal no retry changes (an expired ticket…)
 * moves the entry to `refused/` (with the MP3 it was refused).
 */
export class RecordingSpool {
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(
    readonly dir: string,
    private readonly upload: RecordingUpload,
    private readonly log: (msg: string) => void,
    private readonly retry = { firstMs: RETRY_FIRST_MS, maxMs: RETRY_MAX_MS },
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** A new recording's entry (its metadata written now); null when the disk refuses it (the call is recorded in memory only). */
  open(meta: RecordingMeta): SpoolEntry | null {
    const name = `${Date.now()}-${randomBytes(6).toString('hex')}`;
    const entry = { meta, audioPath: join(this.dir, `${name}.ulaw`), metaPath: join(this.dir, `${name}.json`) };
    try {
      writeFileSync(entry.metaPath, JSON.stringify({ callId: meta.callId, ticket: meta.ticket, startedAt: meta.startedAt.toISOString() }));
      return entry;
    } catch (e) {
      this.log(`recording spool ${this.dir}: ${e instanceof Error ? e.message : e}`);
      return null;
    }
  }

  /** The call ended: its whole MP3 (`seconds` long) goes to the API, retried until it is stored. */
  handOver(meta: RecordingMeta, entry: SpoolEntry | null, mp3: Buffer, seconds: number): void {
    if (seconds < MIN_SECONDS) return entry ? this.remove(entry) : undefined;
    this.send(meta, entry, mp3, seconds, this.retry.firstMs);
  }

  /**
   * The entries a previous process of this worker left (killed mid-call or before its upload): each
   * one's audio encoded and handed over (an MP3 left by a worker of before 2026-11-26 as it is).
   * Returns how many; the hand-overs go on after.
   */
  recover(): number {
    let n = 0;
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.json')) continue;
      const metaPath = join(this.dir, f);
      const entry = { metaPath, audioPath: metaPath.replace(/\.json$/, '.ulaw') };
      let meta: RecordingMeta;
      try {
        const m = JSON.parse(readFileSync(metaPath, 'utf8')) as { callId: string; ticket: string; startedAt: string };
        meta = { callId: m.callId, ticket: m.ticket, startedAt: new Date(m.startedAt) };
      } catch (e) {
        this.log(`recording spool ${metaPath} unreadable: ${e instanceof Error ? e.message : e}`);
        continue;
      }
      n++;
      this.recoverOne({ ...entry, meta }).catch((e) => this.log(`recording spool ${metaPath}: ${e instanceof Error ? e.message : e}`));
    }
    return n;
  }

  private async recoverOne(entry: SpoolEntry): Promise<void> {
    const { meta } = entry;
    const legacy = legacyMp3(entry);
    let mp3: Buffer;
    let seconds: number;
    if (statSync(entry.audioPath, { throwIfNoEntry: false })) ({ mp3, seconds } = await encodeSpooled(entry.audioPath));
    else if (statSync(legacy, { throwIfNoEntry: false })) {
      mp3 = readFileSync(legacy);
      seconds = mp3Seconds(mp3.length);
    } else [mp3, seconds] = [Buffer.alloc(0), 0];
    this.log(`recording ${meta.callId}: ${seconds.toFixed(1)} s left by a previous process, handed over`);
    this.handOver(meta, entry, mp3, seconds);
  }

  /** Stops the retries of this process (the entries stay on disk for the next one). */
  close(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }

  private send(meta: RecordingMeta, entry: SpoolEntry | null, mp3: Buffer, seconds: number, delayMs: number): void {
    this.upload({ ...meta, seconds }, mp3).then(
      () => entry && this.remove(entry),
      (e: Error & { status?: number }) => {
        if (e.status !== undefined && FINAL.has(e.status)) {
          this.log(`recording ${meta.callId} refused by the API (HTTP ${e.status}): kept in ${entry ? join(this.dir, 'refused') : 'nowhere (no spool)'}`);
          if (entry) this.refuse(entry, mp3);
          return;
        }
        this.log(`recording ${meta.callId} not handed over (${e.message}): again in ${delayMs / 1000} s`);
        const t = setTimeout(() => {
          this.pending.delete(t);
          this.send(meta, entry, mp3, seconds, Math.min(delayMs * 2, this.retry.maxMs));
        }, delayMs);
        t.unref();
        this.pending.add(t);
      },
    );
  }

  private remove(entry: SpoolEntry): void {
    for (const p of [entry.audioPath, legacyMp3(entry), entry.metaPath]) rmSync(p, { force: true });
  }

  /** Set aside: the MP3 the API refused beside its metadata (the raw audio goes, the MP3 holds it all). */
  private refuse(entry: SpoolEntry, mp3: Buffer): void {
    const to = join(this.dir, 'refused');
    const name = (p: string) => join(to, p.slice(this.dir.length + 1));
    try {
      mkdirSync(to, { recursive: true });
      writeFileSync(name(legacyMp3(entry)), mp3);
      renameSync(entry.metaPath, name(entry.metaPath));
      for (const p of [entry.audioPath, legacyMp3(entry)]) rmSync(p, { force: true });
    } catch (e) {
      this.log(`recording spool: ${e instanceof Error ? e.message : e}`);
    }
  }
}

/** The MP3 beside an entry's metadata: a worker of before 2026-11-26 spooled it, a refused entry keeps it. */
const legacyMp3 = (entry: Pick<SpoolEntry, 'metaPath'>): string => entry.metaPath.replace(/\.json$/, '.mp3');
