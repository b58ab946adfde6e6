import type { FastifyInstance, FastifyReply } from 'fastify';
import * as v from 'valibot';
import { AUDIO_MAX_BYTES, AudioMetaInputSchema, PBX_MSG, type FieldError } from '@tongdai/contracts';
import { fieldErrors } from '../../http/validate';
import { inspectAudio } from './audio-file';
import { pbxGuarded, invalid } from './pbx.errors';
import type { AnyPbxDef } from './pbx.resources';
import { found, type PbxService } from './pbx.service';
import { idOf } from '../../http/params';
import { caller, pbxSchema } from './route-helpers';
import { readUpload } from './pbx-upload';

const MB = AUDIO_MAX_BYTES / (1024 * 1024);

interface StoredAudio {
  mime: string;
  file_name: string;
  bytes: Buffer | Uint8Array;
}

/** `Range: bytes=a-b` → [start, end] within `size`, null for no/unsupported range, 'bad' when unsatisfiable. */
export function byteRange(header: string | undefined, size: number): [number, number] | null | 'bad' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (!m[1] && !m[2])) return null;
  const [start, end] = m[1] ? [Number(m[1]), m[2] ? Math.min(Number(m[2]), size - 1) : size - 1] : [Math.max(0, size - Number(m[2])), size - 1];
  return start > end || start >= size ? 'bad' : [start, end];
}

function sendAudio(reply: FastifyReply, audio: StoredAudio, range: string | undefined): FastifyReply {
  const bytes = Buffer.from(audio.bytes);
  const r = byteRange(range, bytes.length);
  void reply.headers({
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=300',
    'x-content-type-options': 'nosniff',
    'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(audio.file_name)}`,
  });
  if (r === 'bad') return reply.status(416).header('content-range', `bytes */${bytes.length}`).send();
  const body = r ? bytes.subarray(r[0], r[1] + 1) : bytes;
  if (r) void reply.status(206).header('content-range', `bytes ${r[0]}-${r[1]}/${bytes.length}`);
  return reply.header('content-type', audio.mime).header('content-length', body.length).send(body);
}

/**
 * Greetings and music on hold: POST multipart (name, [moh_class], file) stores the file after
 * checking from its bytes that it is WAV or MP3; GET …/:id/audio plays it back (with Range).
 */
export function audioRoutes(app: FastifyInstance, def: AnyPbxDef, svc: PbxService): void {
  const schema = pbxSchema(def.tag);
  const kind = def.scope!.value;

  app.post(`/partner/${def.path}`, { preHandler: pbxGuarded(def.perm.create), schema }, async (request, reply) => {
    const form = await readUpload(request, 'file', AUDIO_MAX_BYTES, PBX_MSG.audioTooLarge(MB));
    const meta = v.safeParse(AudioMetaInputSchema, { name: form.fields.name, moh_class: form.fields.moh_class });
    const details: FieldError[] = meta.success ? [] : fieldErrors(meta.issues);
    const info = form.file ? inspectAudio(form.file.bytes) : null;
    if (!form.file) details.push({ field: 'file', message: PBX_MSG.audioRequired });
    else if (!info) details.push({ field: 'file', message: PBX_MSG.audioType });
    else if ('problem' in info) details.push({ field: 'file', message: info.problem });
    if (!meta.success || !form.file || !info || 'problem' in info) throw invalid(details);
    const file = { file_name: form.file.name || 'audio', mime: info.mime, size_bytes: form.file.bytes.length, duration_seconds: info.duration, bytes: form.file.bytes };
    return reply.status(201).send({ data: await svc.create(caller(request), { ...meta.output, file }) });
  });

  app.get(`/partner/${def.path}/:id/audio`, { preHandler: pbxGuarded(def.perm.view), schema }, async (request, reply) => {
    const { tenantId } = caller(request);
    const audio = await app.deps.db.withTenant(tenantId, async (tx) => {
      const { rows } = await tx.query<StoredAudio>('select mime, file_name, bytes from pbx_audio where id = $1 and kind = $2', [idOf(request.params), kind]);
      return rows[0];
    });
    return sendAudio(reply, found(audio), request.headers.range);
  });
}
