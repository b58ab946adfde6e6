import type { FastifyInstance } from 'fastify';
import { PBX_MSG, TimeRangeInputSchema, type TimeGroup, type TimeRangeInput } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { validate } from '../../http/validate';
import { ConflictError } from '../../http/errors';
import { pbxGuarded } from './pbx.errors';
import { getRow } from './pbx.repository';
import { RANGE_COLUMNS, TIME_GROUP, insertRange } from './pbx.resources';
import { found } from './pbx.service';
import { idOf } from '../../http/params';
import { caller, pbxSchema } from './route-helpers';
import { refreshTempOverrides } from './time-overrides';

const group = async (tx: Queryable, id: number) => found(await getRow(tx, TIME_GROUP, id)) as unknown as TimeGroup;

/** Ranges changed: the group is stamped, and its temporary overrides may end at another moment. */
async function afterRangesChanged(tx: Queryable, groupId: number): Promise<TimeGroup> {
  await tx.query('update pbx_time_groups set updated_at = now() where id = $1', [groupId]);
  await refreshTempOverrides(tx, [groupId]);
  return group(tx, groupId);
}

/**
 * One range of a time group (/time-groups/edit/:id/:detailId): POST …/:id/ranges,
 * GET/PUT/DELETE …/:id/ranges/:detailId. Writes answer the whole group; a group keeps at least one
 * range, but for one that holds on holidays.
 */
export function timeRangeRoutes(app: FastifyInstance): void {
  const { db } = app.deps;
  const schema = pbxSchema(TIME_GROUP.tag);
  const base = `/partner/${TIME_GROUP.path}/:id/ranges`;
  const perm = TIME_GROUP.perm;
  const body = validate({ body: TimeRangeInputSchema });
  const ids = (params: unknown) => ({ groupId: idOf(params), rangeId: idOf(params, 'detailId') });

  app.post(base, { preHandler: [...pbxGuarded(perm.edit), body], schema }, async (request, reply) => {
    const c = caller(request);
    const data = await db.withTenant(c.tenantId, async (tx) => {
      const groupId = (await group(tx, idOf(request.params))).id;
      await insertRange(tx, c.tenantId, groupId, request.body as TimeRangeInput);
      return afterRangesChanged(tx, groupId);
    });
    return reply.status(201).send({ data });
  });

  app.get(`${base}/:detailId`, { preHandler: pbxGuarded(perm.view), schema }, async (request) => {
    const { groupId, rangeId } = ids(request.params);
    const g = await db.withTenant(caller(request).tenantId, (tx) => group(tx, groupId));
    return { data: found(g.ranges.find((r) => r.id === rangeId)) };
  });

  app.put(`${base}/:detailId`, { preHandler: [...pbxGuarded(perm.edit), body], schema }, async (request) => {
    const { groupId, rangeId } = ids(request.params);
    const input = request.body as TimeRangeInput;
    const data = await db.withTenant(caller(request).tenantId, async (tx) => {
      const sets = RANGE_COLUMNS.map((col, i) => `${col} = $${i + 3}`).join(', ');
      const { rows } = await tx.query(`update pbx_time_ranges set ${sets} where id = $1 and time_group_id = $2 returning id`, [
        rangeId,
        groupId,
        ...RANGE_COLUMNS.map((col) => input[col]),
      ]);
      found(rows.length);
      return afterRangesChanged(tx, groupId);
    });
    return { data };
  });

  app.delete(`${base}/:detailId`, { preHandler: pbxGuarded(perm.edit), schema }, async (request, reply) => {
    const { groupId, rangeId } = ids(request.params);
    await db.withTenant(caller(request).tenantId, async (tx) => {
      const g = await group(tx, groupId);
      found(g.ranges.some((r) => r.id === rangeId));
      // A holidays-only group ("include") may lose its last range; any other keeps one.
      if (g.ranges.length === 1 && g.holiday_mode !== 'include') throw new ConflictError(PBX_MSG.rangeRequired);
      await tx.query('delete from pbx_time_ranges where id = $1', [rangeId]);
      await afterRangesChanged(tx, groupId);
    });
    return reply.status(204).send();
  });
}
