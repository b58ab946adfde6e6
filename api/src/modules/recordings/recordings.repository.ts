import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';
import { cdrConditions } from '../cdr/cdr.service';

/** Runs inside withTenant: RLS supplies the tenant (call_recordings, cdrs). */

export interface NewRecording {
  tenantId: number;
  callId: string;
  startedAt: Date;
  durationSeconds: number;
  sizeBytes: number;
  storage: 'local' | 's3';
  storageKey: string;
}

export interface StoredFile {
  storage: 'local' | 's3';
  storage_key: string;
}

/**
 * The call's recording, written or replaced (one per call: a retried upload is the same call's
 * newer file); returns its id and the file the row named before, which the caller then deletes.
 */
export async function upsertRecording(tx: Queryable, r: NewRecording): Promise<{ id: number; replaced: StoredFile | null }> {
  const { rows: before } = await tx.query<StoredFile>('select storage, storage_key from call_recordings where call_id = $1 for update', [r.callId]);
  const { rows } = await tx.query<{ id: number }>(
    `insert into call_recordings (tenant_id, call_id, started_at, duration_seconds, size_bytes, storage, storage_key)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (tenant_id, call_id) do update set started_at = excluded.started_at, duration_seconds = excluded.duration_seconds,
       size_bytes = excluded.size_bytes, storage = excluded.storage, storage_key = excluded.storage_key
     returning id`,
    [r.tenantId, r.callId, r.startedAt, r.durationSeconds, r.sizeBytes, r.storage, r.storageKey],
  );
  return { id: rows[0].id, replaced: before[0] ?? null };
}

export interface RecordingFile extends StoredFile {
  id: number;
  call_id: string;
  started_at: string;
  duration_seconds: number;
  /** The call's parties as its record names them (null: no record of the call yet). */
  call: { direction: 'inbound' | 'outbound' | 'internal'; caller: string; callee: string } | null;
}

type FileRow = StoredFile & {
  id: number;
  call_id: string;
  started_at: Date | string;
  duration_seconds: string | number;
  direction: 'inbound' | 'outbound' | 'internal' | null;
  caller: string | null;
  callee: string | null;
};

/**
 * A recording, when its call is among the calls of `scope` (the call history's own condition on
 * the call's record, cdrConditions); undefined scope: the whole tenant, a call whose record is not
 * written yet included. Null for an id the viewer may not see or that does not exist.
 */
export async function recordingFor(tx: Queryable, id: number, scope?: readonly string[]): Promise<RecordingFile | null> {
  const params: unknown[] = [id];
  const inScope = scope ? ` and ${cdrConditions({ from: new Date(0), to: new Date('9999-12-31T00:00:00Z'), scope }, params)}` : '';
  const { rows } = await tx.query<FileRow>(
    `select r.id, r.call_id, r.started_at, r.duration_seconds, r.storage, r.storage_key, c.direction, c.caller, c.callee
       from call_recordings r
       ${scope ? 'join' : 'left join'} lateral (
         select direction, caller, callee from cdrs where call_id = r.call_id${inScope} order by started_at limit 1
       ) c on true
      where r.id = $1`,
    params,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    call_id: r.call_id,
    started_at: iso(r.started_at),
    duration_seconds: Number(r.duration_seconds),
    storage: r.storage,
    storage_key: r.storage_key,
    call: r.direction ? { direction: r.direction, caller: r.caller ?? '', callee: r.callee ?? '' } : null,
  };
}

/** The recordings of these calls (one statement for a page of the call history), by Call-ID. */
export async function recordingsOfCalls(tx: Queryable, callIds: readonly string[]): Promise<Map<string, { id: number; duration_seconds: number }>> {
  if (!callIds.length) return new Map();
  const { rows } = await tx.query<{ id: number; call_id: string; duration_seconds: string | number }>(
    'select id, call_id, duration_seconds from call_recordings where call_id = any($1::text[])',
    [[...new Set(callIds)]],
  );
  return new Map(rows.map((r) => [r.call_id, { id: r.id, duration_seconds: Number(r.duration_seconds) }]));
}

/** Deletes up to `limit` of the tenant's recordings uploaded before `cutoff`; returns their files. */
export async function deleteExpired(tx: Queryable, cutoff: Date, limit: number): Promise<StoredFile[]> {
  const { rows } = await tx.query<StoredFile>(
    `delete from call_recordings where id in (
       select id from call_recordings where created_at < $1 order by created_at limit $2 for update skip locked
     ) returning storage, storage_key`,
    [cutoff, limit],
  );
  return rows;
}
