import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { MSG, PERM } from '@tongdai/contracts';
import { validate } from '../../http/validate';
import { loadPbxConfig } from './config';
import { pbxGuarded } from './pbx.errors';
import { found } from './pbx.service';
import { refuseIfUsed } from './references';
import { caller, pbxSchema } from './route-helpers';

const BulkQuery = v.object({
  ids: v.pipe(
    v.string(MSG.required),
    v.trim(),
    v.nonEmpty(MSG.required),
    v.regex(/^\d{1,9}(\s*,\s*\d{1,9})*$/, 'Giá trị không hợp lệ'),
    v.transform((s) => [...new Set(s.split(',').map((x) => Number(x.trim())))]),
  ),
  ma_dn: v.optional(v.string()),
  CodeCompany: v.optional(v.string()),
});

/**
 * DELETE /partner/subscriber/delete/all?ma_dn=&ids=1,2,3 (SPEC §7): all of those extensions or
 * none — an id the tenant does not have is 404, an extension a ring group, queue or destination
 * still uses is 409 naming that object.
 */
export function subscriberBulkRoutes(app: FastifyInstance): void {
  const { db } = app.deps;
  app.delete(
    '/partner/subscriber/delete/all',
    { preHandler: [...pbxGuarded(PERM.subscriber.delete), validate({ query: BulkQuery })], schema: pbxSchema('subscribers') },
    async (request) => {
      const c = caller(request);
      const { ids } = request.query as v.InferOutput<typeof BulkQuery>;
      const deleted = await db.withTenant(c.tenantId, async (tx) => {
        const { rows } = await tx.query<{ extension: string }>('select extension from subscribers where id = any($1::int[])', [ids]);
        found(rows.length === ids.length);
        refuseIfUsed(await loadPbxConfig(tx, c.tenantId, c.maDn), rows.map((r) => `ext:${r.extension}`));
        return (await tx.query('delete from subscribers where id = any($1::int[]) returning id', [ids])).rows.length;
      });
      return { data: { deleted } };
    },
  );
}
