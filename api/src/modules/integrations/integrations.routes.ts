import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CallDeliveryQuerySchema, INTEGRATIONS_TENANT_API, IntegrationKeyInputSchema, PERM, type CallDeliveryQuery, type IntegrationKeyInput } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate, validateFilters } from '../../http/validate';
import { createIntegrationsService, type IntegrationsService } from './integrations.service';

const tenantSchema = { tags: ['tenant: integrations'], security: [{ bearer: [] }] };
const tid = (request: FastifyRequest) => authOf(request).tenantId;

/**
 * Tenant surface of the CRM integrations (issue 39, ADR 0065): the keys that hold a CRM scope, made,
 * revoked, given a new signing secret, and their delivery log. `integrations.manage`; no purchased
 * feature (a CRM needs no voice-OTP).
 */
export function integrationsRoutes(svc?: IntegrationsService) {
  return async function integrations(app: FastifyInstance): Promise<void> {
    const crm = svc ?? createIntegrationsService(app.deps.db, app.deps.switchboardHosts);
    const manage = guarded(PERM.integrations.manage);
    const keys = `/${INTEGRATIONS_TENANT_API.keys}`;

    app.get(keys, { preHandler: manage, schema: tenantSchema }, async (request) => {
      const search = (request.query as { search?: unknown }).search;
      const term = typeof search === 'string' ? search.trim().toLocaleLowerCase('vi') : '';
      const data = (await crm.listKeys(tid(request))).filter((k) => k.name.toLocaleLowerCase('vi').includes(term));
      return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
    });
    app.post(keys, { preHandler: [...manage, validate({ body: IntegrationKeyInputSchema })], schema: tenantSchema }, async (request, reply) => {
      const auth = authOf(request);
      return reply.status(201).send({ data: await crm.createKey(auth.tenantId, auth.maDn, auth.userId, request.body as IntegrationKeyInput) });
    });
    app.post(`${keys}/:id/revoke`, { preHandler: manage, schema: tenantSchema }, async (request) => ({ data: await crm.revokeKey(tid(request), idOf(request.params)) }));
    app.post(`${keys}/:id/webhook-secret`, { preHandler: manage, schema: tenantSchema }, async (request) => ({ data: await crm.rotateSecret(tid(request), idOf(request.params)) }));
    app.get(`/${INTEGRATIONS_TENANT_API.deliveries}`, { preHandler: [...manage, validateFilters(CallDeliveryQuerySchema)], schema: tenantSchema }, (request) =>
      crm.deliveries(tid(request), request.query as CallDeliveryQuery),
    );
  };
}
