import { phoneVariants, type Customer, type CustomerInput, type CustomerListQuery, type Paged } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { AppError } from '../../http/errors';
import * as repo from './customers.repository';
import { checkCustomerLabels } from '../org/org.service';

/** Another tenant's customer is invisible under RLS, so it is simply "not found". */
function found<T>(value: T | null | false): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

export function createCustomersService(db: Db) {
  return {
    async list(tenantId: number, q: CustomerListQuery): Promise<Paged<Customer>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listCustomers(tx, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    /** null when no customer has this number (the popup then offers to create one). */
    byPhone: (tenantId: number, phone: string) => db.withTenant(tenantId, (tx) => repo.findCustomerByPhone(tx, phoneVariants(phone), phone)),
    get: async (tenantId: number, id: number) => found(await db.withTenant(tenantId, (tx) => repo.getCustomer(tx, id))),
    create: (tenantId: number, input: CustomerInput) =>
      db.withTenant(tenantId, async (tx) => {
        await checkCustomerLabels(tx, input);
        return repo.insertCustomer(tx, tenantId, input);
      }),
    update: async (tenantId: number, id: number, input: CustomerInput) =>
      found(
        await db.withTenant(tenantId, async (tx) => {
          await checkCustomerLabels(tx, input);
          return repo.updateCustomer(tx, id, input);
        }),
      ),
    async remove(tenantId: number, id: number): Promise<void> {
      found(await db.withTenant(tenantId, (tx) => repo.deleteCustomer(tx, id)));
    },
  };
}
