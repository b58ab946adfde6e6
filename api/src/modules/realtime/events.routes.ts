import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { PERM, REALTIME_PROTOCOL, SESSION_ENDED_CLOSE } from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { declareAccess, holdsPermission, tenantGuard } from '../../http/guards';
import { mayReceive, monitorViewer, type MonitorViewer } from '../monitor/monitor.service';
import { onRecordingStorage } from '../recordings/recordings.service';
import { viewerOf } from '../reports/reports.service';
import { isEnded } from './call-event-hub';

/** What the socket's user may watch, as of now (re-read with each session check); `admin`: setting.view, told of the recordings' storage (issue 41). */
async function watcherOf(request: FastifyRequest): Promise<MonitorViewer & { admin: boolean }> {
  request.authRoles = null;
  const viewer = await monitorViewer(request.server.deps.db, await viewerOf(request, PERM.monitor.view));
  return { ...viewer, admin: await holdsPermission(request, PERM.setting.view) };
}

/**
 * GET /t/{ma_dn}/events (WebSocket): the tenant's call events as they happen. A browser cannot
 * set headers on a WebSocket, so the bearer token travels as a second subprotocol beside
 * REALTIME_PROTOCOL; it is checked (and the path's ma_dn against it) before the upgrade, so a
 * bad token is a plain 401/403 and never an open socket.
 * Each event goes only to the sockets whose user may see it (issue 14): monitor.view → the
 * tenant, a department's manager → its extensions, a team's leader → the team's, anyone else →
 * the calls of their extension (viewerScope, ADR 0034). The recordings' storage full or back
 * (issue 41) goes to the sockets of users holding setting.view, the tenant's admins.
 */
export const eventsRoutes: FastifyPluginAsync = async (app) => {
  const viewers = new WeakMap<FastifyRequest, MonitorViewer & { admin: boolean }>();
  async function authenticate(request: FastifyRequest): Promise<void> {
    const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim());
    const token = offered.find((p) => p && p !== REALTIME_PROTOCOL);
    if (!offered.includes(REALTIME_PROTOCOL) || !token) throw new AppError('SESSION_EXPIRED');
    request.auth = (await request.server.deps.auth.authenticate(token)).auth;
    await tenantGuard(request);
    viewers.set(request, await watcherOf(request));
  }

  app.get('/events', { websocket: true, preValidation: declareAccess({ auth: 'websocket-token' }, authenticate), schema: { tags: ['tenant'], summary: 'Call events (WebSocket)' } }, (socket, request) => {
    const auth = request.auth!;
    let viewer = viewers.get(request)!;
    // The socket belongs to one session: when it ends (logout, lock, password change) the
    // socket closes too, on whichever instance holds it.
    const stops = [
      app.deps.hub.subscribe(auth.tenantId, (event, audience) => {
        if (mayReceive(viewer, audience)) socket.send(JSON.stringify(event));
      }),
      app.deps.hub.onSessionsEnded(auth.tenantId, (ended) => {
        if (isEnded(ended, auth)) socket.close(SESSION_ENDED_CLOSE, 'SESSION_EXPIRED');
      }),
      // The recordings' storage full or back (issue 41): the shell's alarm bar, for the tenant's admins only.
      onRecordingStorage((event) => {
        if (viewer.admin) socket.send(JSON.stringify(event));
      }),
    ];
    // Whatever ended the session without telling the hub (or its absolute limit) is seen here.
    const recheck = setInterval(() => {
      app.deps.auth.sessionAlive(auth).then(
        async (alive) => {
          if (!alive) return socket.close(SESSION_ENDED_CLOSE, 'SESSION_EXPIRED');
          viewer = await watcherOf(request);
        },
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
