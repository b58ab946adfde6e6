import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { CALL_REPORT_EXPORT_HEADERS, CallReportQuerySchema, FEATURES, PERM, type CallReportQuery } from '@tongdai/contracts';
import { authOf, guarded, holdsPermission, requirePermission } from '../../http/guards';
import { AppError } from '../../http/errors';
import { fieldErrors } from '../../http/validate';
import { createCallHistoryService } from './call-history.service';
import type { Viewer } from './viewer-scope';
import { csvFile, xlsxFile } from './export-formats';

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

/** Who asks, and whether report.view lets them read the whole tenant (else viewerScope says what they see). */
export async function viewerOf(request: FastifyRequest): Promise<Viewer> {
  const auth = authOf(request);
  return { tenantId: auth.tenantId, userId: auth.userId, wholeTenant: await holdsPermission(request, PERM.report.view) };
}

/**
 * Tenant surface: call history (issue 13). Any user of a tenant that bought "report" may ask; the
 * answer is the whole tenant for report.view, else the calls of the viewer's scope (own extension,
 * managed department, led team: viewerScope, ADR 0031), a row filter in the query, not a hidden column. The softphone's /histories-call is another thing.
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
  const send = async (request: FastifyRequest, reply: FastifyReply, file: string, answeredOnly: boolean, format = (request.params as { format: string }).format) => {
    if (format !== 'csv' && format !== 'xlsx') throw new AppError('NOT_FOUND');
    // The filters are checked before the first byte: a bad filter is still a 400, not a broken file.
    const pages = await history.exportPages(await viewerOf(request), request.query as CallReportQuery, answeredOnly);
    const body = format === 'csv' ? csvFile(CALL_REPORT_EXPORT_HEADERS, pages) : xlsxFile(answeredOnly ? 'Cuộc gọi thành công' : 'Lịch sử cuộc gọi', CALL_REPORT_EXPORT_HEADERS, pages);
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${file}.${format}"`)
      .header('cache-control', 'no-store')
      .send(body);
  };
  // …/export is the CSV as before; …/export.csv and …/export.xlsx name the format.
  for (const [path, file, answeredOnly] of [
    ['/reports/call-history', 'lich-su-cuoc-goi', false],
    ['/reports/success-calls', 'cuoc-goi-thanh-cong', true],
  ] as const) {
    app.get(`${path}/export`, { preHandler: exporting, schema }, (request, reply) => send(request, reply, file, answeredOnly, 'csv'));
    app.get(`${path}/export.:format`, { preHandler: exporting, schema }, (request, reply) => send(request, reply, file, answeredOnly));
  }
  // The carrier view (/reports/fpt/call-history): the same filters and scope.
  app.get('/reports/carrier-calls', { preHandler, schema }, async (request) => ({
    data: await history.carrierCalls(await viewerOf(request), request.query as CallReportQuery),
  }));
  app.get('/reports/call-history/options', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({
    data: await history.options(await viewerOf(request)),
  }));
}
