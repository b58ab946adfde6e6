import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { OrgListQuerySchema, PERM, refFilter, type OrgListQuery } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { ENTITIES, type EntityDef } from './org.entities';
import { allDepartments, allTeams, dataFilter } from './org.repository';
import { createOrgService } from './org.service';

const tid = (request: FastifyRequest) => authOf(request).tenantId;
const TeamFilter = v.object({ department_id: refFilter });

/** GET list, POST, GET/PUT/DELETE :id for one entity, each gated by its own permission. */
function crud(app: FastifyInstance, def: EntityDef): void {
  const svc = createOrgService(app.deps.db, def);
  const schema = { tags: [`tenant: ${def.tag}`], security: [{ bearer: [] }] };
  const base = `/${def.path}`;
  app.get(base, { preHandler: [...guarded(def.perm.view), validate({ query: OrgListQuerySchema })], schema }, (request) =>
    svc.list(tid(request), request.query as OrgListQuery),
  );
  app.post(base, { preHandler: [...guarded(def.perm.create), validate({ body: def.schema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await svc.create(tid(request), request.body as Record<string, unknown>) }),
  );
  app.get(`${base}/:id`, { preHandler: guarded(def.perm.view), schema }, async (request) => ({ data: await svc.get(tid(request), idOf(request.params)) }));
  app.put(`${base}/:id`, { preHandler: [...guarded(def.perm.edit), validate({ body: def.schema })], schema }, async (request) => ({
    data: await svc.update(tid(request), idOf(request.params), request.body as Record<string, unknown>),
  }));
  app.delete(`${base}/:id`, { preHandler: guarded(def.perm.delete), schema }, async (request, reply) => {
    await svc.remove(tid(request), idOf(request.params));
    return reply.status(204).send();
  });
}

/**
 * Tenant surface: the organisation CRUD, plus the SPEC §7 dropdown calls (/all-department,
 * /all-team, /get-data-filter) that any logged-in user of the tenant may make ("general").
 */
export async function orgRoutes(app: FastifyInstance): Promise<void> {
  for (const def of ENTITIES) crud(app, def);
  const { db } = app.deps;
  const schema = { tags: ['tenant: organisation'], security: [{ bearer: [] }] };
  app.get('/all-department', { preHandler: guarded(PERM.general), schema }, async (request) => ({
    data: await db.withTenant(tid(request), allDepartments),
  }));
  app.get('/all-team', { preHandler: [...guarded(PERM.general), validate({ query: TeamFilter })], schema }, async (request) => ({
    data: await db.withTenant(tid(request), (tx) => allTeams(tx, (request.query as v.InferOutput<typeof TeamFilter>).department_id)),
  }));
  app.get('/get-data-filter', { preHandler: guarded(PERM.general), schema }, async (request) => ({
    data: await db.withTenant(tid(request), dataFilter),
  }));
}
