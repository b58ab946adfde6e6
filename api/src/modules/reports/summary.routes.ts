import type { FastifyInstance } from 'fastify';
import { FEATURES, type CallReportQuery } from '@tongdai/contracts';
import { guarded } from '../../http/guards';
import { parseFilters, viewerOf } from './call-history.routes';
import { createSummaryService } from './summary.service';

const schema = { tags: ['tenant: reports'], security: [{ bearer: [] }] };

/**
 * Tenant surface: call summaries (issue 13) for /history-cdr-by-exten and
 * /history-by-department-team. Same filters, checks and row scope as call history (all but the
 * number search and paging apply, ADR 0031). Feature "report"; the permission decides the rows, not the route.
 */
export async function summaryRoutes(app: FastifyInstance): Promise<void> {
  const summaries = createSummaryService(app.deps.reportsDb);
  const preHandler = [...guarded(undefined, FEATURES.report), parseFilters];
  app.get('/reports/by-extension', { preHandler, schema }, async (request) =>
    summaries.byExtension(await viewerOf(request), request.query as CallReportQuery),
  );
  app.get('/reports/by-department-team', { preHandler, schema }, async (request) =>
    summaries.byDepartmentTeam(await viewerOf(request), request.query as CallReportQuery),
  );
}
