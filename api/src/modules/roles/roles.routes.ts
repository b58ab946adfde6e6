import type { FastifyInstance } from 'fastify';
import { PERM, RoleListQuerySchema, type Paged, type RoleRow } from '@tongdai/contracts';
import type * as v from 'valibot';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { listPermissions, listRoles } from './roles.repository';

const schema = { tags: ['tenant'], security: [{ bearer: [] }] };

/** Tenant surface: GET /roles (per_page 9999999 = all), GET /permissions. */
export async function rolesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  app.get('/roles', { preHandler: [...guarded(PERM.role.view), validate({ query: RoleListQuerySchema })], schema }, async (request): Promise<Paged<RoleRow>> => {
    const q = request.query as v.InferOutput<typeof RoleListQuerySchema>;
    const { rows, total } = await db.withTenant(authOf(request).tenantId, (tx) => listRoles(tx, q.page, q.per_page));
    return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
  });
  app.get('/permissions', { preHandler: guarded(PERM.role.view), schema }, async (request) => ({
    data: await db.withTenant(authOf(request).tenantId, listPermissions),
  }));
}
