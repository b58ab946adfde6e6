import type { FastifyInstance } from 'fastify';
import { REPORTS_API, type ReportFreshness } from '@tongdai/contracts';
import { guarded } from '../../http/guards';

const schema = { tags: ['tenant: reports'], security: [{ bearer: [] }] };

/**
 * Tenant surface: how far the reports trail the primary (issue 42, ADR 0058), for the report
 * screens' warning and the dashboard's chart. Any user of the tenant may ask: it says nothing about
 * any tenant's data, and the same lag holds for all of them.
 */
export async function freshnessRoutes(app: FastifyInstance): Promise<void> {
  app.get(`/${REPORTS_API.freshness}`, { preHandler: guarded(), schema }, async (): Promise<{ data: ReportFreshness }> => ({
    data: await app.deps.reportsDb.freshness(),
  }));
}
