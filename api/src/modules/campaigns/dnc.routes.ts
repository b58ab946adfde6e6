import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSENT_API, ConsentInputSchema, ConsentListQuerySchema, type ConsentInput, type ConsentListQuery, DNC_API, DNC_IMPORT_MAX_ROWS, DNC_SOURCES, DncInputSchema, DncListQuerySchema, FEATURES, PBX_MSG, PERM, type DncInput, type DncListQuery, type DncSource } from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { readRows, type SheetLimits } from '../../http/sheet';
import { readUpload } from '../../http/upload';
import { validate } from '../../http/validate';
import { createDncService } from './dnc.service';

const tid = (request: FastifyRequest) => authOf(request).tenantId;
const FILE_MAX_MB = 20;
/** A national list: up to 500,000 rows; the zip-bomb guard and the worker's time and heap as for every sheet. */
const DNC_SHEET: SheetLimits = { maxUnpacked: 96 * 1024 * 1024, maxRows: DNC_IMPORT_MAX_ROWS + 5_000, timeoutMs: 60_000, rowsAllowed: DNC_IMPORT_MAX_ROWS };

/**
 * Tenant surface: the do-not-call lists (issue 33, ADR 0049) under /t/:ma_dn/dnc-numbers, in the survey
 * and campaigns area: dnc.view reads, dnc.edit adds, removes and imports.
 */
export async function dncRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: FILE_MAX_MB * 1024 * 1024, files: 1, fields: 5, parts: 6 } });
  const svc = createDncService(app.deps.db);
  const schema = { tags: ['tenant: do-not-call lists'], security: [{ bearer: [] }] };
  const view = guarded(PERM.dnc.view, FEATURES.survey);
  const edit = guarded(PERM.dnc.edit, FEATURES.survey);
  const list = `/${DNC_API.list}`;

  app.get(list, { preHandler: [...view, validate({ query: DncListQuerySchema })], schema }, (request) => svc.list(tid(request), request.query as DncListQuery));
  app.get(`/${DNC_API.summary}`, { preHandler: view, schema }, async (request) => ({ data: await svc.summary(tid(request)) }));
  app.post(list, { preHandler: [...edit, validate({ body: DncInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await svc.add(tid(request), request.body as DncInput) }),
  );
  app.delete(`/${DNC_API.one(':id')}`, { preHandler: edit, schema }, async (request, reply) => {
    await svc.remove(tid(request), idOf(request.params));
    return reply.status(204).send();
  });
  // Consents (Decree 91's "thỏa thuận khác"): read with the campaigns, recorded by who edits them.
  app.get(`/${CONSENT_API.list}`, { preHandler: [...guarded(PERM.campaign.view, FEATURES.survey), validate({ query: ConsentListQuerySchema })], schema }, (request) =>
    svc.consents(tid(request), request.query as ConsentListQuery),
  );
  app.post(`/${CONSENT_API.list}`, { preHandler: [...guarded(PERM.campaign.edit, FEATURES.survey), validate({ body: ConsentInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await svc.recordConsent(tid(request), authOf(request).userId, request.body as ConsentInput) }),
  );
  app.post(`/${DNC_API.file}`, { preHandler: edit, schema }, async (request) => {
    const form = await readUpload(request, 'file', FILE_MAX_MB * 1024 * 1024, `Tệp nhập tối đa ${FILE_MAX_MB} MB`);
    const source = form.fields.source ?? 'tenant';
    if (!(DNC_SOURCES as readonly string[]).includes(source)) throw new AppError('VALIDATION_FAILED', [{ field: 'source', message: 'Giá trị không hợp lệ' }]);
    if (!form.file) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: PBX_MSG.fileRequired }]);
    const rows = await readRows(form.file.bytes, DNC_SHEET);
    if (!rows) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: PBX_MSG.fileType }]);
    return { data: await svc.importRows(tid(request), source as DncSource, rows, form.fields.replace === 'true') };
  });
}
