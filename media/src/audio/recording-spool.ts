import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_KBPS } from './recorder';

/** What the API needs to file a call's recording (ADR 0041): the call, its ticket, when it started. */
export interface RecordingMeta {
  callId: string;
  ticket: string;
  startedAt: Date;
}

/** Sends a recording to the API; an error with `status` is the API's answer, any other a failure to reach it. */
export type RecordingUpload = (r: RecordingMeta & { seconds: number }, mp3: Buffer) => Promise<void>;

/** One recording's place in the spool: its metadata file and the MP3 the encoder appends to. */
export interface SpoolEntry {
  readonly meta: RecordingMeta;
  readonly mp3Path: string;
  readonly metaPath: string;
}

/** Under half a second a bridge is not a conversation: nothing is filed. */
const MIN_SECONDS = 0.5;
/** Retries of an upload that failed: 1 s, doubling to a minute, for as long as the process lives. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;
/** The API's refusals that no retry changes (a bad query, a ticket expired or forged, the tenant gone). */
const FINAL = new Set([400, 403, 404, 413]);

/** A spool left by a dead process: how long it lasts, from its size (constant bit rate). */
export const spooledSeconds = (bytes: number): number => (bytes * 8) / (RECORDING_KBPS * 1000);

/**
 * The media worker's recordings on disk until the API has them (issue 41, ADR 0041 "What a dead
 * worker keeps"). A recording opens an entry: `<name>.json` with the call, its ticket and its start,
 * and `<name>.mp3`, which the encoder thread appends to every half second. When the call ends the
 * whole MP3 is handed over; an upload that fails is tried again (1 s, doubling to a minute) and the
 * entry is removed only once the API answered 201. A process killed mid-call leaves its entries:
 * the next process of this worker (the same folder) hands each over on start, as long as what
 * reached the disk. A refusal no retry changes (an expired ticket…) moves the entry to `refused/`.
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
    const entry = { meta, mp3Path: join(this.dir, `${name}.mp3`), metaPath: join(this.dir, `${name}.json`) };
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

  /** The entries a previous process of this worker left (killed mid-call or before its upload): each handed over. Returns how many. */
  recover(): number {
    let n = 0;
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.json')) continue;
      const metaPath = join(this.dir, f);
      const mp3Path = metaPath.replace(/\.json$/, '.mp3');
      let meta: RecordingMeta;
      let mp3: Buffer;
      try {
        const m = JSON.parse(readFileSync(metaPath, 'utf8')) as { callId: string; ticket: string; startedAt: string };
        meta = { callId: m.callId, ticket: m.ticket, startedAt: new Date(m.startedAt) };
        mp3 = statSync(mp3Path, { throwIfNoEntry: false }) ? readFileSync(mp3Path) : Buffer.alloc(0);
      } catch (e) {
        this.log(`recording spool ${metaPath} unreadable: ${e instanceof Error ? e.message : e}`);
        continue;
      }
      const entry = { meta, mp3Path, metaPath };
      const seconds = spooledSeconds(mp3.length);
      this.log(`recording ${meta.callId}: ${seconds.toFixed(1)} s left by a previous process, handed over`);
      this.handOver(meta, entry, mp3, seconds);
      n++;
    }
    return n;
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
          if (entry) this.refuse(entry);
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
    rmSync(entry.mp3Path, { force: true });
    rmSync(entry.metaPath, { force: true });
  }

  private refuse(entry: SpoolEntry): void {
    const to = join(this.dir, 'refused');
    try {
      mkdirSync(to, { recursive: true });
      for (const p of [entry.mp3Path, entry.metaPath]) if (statSync(p, { throwIfNoEntry: false })) renameSync(p, join(to, p.slice(this.dir.length + 1)));
    } catch (e) {
      this.log(`recording spool: ${e instanceof Error ? e.message : e}`);
    }
  }
}
