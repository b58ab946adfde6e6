import type { FastifyRequest } from 'fastify';
import { hasPermission, maskPhone, PERM, PHONE_PATTERN, type Customer, type Paged, type SystemSetting } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { authOf } from '../../http/guards';
import { getSystemSetting } from './settings.repository';

type Mask = (c: Customer) => Customer;

/** The tenant's rule for a phone number, or null when hidden_phone_customer is off (docs/adr/0006). */
export async function phoneMasker(db: Db, tenantId: number): Promise<((phone: string) => string) | null> {
  return maskRule(await db.withTenant(tenantId, getSystemSetting));
}

const maskRule = (s: SystemSetting): ((phone: string) => string) | null =>
  s.hidden_phone_customer === 1 ? (v: string) => maskPhone(v, s.position_hidden_phone_customer) : null;

/**
 * The tenant's masking rule for a customer, or null when hidden_phone_customer is off. The setting is
 * read from memory when the request's checks read the tenant's access version (security/access-cache.ts).
 */
async function masker(db: Db, request: FastifyRequest): Promise<Mask | null> {
  const { tenantId } = authOf(request);
  const read = () => db.withTenant(tenantId, getSystemSetting);
  const hide = maskRule(await (request.accessVersion ? request.server.deps.accessCache.get(tenantId, request.accessVersion, 'system-setting', read) : read()));
  if (!hide) return null;
  // zalo is very often the same phone number: hiding one and not the other would hide nothing.
  return (c) => ({ ...c, phone: hide(c.phone), zalo: PHONE_PATTERN.test(c.zalo) ? hide(c.zalo) : c.zalo });
}

/** GET /customers: masked for everybody while the setting is on. */
export async function maskCustomerList(db: Db, request: FastifyRequest, page: Paged<Customer>): Promise<Paged<Customer>> {
  const mask = await masker(db, request);
  return mask ? { ...page, data: page.data.map(mask) } : page;
}

/** GET /customers/:id: full number for whoever may edit the customer (the edit form needs it). */
export async function maskCustomer(db: Db, request: FastifyRequest, customer: Customer): Promise<Customer> {
  const auth = authOf(request);
  request.authRoles ??= await request.server.deps.sessions.roles(auth);
  const canEdit = request.authRoles.some((r) => hasPermission({ name: r.name, permissions: r.permissions.map((name) => ({ name })) }, PERM.customer.edit));
  if (canEdit) return customer;
  const mask = await masker(db, request);
  return mask ? mask(customer) : customer;
}
