import { CUSTOMER_MSG, displayForm, phoneVariants, storedForm, storedSearchForm, type Customer, type CustomerInput, type CustomerListQuery, type Paged } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import * as repo from './customers.repository';
import { checkCustomerLabels } from '../org/org.service';

/** Another tenant's customer is invisible under RLS, so it is simply "not found". */
function found<T>(value: T | null | false): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

/** The staff member a customer is assigned to is a user of the same tenant (issue 12 §6: 12345, −1, another tenant's user were stored). */
async function checkAssignee(tx: Queryable, tenantId: number, input: CustomerInput): Promise<void> {
  if (input.user_id === null) return;
  const { rows } = await tx.query('select 1 from users where id = $1 and tenant_id = $2', [input.user_id, tenantId]);
  if (!rows.length) throw new AppError('VALIDATION_FAILED', [{ field: 'user_id', message: CUSTOMER_MSG.userUnknown }]);
}

/** One phone rule (ADR 0016): the phone is stored 84… (accepted 0… or 84…), answered 0…. */
const stored = (input: CustomerInput): CustomerInput => ({ ...input, phone: storedForm(input.phone) });
function shown<T extends Customer | null>(c: T): T {
  return c && { ...c, phone: displayForm(c.phone) };
}

export function createCustomersService(db: Db) {
  return {
    async list(tenantId: number, q: CustomerListQuery): Promise<Paged<Customer>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listCustomers(tx, q, storedSearchForm(q.search)));
      return { data: rows.map(shown), meta: { page: q.page, per_page: q.per_page, total } };
    },
    /** null when no customer has this number (the popup then offers to create one). */
    byPhone: async (tenantId: number, phone: string) => shown(await db.withTenant(tenantId, (tx) => repo.findCustomerByPhone(tx, phoneVariants(phone)))),
    /** byPhone for many numbers in one query: number → customer, numbers without one left out. */
    async byPhones(tenantId: number, phones: string[]): Promise<Map<string, Customer>> {
      // Each written form (variant) → the numbers asked that it is a form of (an export asks thousands at once).
      const asking = new Map<string, string[]>();
      for (const n of new Set(phones)) {
        for (const variant of phoneVariants(n)) {
          const askers = asking.get(variant);
          if (!askers) asking.set(variant, [n]);
          else if (!askers.includes(n)) askers.push(n);
        }
      }
      const found = await db.withTenant(tenantId, (tx) => repo.findCustomersByPhones(tx, asking));
      for (const [n, c] of found) found.set(n, shown(c));
      return found;
    },
    get: async (tenantId: number, id: number) => shown(found(await db.withTenant(tenantId, (tx) => repo.getCustomer(tx, id)))),
    create: async (tenantId: number, input: CustomerInput) =>
      shown(
        await db.withTenant(tenantId, async (tx) => {
          await checkCustomerLabels(tx, input);
          await checkAssignee(tx, tenantId, input);
          return repo.insertCustomer(tx, tenantId, stored(input));
        }),
      ),
    update: async (tenantId: number, id: number, input: CustomerInput) =>
      shown(
        found(
          await db.withTenant(tenantId, async (tx) => {
            await checkCustomerLabels(tx, input);
            await checkAssignee(tx, tenantId, input);
            return repo.updateCustomer(tx, id, stored(input));
          }),
        ),
      ),
    async remove(tenantId: number, id: number): Promise<void> {
      found(await db.withTenant(tenantId, (tx) => repo.deleteCustomer(tx, id)));
    },
  };
}
