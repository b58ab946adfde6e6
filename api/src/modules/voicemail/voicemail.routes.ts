import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { FEATURES, PERM, VOICEMAIL_MSG } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { viewerOf } from '../reports/reports.service';
import { createVoicemailService } from './voicemail.service';

const schema = { tags: ['tenant: voicemail'], security: [{ bearer: [] }] };
const HeardBody = v.object({ heard: v.boolean(VOICEMAIL_MSG.badHeard) });

/**
 * Tenant surface: the caller's own voicemail (their extension's mailbox and their ring groups'):
 * every agent has a phone, so a session is all it needs, like the softphone's recent calls.
 */
export async function voicemailRoutes(app: FastifyInstance): Promise<void> {
  const voicemail = createVoicemailService(app.deps.db);
  app.get('/voicemail', { preHandler: guarded(), schema }, async (request) => {
    const auth = authOf(request);
    return voicemail.list(auth.tenantId, auth.userId);
  });
  // The message's audio for the player: never cached, never a public link (the bearer is checked).
  app.get('/voicemail/:id/audio', { preHandler: guarded(), schema }, async (request, reply) => {
    const auth = authOf(request);
    const bytes = await voicemail.audio(auth.tenantId, auth.userId, idOf(request.params));
    return reply.type('audio/wav').header('cache-control', 'no-store').header('content-length', bytes.length).send(bytes);
  });
  // From the call history (issue 16): a message its call left, to a viewer who may hear the calls'
  // audio (recording.listen) and whose call history shows that call (report.view: the tenant).
  app.get('/reports/voicemail/:id/audio', { preHandler: guarded(PERM.recording.listen, FEATURES.report), schema }, async (request, reply) => {
    const bytes = await voicemail.audioOfCall(await viewerOf(request, PERM.report.view), idOf(request.params));
    return reply.type('audio/wav').header('cache-control', 'no-store').header('content-length', bytes.length).send(bytes);
  });
  app.patch('/voicemail/:id', { preHandler: [...guarded(), validate({ body: HeardBody })], schema }, async (request, reply) => {
    const auth = authOf(request);
    await voicemail.setHeard(auth.tenantId, auth.userId, idOf(request.params), (request.body as v.InferOutput<typeof HeardBody>).heard);
    return reply.status(204).send();
  });
  app.delete('/voicemail/:id', { preHandler: guarded(), schema }, async (request, reply) => {
    const auth = authOf(request);
    await voicemail.remove(auth.tenantId, auth.userId, idOf(request.params));
    return reply.status(204).send();
  });
}
