import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MONITOR_API, PERM, type MonitorHourly, type MonitorSnapshot } from '@tongdai/contracts';
import { authOf, guarded, holdsPermission } from '../../http/guards';
import { createMonitorService, hourly, monitorViewer, type MonitorViewer } from './monitor.service';

const schema = { tags: ['tenant: monitor'], security: [{ bearer: [] }] };

/** What the caller may watch (monitor.view, managed departments, or their own extension). */
export async function monitorViewerOf(request: FastifyRequest): Promise<MonitorViewer> {
  const auth = authOf(request);
  return monitorViewer(request.server.deps.db, { tenantId: auth.tenantId, userId: auth.userId, wholeTenant: await holdsPermission(request, PERM.monitor.view) });
}

/**
 * Tenant surface: the live wall's snapshot (issue 14, ADR 0026). The screen takes it when it opens
 * and after each reconnect of GET /t/{ma_dn}/events, then applies the events; the scope decides the
 * rows, not the route (an agent gets their own wall).
 */
export async function monitorRoutes(app: FastifyInstance): Promise<void> {
  const monitor = createMonitorService(app.deps.db, app.deps.hub.live);
  app.get(`/${MONITOR_API.snapshot}`, { preHandler: guarded(PERM.general), schema }, async (request): Promise<{ data: MonitorSnapshot }> => ({
    data: await monitor.snapshot(await monitorViewerOf(request)),
  }));
  app.get(`/${MONITOR_API.hourly}`, { preHandler: guarded(PERM.general), schema }, async (request): Promise<{ data: MonitorHourly }> => ({
    data: await hourly(app.deps.db, await monitorViewerOf(request)),
  }));
}
