import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_API, AUDIT_EXPORT_HEADERS, AUDIT_LABELS, AuditQuerySchema, PERM, type AuditQuery } from '@tongdai/contracts';
import { sendExport } from '../../http/export-files';
import { authOf, guarded } from '../../http/guards';
import { validateFilters } from '../../http/validate';
import { createAuditService } from './audit.service';

const schema = { tags: ['tenant: audit log'], security: [{ bearer: [] }] };
const tid = (request: FastifyRequest) => authOf(request).tenantId;

/**
 * Tenant surface: the audit log of administrative changes (issue 42, /setting/audit-log). audit.view
 * reads it; audit.export downloads what the filters match as CSV or XLSX.
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const audit = createAuditService(app.deps.db);
  app.get(`/${AUDIT_API.list}`, { preHandler: [...guarded(PERM.audit.view), validateFilters(AuditQuerySchema)], schema }, (request) =>
    audit.list(tid(request), request.query as AuditQuery),
  );
  app.get(`/${AUDIT_API.options}`, { preHandler: guarded(PERM.audit.view), schema }, async (request) => ({ data: await audit.options(tid(request)) }));
  app.get(`/${AUDIT_API.list}/export.:format`, { preHandler: [...guarded(PERM.audit.export), validateFilters(AuditQuerySchema)], schema }, (request, reply) =>
    sendExport(reply, {
      format: (request.params as { format: string }).format,
      file: 'nhat-ky-thay-doi',
      sheet: AUDIT_LABELS.title,
      headers: AUDIT_EXPORT_HEADERS,
      pages: () => audit.exportPages(tid(request), request.query as AuditQuery),
    }),
  );
}
