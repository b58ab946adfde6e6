import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CAMPAIGN_MSG, CONTACT_IMPORT_MAX_ROWS, CampaignListQuerySchema, ContactAnswerSchema, ReadySchema, type ReadyInput, ContactResultSchema, campaignWorkApi, type ContactAnswer, type ContactResultInput, CampaignTransitionSchema, ContactListQuerySchema, CrmFilterSchema, FEATURES, PBX_MSG, PERM,
  campaignApi, campaignInputSchema, campaignResultsApi, type CampaignFamily, type CampaignInput, type CampaignListQuery, type CampaignTransition, type ContactListQuery,
  type CrmFilter, GoogleSheetImportSchema, type GoogleSheetImport,
} from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { sendExport } from '../../http/export-files';
import { authOf, guarded } from '../../http/guards';
import { recordingAccess } from '../recordings/recordings.service';
import { idOf } from '../../http/params';
import { readRows, type SheetLimits } from '../../http/sheet';
import { readUpload } from '../../http/upload';
import { validate } from '../../http/validate';
import { createCampaignsService } from './campaigns.service';
import { dialerFigures } from './dialer-live.service';
import { createGoogleCredentialsService } from './google-credentials';
import { createResultsService } from './results.service';
import { createWorkService, type Agent } from './work.service';

const tid = (request: FastifyRequest) => authOf(request).tenantId;
/** The agent of the working screen: the session's user, at the server's clock. */
const agent = (request: FastifyRequest): Agent => ({ tenantId: authOf(request).tenantId, userId: authOf(request).userId, at: new Date() });
const contactParams = (request: FastifyRequest) => ({ id: idOf(request.params), contactId: idOf(request.params, 'contactId') });
const FILE_MAX_MB = 20;
/** A contact list: up to 100,000 rows; the zip-bomb guard and the worker's time and heap as for every sheet. */
const CONTACT_SHEET: SheetLimits = { maxUnpacked: 64 * 1024 * 1024, maxRows: CONTACT_IMPORT_MAX_ROWS + 5_000, timeoutMs: 30_000, rowsAllowed: CONTACT_IMPORT_MAX_ROWS };

const yes = (x: string | undefined) => x === 'true' || x === '1';
/** A column chosen in the mapping: its index in the header, "" = not chosen (guessed from the header). */
function column(fields: Record<string, string>, name: string): number | undefined {
  const raw = fields[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d{1,4}$/.test(raw)) throw new AppError('VALIDATION_FAILED', [{ field: name, message: 'Giá trị không hợp lệ' }]);
  return Number(raw);
}

/**
 * Tenant surface: the campaigns of one family (issue 33, ADR 0050) under /t/:ma_dn/<family>-campaigns,
 * behind that family's purchased feature (survey / marketing): campaign.view reads and follows
 * progress, campaign.edit writes and imports contacts, campaign.run starts, pauses and ends.
 */
