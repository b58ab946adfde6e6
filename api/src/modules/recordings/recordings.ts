import { displayForm, RECORDING_MSG, type RecordingRef } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import { viewerScope, type Viewer } from '../reports/reports.service';
import { phoneMasker, recordingRetentions } from '../settings/settings.service';
import { newRecordingKey, type RecordingStore } from './recording-store';
import * as repo from './recordings.repository';

/**
 * The recordings' storage refused a write for want of space (ENOSPC, issue 41): since when, or null.
 * One per process (the internal listener writes, /health and the tenants' admins read). Set by the
 * upload that met it (or a media worker whose own spool met it), cleared by the next upload stored:
 * the media worker keeps what it could not hand over in its spool and tries again (1 s, doubling to
 * a minute), so once space is back the alarm clears within a minute of a retry, with no call waiting
 * on it. Each change is told to `onChange`'s listeners (the tenants' sockets, for the shell's alarm).
 */
class RecordingStorageState {
  fullSince: Date | null = null;
  private readonly listeners = new Set<(fullSince: Date | null) => void>();

  /** Full from now (kept if it already was); true when this is news. */
  full(at = new Date()): boolean {
    if (this.fullSince) return false;
    this.fullSince = at;
    this.listeners.forEach((fn) => fn(at));
    return true;
  }

  /** A write succeeded: there is space again; true when it had been full. */
  stored(): boolean {
    if (!this.fullSince) return false;
    this.fullSince = null;
    this.listeners.forEach((fn) => fn(null));
    return true;
  }

  /** Returns the unsubscribe function. */
  onChange(fn: (fullSince: Date | null) => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }
}
export const recordingStorage = new RecordingStorageState();
export const isNoSpace = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'ENOSPC';

/** Recordings larger than this are refused by the upload (a 6-hour call at 64 kbit/s is ≈170 MB). */
export const RECORDING_MAX_BYTES = 200 * 1024 * 1024;

/** ID3v2 tag, or an MPEG audio frame's sync (11 bits set): what the media worker's MP3 starts with. */
export function looksLikeMp3(bytes: Buffer): boolean {
  if (bytes.length < 4) return false;
  if (bytes.toString('latin1', 0, 3) === 'ID3') return true;
  return bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0;
}

export interface UploadedRecording {
  tenantId: number;
  callId: string;
  startedAt: Date;
  durationSeconds: number;
  bytes: Buffer;
}

/**
 * Files a recording: the file first, then its row (the row is what makes it exist: a file without
 * a row is never served). A failed insert deletes the new file; a replaced row's old file is deleted
 * once the new row has committed. Returns the row's id.
 */
export async function saveRecording(db: Db, store: RecordingStore, r: UploadedRecording, onError: (err: unknown) => void = () => undefined): Promise<number> {
  const key = newRecordingKey(r.tenantId);
  await store.put(key, r.bytes);
  let saved: Awaited<ReturnType<typeof repo.upsertRecording>>;
  try {
    saved = await db.withTenant(r.tenantId, (tx) =>
      repo.upsertRecording(tx, {
        tenantId: r.tenantId,
        callId: r.callId,
        startedAt: r.startedAt,
        durationSeconds: Math.round(r.durationSeconds * 100) / 100,
        sizeBytes: r.bytes.length,
        storage: store.kind,
        storageKey: key,
      }),
    );
  } catch (err) {
    await store.delete(key).catch(onError);
    throw err;
  }
  const old = saved.replaced;
  if (old && old.storage === store.kind && old.storage_key !== key) await store.delete(old.storage_key).catch(onError);
  return saved.id;
}

const notFound = () => {
  const err = new AppError('NOT_FOUND', [{ field: 'id', message: RECORDING_MSG.notFound }]);
  err.message = RECORDING_MSG.notFound;
  return err;
};

