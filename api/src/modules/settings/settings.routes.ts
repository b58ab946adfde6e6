import type { FastifyInstance } from 'fastify';
import { PERM } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { getPaymentCheck, getSystemSetting } from './settings.repository';

/** Tenant surface: GET /get-system-setting, GET /payment-check (permission "general"). */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  app.get('/get-system-setting', { preHandler: guarded(PERM.general), schema: { tags: ['tenant'], security: [{ bearer: [] }] } }, async (request) => ({
    data: await db.withTenant(authOf(request).tenantId, getSystemSetting),
  }));
  app.get('/payment-check', { preHandler: guarded(PERM.general), schema: { tags: ['tenant'], security: [{ bearer: [] }] } }, async (request) => ({
    data: (await db.withTenant(authOf(request).tenantId, getPaymentCheck)) ?? { feature_name_data: [], date_expired: null },
  }));
}
