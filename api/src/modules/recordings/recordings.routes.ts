/// <reference types="@fastify/swagger" />
// (The OpenAPI fields of `schema` come from @fastify/swagger; said here for the packages, such as the
// e2e bench, that compile this file through the reports service without loading the server.)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { FEATURES, PERM, RECORDING_API, type RecordingStorageEvent, type RecordingStorageState } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { isForeignKeyViolation } from '../../http/errors';
import { guarded, holdsPermission } from '../../http/guards';
import { idOf } from '../../http/params';
import { viewerOf } from '../reports/reports.service';
import { recordingStoreFromEnv, type RecordingStore } from './recording-store';
import { verifyRecordingTicket } from './recording-ticket';
import { createRecordingsService, isNoSpace, looksLikeMp3, RECORDING_MAX_BYTES, recordingStorage, saveRecording } from './recordings';

const schema = { tags: ['tenant: recordings'], security: [{ bearer: [] }] };

/**
 * What a viewer may do with the recordings a list names (issue 16): null without recording.listen (the
 * rows say nothing of recordings), else whether they may also download them (recording.download).
 */
export type RecordingAccess = { downloadable: boolean } | null;

/** The request's recording access: the call history's rows and a campaign contact's call read it alike. */
export const recordingAccess = async (request: FastifyRequest): Promise<RecordingAccess> =>
  (await holdsPermission(request, PERM.recording.listen)) ? { downloadable: await holdsPermission(request, PERM.recording.download) } : null;

/**
 * Tenant surface (issue 16, ADR 0041): a recording's audio for the call history's player
 * (recording.listen) and its file (recording.download), for a call the viewer's call history shows
 * (the reports' scope: report.view reads the whole tenant); behind the report feature like the
 * call history. Fetched with the bearer, never a public link, never cached.
 */
export async function recordingRoutes(app: FastifyInstance): Promise<void> {
  const recordings = createRecordingsService(app.deps.db, app.deps.recordings);
  // Issue 41: the storage's state for the shell's alarm bar (the tenant's admins; the socket pushes its changes).
  app.get(`/${RECORDING_API.storage}`, { preHandler: guarded(PERM.setting.view), schema }, async () => ({ data: recordingStorageNow() }));
  app.get('/recordings/:id/audio', { preHandler: guarded(PERM.recording.listen, FEATURES.report), schema }, async (request, reply) => {
    const { bytes } = await recordings.audio(await viewerOf(request, PERM.report.view), idOf(request.params));
    return reply.type('audio/mpeg').header('cache-control', 'no-store').header('content-length', bytes.length).send(bytes);
  });
  app.get('/recordings/:id/download', { preHandler: guarded(PERM.recording.download, FEATURES.report), schema }, async (request, reply) => {
    const { bytes, fileName } = await recordings.audio(await viewerOf(request, PERM.report.view), idOf(request.params));
    return reply
      .type('audio/mpeg')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('content-length', bytes.length)
      .send(bytes);
  });
}

/** The recordings' storage as the tenants' admins are told (GET /recording-storage). */
export const recordingStorageNow = (): RecordingStorageState => ({ full_since: recordingStorage.fullSince?.toISOString() ?? null });

/**
 * The tenant's admins' sockets (setting.view) hear each change of the storage's state as it happens
 * (full, or space again; the state is the process's: the uploads this API instance took). Returns the unsubscribe function.
 */
export function onRecordingStorage(send: (event: RecordingStorageEvent) => void): () => void {
  return recordingStorage.onChange(() => send({ kind: 'tongdai.recording-storage', version: 1, ...recordingStorageNow() }));
}

const UploadQuery = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  ticket: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  started_at: v.pipe(v.string(), v.isoTimestamp(), v.check((s) => !Number.isNaN(Date.parse(s)))),
  duration: v.pipe(v.string(), v.regex(/^\d{1,6}(\.\d{1,6})?$/), v.transform(Number), v.maxValue(999_999)),
});

export interface RecordingInternalDeps {
  db: Db;
  /** Where the files go (default: recordingStoreFromEnv(), as the public server's). */
  store?: RecordingStore;
}

/**
 * The media worker's upload of a call's recording on the internal listener (shared secret):
 *   POST /internal/sip/media/recording?call_id&ticket&started_at&duration   body: the MP3 (audio/mpeg)
 * The tenant is the one the API's ticket names for that Call-ID (recording-ticket.ts), never one
 * the worker says: 403 BAD_TICKET otherwise. 400 BAD_REQUEST for a bad query or an empty body,
 * NOT_MP3 for a body that is no MP3. 201 { id }; a retried upload replaces the call's recording
 * (404 NO_TENANT: the ticket's tenant is gone).
 */
export function registerRecordingInternalRoutes(app: FastifyInstance, d: RecordingInternalDeps): void {
  const store = d.store ?? recordingStoreFromEnv();
  // Its own content type beside the voicemail's audio/wav parser (media/), with its own limit.
  app.addContentTypeParser('audio/mpeg', { parseAs: 'buffer', bodyLimit: RECORDING_MAX_BYTES }, (_req, body, done) => done(null, body));
  app.post('/internal/sip/media/recording', { bodyLimit: RECORDING_MAX_BYTES }, async (request, reply) => {
    const q = v.safeParse(UploadQuery, request.query);
    if (!q.success) return reply.status(400).send({ error: 'BAD_REQUEST' });
    const { call_id: callId, ticket, started_at: startedAt, duration } = q.output;
    const tenantId = verifyRecordingTicket(ticket, callId);
    if (tenantId === null) return reply.status(403).send({ error: 'BAD_TICKET' });
    const body = request.body;
    if (!Buffer.isBuffer(body) || body.length === 0) return reply.status(400).send({ error: 'BAD_REQUEST' });
    if (!looksLikeMp3(body)) return reply.status(400).send({ error: 'NOT_MP3' });
    const onError = (err: unknown) => request.log.warn({ err, callId }, 'recording file not deleted');
    try {
      const id = await saveRecording(d.db, store, { tenantId, callId, startedAt: new Date(startedAt), durationSeconds: duration, bytes: body }, onError);
      const since = recordingStorage.fullSince;
      if (recordingStorage.stored()) request.log.warn({ since }, 'recording storage has space again');
      return reply.status(201).send({ id });
    } catch (err) {
      // The storage is full: 507, which the worker retries (its spool keeps the file); /health says so.
      if (isNoSpace(err)) {
        if (recordingStorage.full()) request.log.error({ err, callId }, 'recording storage full');
        return reply.status(507).send({ error: 'STORAGE_FULL' });
      }
      // The ticket's tenant was deleted since the call began (its file is already gone again).
      if (isForeignKeyViolation(err)) return reply.status(404).send({ error: 'NO_TENANT' });
      throw err;
    }
  });
}
