import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CALL_REPORT_EXPORT_HEADERS, CallReportQuerySchema, FEATURES, PERM, type CallReportQuery } from '@tongdai/contracts';
import { guarded, requirePermission } from '../../http/guards';
import { validateFilters } from '../../http/validate';
import { idOf } from '../../http/params';
import { createCallHistoryService } from './call-history.service';
import { viewerOf as viewerFor, type Viewer } from './viewer-scope';
import { sendExport } from '../../http/export-files';
import { recordingAccess, recordingRoutes } from '../recordings/recordings.service';

const schema = { tags: ['tenant: reports'], security: [{ bearer: [] }] };

/** Parses the filters; a 400 carries the first wrong filter's Vietnamese words as its message (shown on screen). */
export const parseFilters = validateFilters(CallReportQuerySchema);

/** Who asks, and whether report.view lets them read the whole tenant (else viewerScope says what they see). */
export const viewerOf = (request: FastifyRequest): Promise<Viewer> => viewerFor(request, PERM.report.view);

/**
 * Tenant surface: call history (issue 13). Any user of a tenant that bought "report" may ask; the
 * answer is the whole tenant for report.view, else the calls of the viewer's scope (own extension,
 * managed department, led team: viewerScope, ADR 0031), a row filter in the query, not a hidden column. The softphone's /histories-call is another thing.
 */
export async function callHistoryRoutes(app: FastifyInstance): Promise<void> {
  // Every read here is the reports' (a replica with REPORTS_DATABASE_URL, ADR 0058).
  const history = createCallHistoryService(app.deps.reportsDb);
  const preHandler = [...guarded(undefined, FEATURES.report), parseFilters];
  app.get('/reports/call-history', { preHandler, schema }, async (request) =>
    history.list(await viewerOf(request), request.query as CallReportQuery, false, await recordingAccess(request)),
  );
  app.get('/reports/success-calls', { preHandler, schema }, async (request) =>
    history.list(await viewerOf(request), request.query as CallReportQuery, true, await recordingAccess(request)),
  );
  // Exports: report.export, the same filters and scope, streamed (the file is never held whole).
  const exporting = [...preHandler, requirePermission(PERM.report.export)];
  const send = (request: FastifyRequest, reply: FastifyReply, file: string, answeredOnly: boolean, format = (request.params as { format: string }).format) =>
    sendExport(reply, {
      format, file, sheet: answeredOnly ? 'Cuộc gọi thành công' : 'Lịch sử cuộc gọi', headers: CALL_REPORT_EXPORT_HEADERS,
      pages: async () => history.exportPages(await viewerOf(request), request.query as CallReportQuery, answeredOnly),
    });
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
  // Click-to-call from a row: the number for the softphone only (rows show it masked where the tenant hides numbers).
  app.get('/reports/call-history/:id/dial', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({
    data: await history.dialOf(await viewerOf(request), idOf(request.params)),
  }));
  // A row's recording (issue 16): /recordings/:id/audio and …/download, for the calls these rows show.
  await app.register(recordingRoutes);
  app.get('/reports/call-history/options', { preHandler: guarded(undefined, FEATURES.report), schema }, async (request) => ({
    data: await history.options(await viewerOf(request)),
  }));
}
