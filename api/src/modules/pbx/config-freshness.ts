import type { FastifyInstance } from 'fastify';
import { pbxConfigChanged } from './config-cache';

/**
 * Every successful write under this plugin (PBX objects, imports, uploads, subscribers) marks the
 * caller's tenant configuration as changed once the response is sent (the transaction has
 * committed by then): the next call is routed by what the admin just saved, not by a snapshot.
 */
export function invalidateRoutingOnWrite(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400 || !request.auth) return;
    pbxConfigChanged(request.auth.tenantId);
  });
}
