import type { FastifyInstance } from 'fastify';
import { HOLIDAY_API, HolidayOverrideInputSchema, HolidayYearQuerySchema, PERM, type HolidayOverrideInput, type HolidayYearQuery } from '@tongdai/contracts';
import { validate } from '../../http/validate';
import { idOf } from '../../http/params';
import * as holidays from '../holidays/holidays.service';
import { pbxGuarded } from './pbx.errors';
import { found } from './pbx.service';
import { caller, pbxSchema } from './route-helpers';
import { refreshTempOverrides } from './time-overrides';

/**
 * Vietnam's public holidays of time groups (issue 39, ADR 0063), behind the time groups' permissions:
 *   GET    /partner/holidays?year=            → { year, data: Holiday[] } (no year: the coming one)
 *   GET    /partner/holiday-overrides         → { data: HolidayOverride[] }
 *   POST   /partner/holiday-overrides         → 201 { data }  (add / remove / rename a day)
 *   GET, PUT, DELETE /partner/holiday-overrides/:id
 * An override changes what calls do: temporary overrides of time conditions on groups that mind
 * holidays are recomputed, and the routing snapshot is dropped (the plugin's write hook).
 */
export function holidayRoutes(app: FastifyInstance): void {
  const { db } = app.deps;
  const schema = pbxSchema('holidays');
  const perm = PERM.timegroup;
  const base = `/partner/${HOLIDAY_API.overrides}`;
  const body = validate({ body: HolidayOverrideInputSchema });

  app.get(`/partner/${HOLIDAY_API.holidays}`, { preHandler: [...pbxGuarded(perm.view), validate({ query: HolidayYearQuerySchema })], schema }, async (request) => {
    const { year } = request.query as HolidayYearQuery;
    return db.withTenant(caller(request).tenantId, (tx) => holidays.holidayYear(tx, year, new Date()));
  });

  app.get(base, { preHandler: pbxGuarded(perm.view), schema }, async (request) => ({
    data: await db.withTenant(caller(request).tenantId, (tx) => holidays.listOverrides(tx)),
  }));

  app.get(`${base}/:id`, { preHandler: pbxGuarded(perm.view), schema }, async (request) => ({
    data: found(await db.withTenant(caller(request).tenantId, (tx) => holidays.getOverride(tx, idOf(request.params)))),
  }));

  app.post(base, { preHandler: [...pbxGuarded(perm.edit), body], schema }, async (request, reply) => {
    const c = caller(request);
    const data = await db.withTenant(c.tenantId, async (tx) => {
      const created = await holidays.createOverride(tx, c.tenantId, request.body as HolidayOverrideInput);
      await refreshTempOverrides(tx);
      return created;
    });
    return reply.status(201).send({ data });
  });

  app.put(`${base}/:id`, { preHandler: [...pbxGuarded(perm.edit), body], schema }, async (request) => {
    const data = await db.withTenant(caller(request).tenantId, async (tx) => {
      const updated = found(await holidays.updateOverride(tx, idOf(request.params), request.body as HolidayOverrideInput));
      await refreshTempOverrides(tx);
      return updated;
    });
    return { data };
  });

  app.delete(`${base}/:id`, { preHandler: pbxGuarded(perm.edit), schema }, async (request, reply) => {
    await db.withTenant(caller(request).tenantId, async (tx) => {
      found(await holidays.deleteOverride(tx, idOf(request.params)));
      await refreshTempOverrides(tx);
    });
    return reply.status(204).send();
  });
}
