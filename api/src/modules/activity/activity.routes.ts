import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ACTIVITY_EXPORT_HEADERS, ACTIVITY_LABELS, ActivityQuerySchema, ActivityTimelineQuerySchema, FEATURES, PERM,
  type ActivityQuery, type ActivityTimelineQuery,
} from '@tongdai/contracts';
import { sendExport } from '../../http/export-files';
import { guarded, requirePermission } from '../../http/guards';
import { validate, validateFilters } from '../../http/validate';
import { viewerOf as viewerFor } from '../reports/reports.service';
import { createActivityService, type ActivityViewer } from './activity.service';

const schema = { tags: ['tenant: user activity'], security: [{ bearer: [] }] };

/** activity.view reads the tenant; anyone else their scope (viewerScope: managed department, led team, themselves). */
const viewerOf = (request: FastifyRequest): Promise<ActivityViewer> => viewerFor(request, PERM.activity.view);

/**
 * Tenant surface: user activity (issue 14, /activity-user-tenant). Feature "report" like the
 * reports; activity.view reads the tenant, anyone else their scope like the reports (the rows, not the route).
 */
export async function activityRoutes(app: FastifyInstance): Promise<void> {
  // A report: read from the reports' database (ADR 0058); the events are written on the primary (activity-recorder).
  const activity = createActivityService(app.deps.reportsDb);
  const preHandler = [...guarded(undefined, FEATURES.report), validateFilters(ActivityQuerySchema)];
  app.get('/activity/users', { preHandler, schema }, async (request) => activity.list(await viewerOf(request), request.query as ActivityQuery));
  app.get('/activity/options', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({ data: await activity.options(await viewerOf(request)) }));
  app.get(
    '/activity/timeline',
    { preHandler: [...guarded(undefined, FEATURES.report), validate({ query: ActivityTimelineQuerySchema })], schema },
    async (request) => ({ data: await activity.timeline(await viewerOf(request), request.query as ActivityTimelineQuery) }),
  );
  app.get('/activity/users/export.:format', { preHandler: [...preHandler, requirePermission(PERM.report.export)], schema }, (request, reply) =>
    sendExport(reply, {
      format: (request.params as { format: string }).format,
      file: 'hoat-dong-nguoi-dung',
      sheet: ACTIVITY_LABELS.title,
      headers: ACTIVITY_EXPORT_HEADERS,
      pages: async () => activity.exportPages(await viewerOf(request), request.query as ActivityQuery),
    }),
  );
}
