import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { CallReportQuerySchema, FEATURES, PERM, type CallReportQuery } from '@tongdai/contracts';
import { authOf, guarded, holdsPermission, requirePermission } from '../../http/guards';
import { AppError } from '../../http/errors';
import { fieldErrors } from '../../http/validate';
import { createCallHistoryService, type Viewer } from './call-history.service';

const schema = { tags: ['tenant: reports'], security: [{ bearer: [] }] };

/** Parses the filters; a 400 carries the first wrong filter's Vietnamese words as its message (shown on screen). */
export async function parseFilters(request: FastifyRequest): Promise<void> {
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

/** Who asks, and whether report.view lets them read the whole tenant. */
export async function viewerOf(request: FastifyRequest): Promise<Viewer> {
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
  // Exports: report.export, the same filters and scope, streamed (the file is never held whole).
  const exporting = [...preHandler, requirePermission(PERM.report.export)];
  const send = async (request: FastifyRequest, reply: FastifyReply, file: string, answeredOnly: boolean) => {
    const lines = history.csv(await viewerOf(request), request.query as CallReportQuery, answeredOnly);
    // The first line waits for the filters' checks: a bad filter is still a 400, not a broken file.
    const first = await lines.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(all()));
  };
  app.get('/reports/call-history/export', { preHandler: exporting, schema }, (request, reply) => send(request, reply, 'lich-su-cuoc-goi', false));
  app.get('/reports/success-calls/export', { preHandler: exporting, schema }, (request, reply) => send(request, reply, 'cuoc-goi-thanh-cong', true));
  app.get('/reports/call-history/options', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({
    data: await history.options(await viewerOf(request)),
  }));
}
