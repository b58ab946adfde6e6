import type { FastifyInstance } from 'fastify';
import { PERM, RECORDING_API, RecordingSettingsSchema, type RecordingSettings } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { invalidateRoutingOnWrite } from '../pbx/pbx.service';
import { getRecordingSettings, saveRecordingSettings } from './settings.repository';

/**
 * Tenant surface: which calls are recorded and how long recordings are kept (issue 16, ADR 0041).
 * Queues and extensions may set their own mode (their forms); this is the tenant's. A saved mode
 * is the next call's: the routing configuration is marked changed like a PBX object's write.
 */
export async function recordingSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  const schema = { tags: ['tenant: settings'], security: [{ bearer: [] }] };
  invalidateRoutingOnWrite(app);
  app.get(`/${RECORDING_API.settings}`, { preHandler: guarded(PERM.setting.view), schema }, async (request) => ({
    data: await db.withTenant(authOf(request).tenantId, getRecordingSettings),
  }));
  app.put(`/${RECORDING_API.settings}`, { preHandler: [...guarded(PERM.setting.edit), validate({ body: RecordingSettingsSchema })], schema }, async (request) => {
    const { tenantId } = authOf(request);
    return { data: await db.withTenant(tenantId, (tx) => saveRecordingSettings(tx, tenantId, request.body as RecordingSettings)) };
  });
}
