import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  FEATURES, isOtpKey, OTP_EXPORT_HEADERS, OTP_PUBLIC_API, OTP_TENANT_API, OtpCheckSchema, OtpKeyInputSchema, OtpListQuerySchema, OtpNumberUpdateSchema, OtpStartSchema, OtpTestCallSchema, PERM,
  type OtpCheckInput, type OtpKeyInput, type OtpListQuery, type OtpNumberUpdate, type OtpScope, type OtpStartInput, type OtpTestCallInput,
} from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { sendExport } from '../../http/export-files';
import { authOf, declareAccess, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate, validateFilters } from '../../http/validate';
import { OTP_DOCS } from './otp-openapi';
import { createVoiceOtpService, type OtpCaller, type VoiceOtpService } from './voice-otp.service';

const tenantSchema = { tags: ['tenant: voice-otp'], security: [{ bearer: [] }] };
const tid = (request: FastifyRequest) => authOf(request).tenantId;
const gate = (permission: string) => guarded(permission, FEATURES.voiceOtp);

/** Tenant surface: the screens' reads and the API keys' management (issue 35), behind the voiceotp feature. */
export function voiceOtpTenantRoutes(svc?: VoiceOtpService) {
  return async function voiceOtp(app: FastifyInstance): Promise<void> {
    const otp = svc ?? createVoiceOtpService(app.deps.db, undefined, app.deps.switchboardHosts);
    const view = gate(PERM.otp.view);
    const manage = gate(PERM.otp.manage);

    // Every key in one page (a tenant has a handful): the list screen reads the usual paged shape.
    app.get(`/${OTP_TENANT_API.keys}`, { preHandler: manage, schema: tenantSchema }, async (request) => {
      // A tenant has a handful of keys: the search is by name, over the list.
      const search = (request.query as { search?: unknown }).search;
      const term = typeof search === 'string' ? search.trim().toLocaleLowerCase('vi') : '';
      // The keys of voice-OTP (a CRM's keys are managed on /integrations, ADR 0065).
      const data = (await otp.keys.list(tid(request))).filter((k) => isOtpKey(k.scopes) && k.name.toLocaleLowerCase('vi').includes(term));
      return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
    });
    app.post(`/${OTP_TENANT_API.keys}`, { preHandler: [...manage, validate({ body: OtpKeyInputSchema })], schema: tenantSchema }, async (request, reply) => {
      const auth = authOf(request);
      return reply.status(201).send({ data: await otp.keys.create(auth.tenantId, auth.maDn, auth.userId, request.body as OtpKeyInput) });
    });
    app.put(`/${OTP_TENANT_API.keys}/:id`, { preHandler: [...manage, validate({ body: OtpKeyInputSchema })], schema: tenantSchema }, async (request) => ({
      data: await otp.keys.update(tid(request), idOf(request.params), request.body as OtpKeyInput),
    }));
    app.post(`/${OTP_TENANT_API.keys}/:id/revoke`, { preHandler: manage, schema: tenantSchema }, async (request) => ({
      data: await otp.keys.revoke(tid(request), idOf(request.params)),
    }));
    // A new webhook signing secret, shown once (a revoked key: 404).
    app.post(`/${OTP_TENANT_API.keys}/:id/webhook-secret`, { preHandler: manage, schema: tenantSchema }, async (request) => ({
      data: await otp.keys.rotateWebhookSecret(tid(request), idOf(request.params)),
    }));

    app.get(`/${OTP_TENANT_API.verifications}`, { preHandler: [...view, validateFilters(OtpListQuerySchema)], schema: tenantSchema }, (request) =>
      otp.list(tid(request), request.query as OtpListQuery),
    );
    // The list's chart: the answered rate per Vietnam day of its dates and key.
    app.get(`/${OTP_TENANT_API.stats}`, { preHandler: [...view, validateFilters(OtpListQuerySchema)], schema: tenantSchema }, async (request) => ({
      data: await otp.stats(tid(request), request.query as OtpListQuery),
    }));
    // The list's filters, every row they select, as CSV or XLSX (streamed; a bad filter stays a 400).
    app.get(`/${OTP_TENANT_API.verifications}/export.:format`, { preHandler: [...view, validateFilters(OtpListQuerySchema)], schema: tenantSchema }, (request, reply) =>
      sendExport(reply, {
        format: (request.params as { format: string }).format,
        file: 'yeu-cau-otp',
        sheet: 'Yêu cầu OTP',
        headers: OTP_EXPORT_HEADERS,
        pages: () => otp.exportPages(tid(request), request.query as OtpListQuery),
      }),
    );
    // "Gọi thử": a test OTP call to the number the user typed (otp.manage); the limits and refusals of a start apply.
    app.post(`/${OTP_TENANT_API.testCall}`, { preHandler: [...manage, validate({ body: OtpTestCallSchema })], schema: tenantSchema }, async (request, reply) => {
      const auth = authOf(request);
      return reply.status(201).send({ data: await otp.testCall(auth.tenantId, auth.userId, request.body as OtpTestCallInput) });
    });
    app.get(`/${OTP_TENANT_API.numbers}`, { preHandler: view, schema: tenantSchema }, async (request) => ({ data: await otp.numbers.list(tid(request)) }));
    app.put(`/${OTP_TENANT_API.numbers}/:id`, { preHandler: [...manage, validate({ body: OtpNumberUpdateSchema })], schema: tenantSchema }, async (request) => ({
      data: await otp.numbers.set(tid(request), idOf(request.params), (request.body as OtpNumberUpdate).otp_enabled),
    }));
  };
}

const apiSchema = { tags: ['voice-otp (applications)'], security: [{ apiKey: [] }] };
/** The key a request opened, per request (set by the guard, read by the handler). */
const callers = new WeakMap<FastifyRequest, OtpCaller>();

/**
 * The applications' surface (/otp/v1): an API key of the tenant as the bearer opens it and nothing
 * else; a user's session token is no key (401). Each route also needs its scope (403 without).
 */
export function voiceOtpApiRoutes(svc?: VoiceOtpService) {
  return async function voiceOtpApi(app: FastifyInstance): Promise<void> {
    const otp = svc ?? createVoiceOtpService(app.deps.db);
    const apiKey = (scope: OtpScope) =>
      declareAccess({ auth: 'api-key' }, async function requireApiKey(request: FastifyRequest) {
        const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
        const caller = await otp.authenticate(bearer);
        if (!caller.scopes.includes(scope)) throw new AppError('FORBIDDEN');
        callers.set(request, caller);
      });
    const caller = (request: FastifyRequest) => {
      const c = callers.get(request);
      if (!c) throw new AppError('UNAUTHORIZED');
      return c;
    };
    const base = `/${OTP_PUBLIC_API.verifications}`;
    const id = (request: FastifyRequest) => String((request.params as { id?: unknown }).id ?? '');

    app.post(base, { preHandler: [apiKey('verify.start'), validate({ body: OtpStartSchema })], schema: { ...apiSchema, ...OTP_DOCS.start } }, async (request, reply) =>
      reply.status(201).send(await otp.start(caller(request), request.body as OtpStartInput)),
    );
    app.get(`${base}/:id`, { preHandler: apiKey('verify.read'), schema: { ...apiSchema, ...OTP_DOCS.get } }, (request) => otp.get(caller(request), id(request)));
    app.post(`${base}/:id/check`, { preHandler: [apiKey('verify.check'), validate({ body: OtpCheckSchema })], schema: { ...apiSchema, ...OTP_DOCS.check } }, (request) =>
      otp.check(caller(request), id(request), (request.body as OtpCheckInput).code),
    );
  };
}
