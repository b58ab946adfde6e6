import type { FastifyInstance } from 'fastify';
import {
  AccountCreateSchema, AccountListQuerySchema, AccountUpdateSchema, PasswordChangeSchema, PERM,
  type AccountCreateInput, type AccountListQuery, type AccountUpdateInput, type PasswordChangeInput,
} from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { validate } from '../../http/validate';
import { idOf } from '../../http/params';
import { createAccountsService } from './accounts.service';

const schema = { tags: ['tenant: accounts'], security: [{ bearer: [] }] };

/** Tenant surface: /accounts CRUD and PUT /accounts/{id}/password, gated by PERM.account.*. */
export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const accounts = createAccountsService(app.deps.db, app.deps.hub);
  const tid = (request: Parameters<typeof authOf>[0]) => authOf(request).tenantId;

  app.get('/accounts', { preHandler: [...guarded(PERM.account.view), validate({ query: AccountListQuerySchema })], schema }, (request) =>
    accounts.list(tid(request), request.query as AccountListQuery),
  );
  app.post('/accounts', { preHandler: [...guarded(PERM.account.create), validate({ body: AccountCreateSchema })], schema }, async (request, reply) =>
    reply.status(201).send({ data: await accounts.create(authOf(request), request.body as AccountCreateInput) }),
  );
  app.get('/accounts/:id', { preHandler: guarded(PERM.account.view), schema }, async (request) => ({
    data: await accounts.get(tid(request), idOf(request.params)),
  }));
  app.put('/accounts/:id', { preHandler: [...guarded(PERM.account.edit), validate({ body: AccountUpdateSchema })], schema }, async (request) => ({
    data: await accounts.update(authOf(request), idOf(request.params), request.body as AccountUpdateInput),
  }));
  app.delete('/accounts/:id', { preHandler: guarded(PERM.account.delete), schema }, async (request, reply) => {
    await accounts.remove(authOf(request), idOf(request.params));
    return reply.status(204).send();
  });
  app.put('/accounts/:id/password', { preHandler: [...guarded(PERM.account.changePassword), validate({ body: PasswordChangeSchema })], schema }, async (request, reply) => {
    await accounts.changePassword(authOf(request), idOf(request.params), request.body as PasswordChangeInput);
    return reply.status(204).send();
  });
}