export function campaignsRoutes(family: CampaignFamily) {
  const api = campaignApi(family);
  const feature = family === 'survey' ? FEATURES.survey : FEATURES.marketing;
  const schema = { tags: [`tenant: ${family} campaigns`], security: [{ bearer: [] }] };
  const InputSchema = campaignInputSchema(family);
  return async function campaigns(app: FastifyInstance): Promise<void> {
    await app.register(multipart, { limits: { fileSize: FILE_MAX_MB * 1024 * 1024, files: 1, fields: 10, parts: 12 } });
    const svc = createCampaignsService(app.deps.db);
    const view = guarded(PERM.campaign.view, feature);
    const edit = guarded(PERM.campaign.edit, feature);
    const run = guarded(PERM.campaign.run, feature);
    const list = `/${api.base}`;
    const one = `${list}/:id`;

    app.get(list, { preHandler: [...view, validate({ query: CampaignListQuerySchema })], schema }, (request) =>
      svc.list(tid(request), family, request.query as CampaignListQuery),
    );
    app.get(`/${api.options}`, { preHandler: view, schema }, async (request) => ({ data: await svc.options(tid(request)) }));
    app.post(list, { preHandler: [...edit, validate({ body: InputSchema })], schema }, async (request, reply) =>
      reply.status(201).send({ data: await svc.create(tid(request), family, request.body as CampaignInput) }),
    );
    app.get(one, { preHandler: view, schema }, async (request) => ({ data: await svc.get(tid(request), family, idOf(request.params)) }));
    app.put(one, { preHandler: [...edit, validate({ body: InputSchema })], schema }, async (request) => ({
      data: await svc.update(tid(request), family, idOf(request.params), request.body as CampaignInput),
    }));
    app.delete(one, { preHandler: edit, schema }, async (request, reply) => {
      await svc.remove(tid(request), family, idOf(request.params));
      return reply.status(204).send();
    });
    // The /monitor wall's dialer campaigns: a state change puts one on it, moves it or takes it off.
    const moved = dialerFigures(app.deps.db, app.deps.hub);
    app.post(`${one}/state`, { preHandler: [...run, validate({ body: CampaignTransitionSchema })], schema }, async (request) => {
      const data = await svc.transition(tid(request), family, idOf(request.params), (request.body as CampaignTransition).to);
      moved(tid(request), data.id);
      return { data };
    });
    app.get(`${one}/progress`, { preHandler: view, schema }, async (request) => ({ data: await svc.progress(tid(request), family, idOf(request.params)) }));
    app.get(`${one}/contacts`, { preHandler: [...view, validate({ query: ContactListQuerySchema })], schema }, async (request) =>
      svc.contacts(tid(request), family, idOf(request.params), request.query as ContactListQuery, await recordingAccess(request)),
    );
    app.delete(`${one}/contacts`, { preHandler: edit, schema }, async (request, reply) => {
      await svc.clearContacts(tid(request), family, idOf(request.params));
      return reply.status(204).send();
    });
    /** Preview (commit absent) or import an XLSX/CSV: nothing is written while rows are invalid unless skip_invalid. */
    app.post(`${one}/contacts/file`, { preHandler: edit, schema }, async (request) => {
      const id = idOf(request.params);
      // The campaign first: another tenant's id is a 404 whatever the form holds.
      await svc.get(tid(request), family, id);
      const form = await readUpload(request, 'file', FILE_MAX_MB * 1024 * 1024, `Tệp nhập tối đa ${FILE_MAX_MB} MB`);
      if (!form.file) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: PBX_MSG.fileRequired }]);
      const rows = await readRows(form.file.bytes, CONTACT_SHEET);
      if (!rows) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: PBX_MSG.fileType }]);
      if (rows.length < 2) throw new AppError('VALIDATION_FAILED', [{ field: 'file', message: CAMPAIGN_MSG.emptyFile }]);
      const chosen = { name_column: column(form.fields, 'name_column'), phone_column: column(form.fields, 'phone_column') };
      return { data: await svc.importSheet(tid(request), family, id, rows, chosen, { commit: yes(form.fields.commit), skipInvalid: yes(form.fields.skip_invalid) }) };
    });

    // The agent's working screen (slice 3): campaign.run, and the user must be one of the campaign's agents.
    const work = createWorkService(app.deps.db);
    const wapi = campaignWorkApi(family);
    const contact = `/${wapi.lease(':id', ':contactId').replace(/\/lease$/, '')}`;
    app.post(`/${wapi.next(':id')}`, { preHandler: run, schema }, async (request) => ({ data: await work.next(agent(request), family, idOf(request.params)) }));
    app.post(`${contact}/lease`, { preHandler: run, schema }, async (request) => {
      const { id, contactId } = contactParams(request);
      return { data: await work.lease(agent(request), family, id, contactId) };
    });
    app.put(`${contact}/answers`, { preHandler: [...run, validate({ body: ContactAnswerSchema })], schema }, async (request, reply) => {
      const { id, contactId } = contactParams(request);
      await work.answer(agent(request), family, id, contactId, request.body as ContactAnswer);
      return reply.status(204).send();
    });
    app.post(`${contact}/call`, { preHandler: run, schema }, async (request) => {
      const { id, contactId } = contactParams(request);
      return { data: await work.call(agent(request), family, id, contactId) };
    });
    app.post(`${contact}/result`, { preHandler: [...run, validate({ body: ContactResultSchema })], schema }, async (request, reply) => {
      const { id, contactId } = contactParams(request);
      await work.result(agent(request), family, id, contactId, request.body as ContactResultInput);
      return reply.status(204).send();
    });
    app.get(`${contact}/dial`, { preHandler: run, schema }, async (request) => {
      const { id, contactId } = contactParams(request);
      return { data: await work.dial(agent(request), family, id, contactId) };
    });
    // A progressive campaign's agent takes the dialer's calls, or pauses (issue 34).
    app.get(`/${wapi.ready(':id')}`, { preHandler: run, schema }, async (request) => ({ data: await work.readyState(agent(request), family, idOf(request.params)) }));
    app.put(`/${wapi.ready(':id')}`, { preHandler: [...run, validate({ body: ReadySchema })], schema }, async (request) => {
      const data = await work.setReady(agent(request), family, idOf(request.params), (request.body as ReadyInput).ready);
      moved(tid(request), idOf(request.params));
      return { data };
    });
    // Results (slice 4): campaign.view reads them; campaign.export streams the contacts with their answers.
    const results = createResultsService(app.deps.db);
    const rapi = campaignResultsApi(family);
    app.get(`/${rapi.results(':id')}`, { preHandler: view, schema }, async (request) => ({ data: await results.results(tid(request), family, idOf(request.params)) }));
    const exporting = guarded(PERM.campaign.export, feature);
    for (const format of ['csv', 'xlsx'] as const) {
      app.get(`/${rapi.export(':id', format)}`, { preHandler: exporting, schema }, async (request, reply) => {
        const id = idOf(request.params);
        const { headers, pages } = await results.exportOf(tid(request), family, id);
        return sendExport(reply, { format, file: `ket-qua-chien-dich-${id}`, sheet: 'Kết quả chiến dịch', headers, pages: async () => pages });
      });
    }
    /** Preview or import a Google Sheet's tab: the same mapping, preview and per-row errors as a file. */
    const google = createGoogleCredentialsService(app.deps.db);
    app.post(`${one}/contacts/sheet`, { preHandler: [...edit, validate({ body: GoogleSheetImportSchema })], schema }, async (request) => {
      const id = idOf(request.params);
      const body = request.body as GoogleSheetImport;
      await svc.get(tid(request), family, id);
      if (!(await google.isUser(tid(request), body.user_id))) throw new AppError('VALIDATION_FAILED', [{ field: 'user_id', message: CAMPAIGN_MSG.unknownUser }]);
      const rows = await google.readSheet(tid(request), body.sheet_id, body.sheet_name);
      if (rows.length - 1 > CONTACT_IMPORT_MAX_ROWS) throw new AppError('VALIDATION_FAILED', [{ field: 'sheet_id', message: CAMPAIGN_MSG.tooManyRows(CONTACT_IMPORT_MAX_ROWS) }]);
      if (rows.length < 2) throw new AppError('VALIDATION_FAILED', [{ field: 'sheet_name', message: CAMPAIGN_MSG.emptyFile }]);
      const chosen = { name_column: body.name_column ?? undefined, phone_column: body.phone_column ?? undefined };
      return { data: await svc.importSheet(tid(request), family, id, rows, chosen, { commit: body.commit, skipInvalid: body.skip_invalid }) };
    });
    app.post(`${one}/contacts/crm`, { preHandler: [...edit, validate({ body: CrmFilterSchema })], schema }, async (request) => ({
      data: await svc.importCrm(tid(request), family, idOf(request.params), request.body as CrmFilter),
    }));
  };
}
