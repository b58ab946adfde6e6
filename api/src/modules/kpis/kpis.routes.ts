import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FEATURES, KpiCreateSchema, KpiListQuerySchema, KpiUpdateSchema, PERM, type KpiInput, type KpiListQuery } from '@tongdai/contracts';
import { guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { viewerOf as viewerFor } from '../reports/reports.service';
import { createKpisService, type KpiViewer } from './kpis.service';

const schema = { tags: ['tenant: kpis'], security: [{ bearer: [] }] };

const viewerOf = (request: FastifyRequest): Promise<KpiViewer> => viewerFor(request, PERM.kpi.view);

/**
 * Tenant surface: KPIs (issue 14) behind the purchased "report" feature, like the reports. Reading
 * needs no permission of its own: kpi.view reads the tenant's KPIs, anyone else those assigned to
 * them, their team or their department, and to whoever is in their scope (viewerScope; the service filters). Writes need kpi.create/edit/delete.
 */
export async function kpisRoutes(app: FastifyInstance): Promise<void> {
  // The KPIs on the primary, their figures from the reports' database (ADR 0058).
  const kpis = createKpisService(app.deps.db, undefined, app.deps.reportsDb);
  const feature = FEATURES.report;
  app.get('/kpis', { preHandler: [...guarded(undefined, feature), validate({ query: KpiListQuerySchema })], schema }, async (request) =>
    kpis.list(await viewerOf(request), request.query as KpiListQuery),
  );
  app.get('/kpis/by-department', { preHandler: guarded(undefined, feature), schema }, async (request) => kpis.byDepartment(await viewerOf(request)));
  app.get('/kpis/:id', { preHandler: guarded(undefined, feature), schema }, async (request) => ({
    data: await kpis.get(await viewerOf(request), idOf(request.params)),
  }));
  app.post('/kpis', { preHandler: [...guarded(PERM.kpi.create, feature), validate({ body: KpiCreateSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await kpis.create(await viewerOf(request), request.body as KpiInput) }),
  );
  app.put('/kpis/:id', { preHandler: [...guarded(PERM.kpi.edit, feature), validate({ body: KpiUpdateSchema })], schema }, async (request) => ({
    data: await kpis.update(await viewerOf(request), idOf(request.params), request.body as KpiInput),
  }));
  app.delete('/kpis/:id', { preHandler: guarded(PERM.kpi.delete, feature), schema }, async (request, reply) => {
    await kpis.remove(await viewerOf(request), idOf(request.params));
    return reply.status(204).send();
  });
}
