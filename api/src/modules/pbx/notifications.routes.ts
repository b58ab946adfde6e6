import type { FastifyInstance } from 'fastify';
import { FEATURES, PERM, PBX_RESOURCES, SubscriberListQuerySchema, type Paged, type PbxPage, type SubscriberListQuery } from '@tongdai/contracts';
import { guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { PBX_DEFS } from './pbx.resources';
import type { PbxRow } from './pbx.repository';
import { createPbxService } from './pbx.service';
import { caller } from './route-helpers';

/**
 * Tenant API GET /notifications (SPEC §7): the tenant's notifications (the announcements of the
 * /notifications screen, the same rows as the partner API's /partner/message), paged the tenant
 * API's way (page, per_page, search → { data, meta }). RLS keeps each tenant to its own rows.
 */
export async function tenantNotificationsRoutes(app: FastifyInstance): Promise<void> {
  const def = PBX_DEFS.find((d) => d.path === PBX_RESOURCES.notification)!;
  const notifications = createPbxService(app.deps.db, def);
  app.get(
    '/notifications',
    {
      // The tenant API's list query (page, per_page, search) is the same as the subscribers list's.
      preHandler: [...guarded(PERM.notification.view, FEATURES.pbx), validate({ query: SubscriberListQuerySchema })],
      schema: { tags: ['tenant: notifications'], security: [{ bearer: [] }] },
    },
    async (request): Promise<Paged<PbxRow>> => {
      const q = request.query as SubscriberListQuery;
      const query = { page: q.page, page_size: q.per_page, search: q.search, filter_action: '' as const, dataType: '' as const };
      const page = (await notifications.list(caller(request), query)) as PbxPage<PbxRow>;
      return { data: page.data, meta: { page: page.page, per_page: page.page_size, total: page.total } };
    },
  );
}
