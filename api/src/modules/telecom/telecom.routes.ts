import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors';
import { authOf, declareAccess, guarded } from '../../http/guards';
import { listDirectory } from '../subscribers/subscribers.service';
import { findTenantByMaDn } from '../tenants/tenants.service';
import { createShopKeys } from './shop-key';

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
}
