import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { REALTIME_PROTOCOL, SESSION_ENDED_CLOSE } from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { declareAccess, tenantGuard } from '../../http/guards';
import { isEnded } from './call-event-hub';


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
    const auth = request.auth!;
    // The socket belongs to one session: when it ends (logout, lock, password change) the
    // socket closes too, on whichever instance holds it.
    const stops = [
      app.deps.hub.subscribe(auth.tenantId, (event) => socket.send(JSON.stringify(event))),
      app.deps.hub.onSessionsEnded(auth.tenantId, (ended) => {
        if (isEnded(ended, auth)) socket.close(SESSION_ENDED_CLOSE, 'SESSION_EXPIRED');
      }),
    ];
    // Whatever ended the session without telling the hub (or its absolute limit) is seen here.
    const recheck = setInterval(() => {
      app.deps.auth.sessionAlive(auth).then(
        (alive) => alive || socket.close(SESSION_ENDED_CLOSE, 'SESSION_EXPIRED'),
        (e: unknown) => request.log.warn({ err: e }, 'socket session check failed'),
      );
    }, app.deps.sessionCheckMs);
    recheck.unref();
    stops.push(() => clearInterval(recheck));
    const stop = () => stops.splice(0).forEach((f) => f());
    socket.on('close', stop);
    socket.on('error', stop);
  });
};
