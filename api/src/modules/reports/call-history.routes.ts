import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { CallReportQuerySchema, FEATURES, PERM, type CallReportQuery } from '@tongdai/contracts';
import { authOf, guarded, holdsPermission } from '../../http/guards';
import { AppError } from '../../http/errors';
import { fieldErrors } from '../../http/validate';
import { createCallHistoryService, type Viewer } from './call-history.service';

const schema = { tags: ['tenant: reports'], security: [{ bearer: [] }] };

/** Parses the filters; a 400 carries the first wrong filter's Vietnamese words as its message (shown on screen). */
async function parseFilters(request: FastifyRequest): Promise<void> {
  const result = v.safeParse(CallReportQuerySchema, request.query ?? {});
  if (result.success) {
    request.query = result.output;
    return;
  }
  const details = fieldErrors(result.issues);
  const err = new AppError('VALIDATION_FAILED', details);
  err.message = details[0]?.message ?? err.message;
  throw err;
}

async function viewerOf(request: FastifyRequest): Promise<Viewer> {
  const auth = authOf(request);
  return { tenantId: auth.tenantId, userId: auth.userId, wholeTenant: await holdsPermission(request, PERM.report.view) };
}

/**
 * Tenant surface: call history (issue 13). Any user of a tenant that bought "report" may ask; the
 * answer is the whole tenant for report.view, else the calls of the user's own extension (a row
 * filter in the query, not a hidden column). The softphone's /histories-call is another thing.
 */
export async function callHistoryRoutes(app: FastifyInstance): Promise<void> {
  const history = createCallHistoryService(app.deps.db);
  const preHandler = [...guarded(undefined, FEATURES.report), parseFilters];
  app.get('/reports/call-history', { preHandler, schema }, async (request) =>
    history.list(await viewerOf(request), request.query as CallReportQuery),
  );
  app.get('/reports/success-calls', { preHandler, schema }, async (request) =>
    history.list(await viewerOf(request), request.query as CallReportQuery, true),
  );
  app.get('/reports/call-history/options', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({
    data: await history.options(await viewerOf(request)),
  }));
}
