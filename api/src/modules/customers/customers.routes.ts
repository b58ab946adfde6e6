import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { CustomerInputSchema, CustomerListQuerySchema, DIALLED_NUMBER_PATTERN, FEATURES, MSG, PERM, type CustomerInput, type CustomerListQuery, type DialTarget } from '@tongdai/contracts';
import { authOf, guarded } from '../../http/guards';
import { idOf } from '../../http/params';
import { validate } from '../../http/validate';
import { createCustomersService } from './customers.service';
import { maskCustomer, maskCustomerList } from '../settings/settings.service';

/** A caller ID as SIP shows it: digits, an optional leading +. */
const PhoneParams = v.object({
  ma_dn: v.string(),
  phone: v.pipe(v.string(), v.regex(DIALLED_NUMBER_PATTERN, MSG.phoneFormat)),
});
const schema = { tags: ['tenant: customers'], security: [{ bearer: [] }] };

/** Tenant surface: /customers CRUD, gated by permission and the purchased "customer" feature. */
export async function customersRoutes(app: FastifyInstance): Promise<void> {
  const customers = createCustomersService(app.deps.db);
  const gate = (perm: string) => guarded(perm, FEATURES.customer);
  const tid = (request: Parameters<typeof authOf>[0]) => authOf(request).tenantId;

  app.get('/customers', { preHandler: [...gate(PERM.customer.view), validate({ query: CustomerListQuerySchema })], schema }, async (request) =>
    maskCustomerList(app.deps.db, request, await customers.list(tid(request), request.query as CustomerListQuery)),
  );
  app.post('/customers', { preHandler: [...gate(PERM.customer.create), validate({ body: CustomerInputSchema })], schema }, async (request, reply) => {
    const created = await customers.create(tid(request), request.body as CustomerInput);
    return reply.status(201).send({ data: created });
  });
  // The softphone's customer popup: the customer a caller ID belongs to, masked like any read.
  app.get('/customers/by-phone/:phone', { preHandler: [...gate(PERM.customer.view), validate({ params: PhoneParams })], schema }, async (request) => {
    const found = await customers.byPhone(tid(request), (request.params as v.InferOutput<typeof PhoneParams>).phone);
    return { data: found && (await maskCustomer(app.deps.db, request, found)) };
  });
  app.get('/customers/:id', { preHandler: gate(PERM.customer.view), schema }, async (request) => ({
    data: await maskCustomer(app.deps.db, request, await customers.get(tid(request), idOf(request.params))),
  }));
  // Click-to-call: the number the softphone dials, unmasked (it has to dial it); the list and the
  // detail stay masked, so the page that shows the customer never holds the number.
  app.get('/customers/:id/dial', { preHandler: gate(PERM.customer.view), schema }, async (request): Promise<{ data: DialTarget }> => ({
    data: { number: (await customers.get(tid(request), idOf(request.params))).phone },
  }));
  app.put('/customers/:id', { preHandler: [...gate(PERM.customer.edit), validate({ body: CustomerInputSchema })], schema }, async (request) => ({
    data: await customers.update(tid(request), idOf(request.params), request.body as CustomerInput),
  }));
  app.delete('/customers/:id', { preHandler: gate(PERM.customer.delete), schema }, async (request, reply) => {
    await customers.remove(tid(request), idOf(request.params));
    return reply.status(204).send();
  });
}
