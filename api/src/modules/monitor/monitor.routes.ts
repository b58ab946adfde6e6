import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MONITOR_API, PERM, type MonitorHourly, type MonitorSnapshot } from '@tongdai/contracts';
import { guarded } from '../../http/guards';
import { viewerOf } from '../reports/reports.service';
import { createMonitorService, hourly, monitorViewer, type MonitorViewer } from './monitor.service';

const schema = { tags: ['tenant: monitor'], security: [{ bearer: [] }] };

/** What the caller may watch (monitor.view: the tenant; else viewerScope: managed department, led team, own extension). */
export async function monitorViewerOf(request: FastifyRequest): Promise<MonitorViewer> {
  return monitorViewer(request.server.deps.db, await viewerOf(request, PERM.monitor.view));
}

/**
 * Tenant surface: the live wall's snapshot (issue 14, ADR 0026). The screen takes it when it opens
 * and after each reconnect of GET /t/{ma_dn}/events, then applies the events; the scope decides the
 * rows, not the route (an agent gets their own wall).
 */
export async function monitorRoutes(app: FastifyInstance): Promise<void> {
  const monitor = createMonitorService(app.deps.db, app.deps.hub);
  app.get(`/${MONITOR_API.snapshot}`, { preHandler: guarded(PERM.general), schema }, async (request): Promise<{ data: MonitorSnapshot }> => ({
    data: await monitor.snapshot(await monitorViewerOf(request)),
  }));
  app.get(`/${MONITOR_API.hourly}`, { preHandler: guarded(PERM.general), schema }, async (request): Promise<{ data: MonitorHourly }> => ({
    // The dashboard's chart is the read model's (a replica with REPORTS_DATABASE_URL, ADR 0058); the wall's
    // snapshot stays on the primary: it must hold every event up to its position (monitor.service).
    data: await hourly(app.deps.reportsDb, await monitorViewerOf(request)),
  }));
}
