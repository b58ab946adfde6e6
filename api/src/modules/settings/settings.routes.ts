import type { FastifyInstance } from 'fastify';
import { PERM, SystemSettingInputSchema, type SystemSettingInput } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { getPaymentCheck, getSystemSetting, upsertSystemSetting } from './settings.repository';
import { recordingSettingsRoutes } from './recording-settings.routes';

/**
 * Tenant surface: system settings and the payment check. Reading is open to every logged-in
 * user of the tenant (the softphone, the customer popup and phone masking depend on these
 * values for agents too); changing needs setting.edit. See docs/adr/0006.
 */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  const schema = { tags: ['tenant: settings'], security: [{ bearer: [] }] };
  app.get('/get-system-setting', { preHandler: guarded(PERM.general), schema }, async (request) => ({
    data: await db.withTenant(authOf(request).tenantId, getSystemSetting),
  }));
  app.put('/update-system-setting', { preHandler: [...guarded(PERM.setting.edit), validate({ body: SystemSettingInputSchema })], schema }, async (request) => {
    const { tenantId } = authOf(request);
    return { data: await db.withTenant(tenantId, (tx) => upsertSystemSetting(tx, tenantId, request.body as SystemSettingInput)) };
  });
  app.get('/payment-check', { preHandler: guarded(PERM.general), schema }, async (request) => ({
    data: (await db.withTenant(authOf(request).tenantId, getPaymentCheck)) ?? { feature_name_data: [], date_expired: null },
  }));
  // GET/PUT /recording-settings (issue 16), in a context of its own: its writes refresh call routing.
  await app.register(recordingSettingsRoutes);
}
