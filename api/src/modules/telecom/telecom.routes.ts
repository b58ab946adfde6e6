import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors';
import { authOf, declareAccess, guarded } from '../../http/guards';
import { listDirectory } from '../subscribers/subscribers.service';
import { findTenantByMaDn } from '../tenants/tenants.service';
import { TELECOM_API, TelecomCallLogQuerySchema, type TelecomCallLogQuery } from '@tongdai/contracts';
import { validateFilters } from '../../http/validate';
import { createHotlinesService } from './hotlines.service';
import { createShopKeys } from './shop-key';
import { createSwitchboardsService } from './switchboards.service';
import { PARTNER_DOCS } from './telecom-openapi';

// Both kinds of bearer are HTTP bearer tokens to OpenAPI: the user's session, or the shop key.
const schema = { tags: ['telecom'], security: [{ bearer: [] }] };
/** The tenant a shop key opened, per request (set by the preHandler, read by the handler). */
const shopTenant = new WeakMap<FastifyRequest, number>();

/**
 * Telecom surface (SPEC §7): GET /etelecom/GetShopKey hands the logged-in user's tenant its key;
 * every other telecom route takes that key as its bearer instead of a user's session. The key
 * opens only what any agent of the tenant may see, since every agent's softphone receives it.
 */
export async function telecomRoutes(app: FastifyInstance): Promise<void> {
  const keys = createShopKeys(app.deps.deriveKey);

  const requireShopKey = async (request: FastifyRequest) => {
    const key = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const maDn = key ? keys.tenantOf(key) : null;
    const tenant = maDn ? await findTenantByMaDn(app.deps.db, maDn) : null;
    if (!tenant) throw new AppError('UNAUTHORIZED');
    shopTenant.set(request, tenant.id);
  };
  const tenantOf = (request: FastifyRequest) => {
    const id = shopTenant.get(request);
    if (!id) throw new AppError('UNAUTHORIZED');
    return id;
  };

  app.get('/etelecom/GetShopKey', { preHandler: guarded(), schema }, async (request) => ({
    data: keys.issue(authOf(request).maDn),
  }));
  // The tenant's extensions, for the softphone's transfer targets on provider 2.
  app.get('/etelecom/extensions', { preHandler: declareAccess({ auth: 'shop-key' }, requireShopKey), schema }, async (request) => ({
    data: await app.deps.db.withTenant(tenantOf(request), listDirectory),
  }));

  // The partner API (issue 15, SPEC §7): the key's tenant's switchboards (no secrets), hotlines and
  // the calls through them, read-only.
  const boards = createSwitchboardsService(app.deps.db, app.deps.switchboardHosts);
  const hotlines = createHotlinesService(app.deps.db, app.deps.reportsDb);
  const shopKey = declareAccess({ auth: 'shop-key' }, requireShopKey);
  app.get(`/${TELECOM_API.partner.switchboards}`, { preHandler: shopKey, schema: { ...schema, ...PARTNER_DOCS.switchboards } }, async (request) => ({
    data: await boards.all(tenantOf(request)),
  }));
  app.get(`/${TELECOM_API.partner.hotlines}`, { preHandler: shopKey, schema: { ...schema, ...PARTNER_DOCS.hotlines } }, async (request) => ({
    data: await hotlines.all(tenantOf(request)),
  }));
  app.get(
    `/${TELECOM_API.partner.callLogs}`,
    { preHandler: [shopKey, validateFilters(TelecomCallLogQuerySchema)], schema: { ...schema, ...PARTNER_DOCS.callLogs } },
    async (request) => hotlines.calls(tenantOf(request), request.query as TelecomCallLogQuery),
  );
}
