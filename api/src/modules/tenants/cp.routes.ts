import type { FastifyInstance } from 'fastify';
import { MaxUserSchema, PERM } from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { maxUser } from './tenants.repository';

/** Control panel: POST /get-max-user-company-tenancy {ma_dn} — only for the token's own tenant. */
export async function cpRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  app.post(
    '/get-max-user-company-tenancy',
    { preHandler: [...guarded(PERM.general), validate({ body: MaxUserSchema })], schema: { tags: ['control panel'], security: [{ bearer: [] }] } },
    async (request) => {
      const result = await db.withTenant(authOf(request).tenantId, maxUser);
      if (!result) throw new AppError('NOT_FOUND');
      return { data: result };
    },
  );
}
