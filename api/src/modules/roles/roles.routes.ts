import type { FastifyInstance } from 'fastify';
import { PERM, RoleInputSchema, RolePasswordSchema, RoleSearchQuerySchema, type RoleInput, type RolePasswordInput, type RoleSearchQuery } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { listPermissions } from './roles.repository';
import { createRolesService } from './roles.service';

const schema = { tags: ['tenant: roles'], security: [{ bearer: [] }] };

/** Tenant surface: GET /roles (per_page 9999999 = all), /role/{id} CRUD, GET /permissions. */
export async function rolesRoutes(app: FastifyInstance): Promise<void> {
  const roles = createRolesService(app.deps.db, app.deps.hub);
  const tid = (request: Parameters<typeof authOf>[0]) => authOf(request).tenantId;

  app.get('/roles', { preHandler: [...guarded(PERM.role.view), validate({ query: RoleSearchQuerySchema })], schema }, (request) =>
    roles.list(tid(request), request.query as RoleSearchQuery),
  );
  app.get('/permissions', { preHandler: guarded(PERM.role.view), schema }, async (request) => ({
    data: await app.deps.db.withTenant(tid(request), listPermissions),
  }));
  app.post('/role', { preHandler: [...guarded(PERM.role.create), validate({ body: RoleInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await roles.create(authOf(request), request.body as RoleInput) }),
  );
  app.get('/role/:id', { preHandler: guarded(PERM.role.view), schema }, async (request) => ({ data: await roles.get(tid(request), idOf(request.params)) }));
  app.put('/role/:id', { preHandler: [...guarded(PERM.role.edit), validate({ body: RoleInputSchema })], schema }, async (request) => ({
    data: await roles.update(authOf(request), idOf(request.params), request.body as RoleInput),
  }));
  app.delete('/role/:id', { preHandler: guarded(PERM.role.delete), schema }, async (request, reply) => {
    await roles.remove(tid(request), idOf(request.params));
    return reply.status(204).send();
  });
  app.put('/role/:id/password', { preHandler: [...guarded(PERM.role.changePassword), validate({ body: RolePasswordSchema })], schema }, async (request, reply) => {
    await roles.changePassword(authOf(request), idOf(request.params), request.body as RolePasswordInput);
    return reply.status(204).send();
  });
}