/** 20260310-090000: the instant in Vietnam time (UTC+7, no daylight saving). */
const vnStamp = (at: string): string => new Date(Date.parse(at) + 7 * 3_600_000).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
/** A file name part: letters, digits, + and -; anything else (masking stars, spaces, accents) becomes x. */
const namePart = (s: string): string => s.replace(/[^A-Za-z0-9+-]/g, 'x').slice(0, 32) || 'khong-ro';

export interface RecordingAudio {
  bytes: Buffer;
  /** ghi-am-20260310-090500-0901000001-102.mp3 */
  fileName: string;
}

/**
 * A viewer's recordings (issue 16): one they may see is a recording of a call their call history
 * shows (reports' viewerScope, the same condition on the call's record); another tenant's, another
 * agent's, a deleted one or a file the store no longer has is "not found".
 */
export function createRecordingsService(db: Db, store: RecordingStore) {
  return {
    async audio(v: Viewer, id: number): Promise<RecordingAudio> {
      const rec = await db.withTenant(v.tenantId, async (tx) => repo.recordingFor(tx, id, (await viewerScope(tx, v))?.extensions));
      // A row written by another kind of store (the deployment changed stores) cannot be read here.
      if (!rec || rec.storage !== store.kind) throw notFound();
      const bytes = await store.get(rec.storage_key);
      if (!bytes) throw notFound();
      return { bytes, fileName: await fileNameOf(v.tenantId, rec) };
    },
  };

  /** The parties as the call history shows them: an outside number in its display form, masked where the tenant hides numbers. */
  async function fileNameOf(tenantId: number, rec: repo.RecordingFile): Promise<string> {
    const call = rec.call;
    let caller = call?.caller ?? '';
    let callee = call?.callee ?? '';
    if (call && call.direction !== 'internal') {
      const mask = await phoneMasker(db, tenantId);
      const hide = (n: string) => (mask ? mask(displayForm(n)) : displayForm(n));
      if (call.direction === 'inbound') caller = hide(caller);
      else callee = hide(callee);
    }
    return `ghi-am-${vnStamp(rec.started_at)}-${namePart(caller)}-${namePart(callee)}.mp3`;
  }
}

/**
 * The recordings of a page of call-history rows, by Call-ID, for a viewer who holds
 * recording.listen (`downloadable`: recording.download). One statement, inside the page's transaction.
 */
export async function recordingRefs(tx: Queryable, callIds: readonly string[], downloadable: boolean): Promise<Map<string, RecordingRef>> {
  const found = await repo.recordingsOfCalls(tx, callIds);
  return new Map([...found].map(([callId, r]) => [callId, { id: r.id, duration_seconds: r.duration_seconds, downloadable }]));
}

const DAY_MS = 86_400_000;
const SWEEP_BATCH = 500;

/**
 * Retention (issue 16): for every tenant with recording_retention_days, deletes the recordings
 * uploaded more than that many days before `now`, row and file; returns how many rows went.
 *
 * Row first, then file: each batch of rows is deleted and committed, and only then are their
 * files deleted. A crash between the two leaves files no row names (never served; found by their
 * `<tenant>/<day>/` folder if ever needed), never a row naming a deleted file (which the call history
 * would offer and the player fail on). A file that cannot be deleted now (the bucket unreachable)
 * is reported through `onError` and left behind in the same way.
 */
export async function sweepRecordings(db: Db, store: RecordingStore, now: Date, onError: (err: unknown) => void = () => undefined): Promise<number> {
  const tenants = await db.withSystem(recordingRetentions);
  let deleted = 0;
  for (const { tenantId, days } of tenants) {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    for (;;) {
      const files = await db.withTenant(tenantId, (tx) => repo.deleteExpired(tx, cutoff, SWEEP_BATCH));
      deleted += files.length;
      for (const f of files) if (f.storage === store.kind) await store.delete(f.storage_key).catch(onError);
      if (files.length < SWEEP_BATCH) break;
    }
  }
  return deleted;
}
