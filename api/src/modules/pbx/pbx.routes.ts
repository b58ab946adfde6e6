import { invalidateRoutingOnWrite } from './config-freshness';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { AUDIO_MAX_BYTES, PBX_RESOURCES, PERM, PbxListQuerySchema, type PbxListQuery, type PbxResource } from '@tongdai/contracts';
import { validate } from '../../http/validate';
import { audioRoutes } from './audio.routes';
import { destinationsMap } from './destinations';
import { importRoutes } from './import.routes';
import { TenantMismatchError, pbxGuarded } from './pbx.errors';
import { PBX_DEFS, type AnyPbxDef } from './pbx.resources';
import { createPbxService, type PbxService } from './pbx.service';
import { idOf, parseId } from '../../http/params';
import { caller, pbxSchema } from './route-helpers';
import { subscriberBulkRoutes } from './subscribers-bulk';
import { timeRangeRoutes } from './time-ranges.routes';
import { holidayRoutes } from './holidays.routes';
import { loadPbxConfig } from './config';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The handlers of one resource, shared by its generic paths and the SPEC §7 aliases. */
function handlers(svc: PbxService) {
  return {
    list: (async (request) => svc.list(caller(request), request.query as PbxListQuery)) as Handler,
    all: (async (request) => ({ data: await svc.all(caller(request)) })) as Handler,
    get: (async (request) => ({ data: await svc.get(caller(request), idOf(request.params)) })) as Handler,
    create: (async (request, reply) => reply.status(201).send({ data: await svc.create(caller(request), request.body as Record<string, unknown>) })) as Handler,
    update: (async (request) => ({ data: await svc.update(caller(request), idOf(request.params), request.body as Record<string, unknown>) })) as Handler,
    remove: (async (request, reply) => {
      await svc.remove(caller(request), idOf(request.params));
      return reply.status(204).send();
    }) as Handler,
  };
}
type Handlers = ReturnType<typeof handlers>;

/** Route options per action: guard chain (+ body/query validation) and OpenAPI tags. */
function options(def: AnyPbxDef) {
  const schema = pbxSchema(def.tag);
  return {
    list: { preHandler: [...pbxGuarded(def.perm.view), validate({ query: PbxListQuerySchema })], schema },
    view: { preHandler: pbxGuarded(def.perm.view), schema },
    create: { preHandler: [...pbxGuarded(def.perm.create), validate({ body: def.schema })], schema },
    update: { preHandler: [...pbxGuarded(def.perm.edit), validate({ body: def.updateSchema ?? def.schema })], schema },
    remove: { preHandler: pbxGuarded(def.perm.delete), schema },
  };
}

/** GET list, POST, GET/PUT/DELETE :id of one resource under /partner/{r}. */
function crud(app: FastifyInstance, def: AnyPbxDef, svc: PbxService, h: Handlers): void {
  const o = options(def);
  const base = `/partner/${def.path}`;
  app.get(base, o.list, h.list);
  if (def.scope?.column === 'kind') audioRoutes(app, def, svc);
  else app.post(base, o.create, h.create);
  app.get(`${base}/:id`, o.view, detail(def, svc, h));
  app.put(`${base}/:id`, o.update, h.update);
  app.delete(`${base}/:id`, o.remove, h.remove);
}

/**
 * GET /partner/{r}/:id. Two SPEC shapes share it: /partner/number/{number} reads a number by its
 * digits, and /partner/group-inbounds/{ma_dn} lists ring groups (the tenant code, not an id).
 */
function detail(def: AnyPbxDef, svc: PbxService, h: Handlers): Handler {
  if (def.path === PBX_RESOURCES.number) {
    return async (request) => ({ data: await svc.byNumber(caller(request), String((request.params as { id: string }).id)) });
  }
  if (def.path !== PBX_RESOURCES.ringGroup) return h.get;
  return async (request, reply) => {
    const key = (request.params as { id: string }).id;
    if (key === caller(request).maDn) {
      const query = await validate({ query: PbxListQuerySchema })(request, reply).then(() => request.query as PbxListQuery);
      return query.dataType === 'all' ? { data: await svc.all(caller(request)) } : svc.list(caller(request), query);
    }
    if (!parseId(key)) throw new TenantMismatchError();
    return h.get(request, reply);
  };
}

/** SPEC §7 paths, each an alias of a generic handler with the same guard. */
function specAliases(app: FastifyInstance, defs: Map<PbxResource, AnyPbxDef>, h: Map<PbxResource, Handlers>): void {
  const route = (r: PbxResource) => ({ o: options(defs.get(r)!), h: h.get(r)! });
  const inbound = route(PBX_RESOURCES.inbound);
  app.get('/partner/inbound/john/incoming/:ma_dn', inbound.o.list, inbound.h.list);
  app.post('/partner/incoming', inbound.o.create, inbound.h.create);
  app.get('/inbound/john/incoming/detail/:id/:ma_dn', inbound.o.view, inbound.h.get);
  app.put('/incoming/:id', inbound.o.update, inbound.h.update);
  app.delete('/partner/incoming/:id', inbound.o.remove, inbound.h.remove);
  app.get('/partner/inbound/all/:ma_dn', inbound.o.view, inbound.h.all);
  for (const [path, r] of [
    ['/partner/ivr_detail/all/:ma_dn', PBX_RESOURCES.ivr],
    ['/partner/number/all/:ma_dn', PBX_RESOURCES.number],
    ['/partner/message/all/:ma_dn', PBX_RESOURCES.notification],
    ['/partner/time/condition/all/:ma_dn', PBX_RESOURCES.timeCondition],
  ] as const) {
    const x = route(r);
    app.get(path, x.o.view, x.h.all);
  }
}

/**
 * The voice PBX partner API (/pbx): generic REST per resource of PBX_RESOURCES, the exact SPEC §7
 * paths, destinations, inbound import, bulk subscriber delete, time-group ranges and public
 * holidays. Same bearer token as the tenant API; every ma_dn/CodeCompany must be the token's (else 403).
 */
export async function pbxRoutes(app: FastifyInstance): Promise<void> {
  invalidateRoutingOnWrite(app);
  // Registered here, so only the PBX routes accept multipart bodies (audio uploads, imports).
  await app.register(multipart, { limits: { fileSize: AUDIO_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
  const { db } = app.deps;
  const defs = new Map(PBX_DEFS.map((d) => [d.path, d]));
  const h = new Map<PbxResource, Handlers>();
  for (const def of PBX_DEFS) {
    const svc = createPbxService(db, def);
    h.set(def.path, handlers(svc));
    crud(app, def, svc, h.get(def.path)!);
  }
  specAliases(app, defs, h);

  app.get('/partner/destinations', { preHandler: pbxGuarded(PERM.general), schema: pbxSchema('destinations') }, async (request) => {
    const c = caller(request);
    return { data: destinationsMap(await db.withTenant(c.tenantId, (tx) => loadPbxConfig(tx, c.tenantId, c.maDn))) };
  });
  importRoutes(app);
  subscriberBulkRoutes(app);
  timeRangeRoutes(app);
  holidayRoutes(app);
}
