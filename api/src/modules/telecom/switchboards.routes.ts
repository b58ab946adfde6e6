import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  HotlineInputSchema, HotlineUpdateSchema, PERM, SwitchboardInputSchema, TELECOM_API, TelecomListQuerySchema,
  type HotlineInput, type HotlineUpdate, type SwitchboardInput, type TelecomListQuery,
} from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { invalidateRoutingOnWrite } from '../pbx/pbx.service';
import { createHotlinesService } from './hotlines.service';
import { createSwitchboardsService } from './switchboards.service';

const schema = { tags: ['tenant: telecom'], security: [{ bearer: [] }] };
const caller = (request: FastifyRequest) => ({ tenantId: authOf(request).tenantId, maDn: authOf(request).maDn });
const tenantOf = (request: FastifyRequest) => authOf(request).tenantId;

/**
 * Tenant surface: the etelecom screens (issue 15). Switchboards (carrier trunks; the password is
 * written, never read back) and hotlines (numbers bound to a switchboard, with their inbound
 * route), telecom.view to read, telecom.create/edit/delete to write; the calls through the
 * hotlines. A write changes what calls do: the tenant's routing snapshot is marked stale.
 */
export async function switchboardsRoutes(app: FastifyInstance): Promise<void> {
  invalidateRoutingOnWrite(app);
  const boards = createSwitchboardsService(app.deps.db, app.deps.switchboardHosts);
  const hotlines = createHotlinesService(app.deps.db, app.deps.reportsDb);
  const P = PERM.telecom;
  const one = `/${TELECOM_API.switchboard(':id')}`;
  const list = `/${TELECOM_API.switchboards}`;

  app.get(list, { preHandler: [...guarded(P.view), validate({ query: TelecomListQuerySchema })], schema }, async (request) =>
    boards.list(tenantOf(request), request.query as TelecomListQuery),
  );
  app.get(one, { preHandler: guarded(P.view), schema }, async (request) => ({ data: await boards.get(tenantOf(request), idOf(request.params)) }));
  app.post(list, { preHandler: [...guarded(P.create), validate({ body: SwitchboardInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await boards.create(tenantOf(request), request.body as SwitchboardInput) }),
  );
  app.put(one, { preHandler: [...guarded(P.edit), validate({ body: SwitchboardInputSchema })], schema }, async (request) => ({
    data: await boards.update(tenantOf(request), idOf(request.params), request.body as SwitchboardInput),
  }));
  app.delete(one, { preHandler: guarded(P.delete), schema }, async (request, reply) => {
    await boards.remove(tenantOf(request), idOf(request.params));
    return reply.status(204).send();
  });

  const hotline = `/${TELECOM_API.hotline(':id')}`;
  const hotlineList = `/${TELECOM_API.hotlines}`;
  app.get(hotlineList, { preHandler: [...guarded(P.view), validate({ query: TelecomListQuerySchema })], schema }, async (request) =>
    hotlines.list(tenantOf(request), request.query as TelecomListQuery),
  );
  app.get(hotline, { preHandler: guarded(P.view), schema }, async (request) => ({ data: await hotlines.get(tenantOf(request), idOf(request.params)) }));
  app.post(hotlineList, { preHandler: [...guarded(P.create), validate({ body: HotlineInputSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await hotlines.create(caller(request), request.body as HotlineInput) }),
  );
  app.put(hotline, { preHandler: [...guarded(P.edit), validate({ body: HotlineUpdateSchema })], schema }, async (request) => ({
    data: await hotlines.update(caller(request), idOf(request.params), request.body as HotlineUpdate),
  }));
  app.delete(hotline, { preHandler: guarded(P.delete), schema }, async (request, reply) => {
    await hotlines.remove(caller(request), idOf(request.params));
    return reply.status(204).send();
  });
}
