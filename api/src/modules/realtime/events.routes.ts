import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { REALTIME_PROTOCOL } from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { declareAccess, tenantGuard } from '../../http/guards';

/**
 * GET /t/{ma_dn}/events (WebSocket): the tenant's call events as they happen. A browser cannot
 * set headers on a WebSocket, so the bearer token travels as a second subprotocol beside
 * REALTIME_PROTOCOL; it is checked (and the path's ma_dn against it) before the upgrade, so a
 * bad token is a plain 401/403 and never an open socket.
 */
export const eventsRoutes: FastifyPluginAsync = async (app) => {
  async function authenticate(request: FastifyRequest): Promise<void> {
    const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim());
    const token = offered.find((p) => p && p !== REALTIME_PROTOCOL);
    if (!offered.includes(REALTIME_PROTOCOL) || !token) throw new AppError('SESSION_EXPIRED');
    request.auth = (await request.server.deps.auth.authenticate(token)).auth;
    await tenantGuard(request);
  }

  app.get('/events', { websocket: true, preValidation: declareAccess({ auth: 'websocket-token' }, authenticate), schema: { tags: ['tenant'], summary: 'Call events (WebSocket)' } }, (socket, request) => {
    const unsubscribe = app.deps.hub.subscribe(request.auth!.tenantId, (event) => socket.send(JSON.stringify(event)));
    socket.on('close', unsubscribe);
    socket.on('error', unsubscribe);
  });
};
