import { CUSTOMER_MSG, displayForm, phoneVariants, significantNumber, storedForm, storedSearchForm, type Customer, type CustomerInput, type CustomerListQuery, type Paged } from '@tongdai/contracts';
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

/**
 * Each written form to look for → the numbers asked that it is a form of. A Vietnamese number is
 * looked for in its stored form only: every customer phone is stored 84… (ADR 0016: written through
 * storedForm, older rows rewritten by migration 0013), so none is stored 0…, +84… or bare. A number
 * outside the plan may be stored as typed, so it is looked for in every form (phoneVariants). One
 * index probe per number instead of three or four (an export asks thousands at once, ADR 0029).
 */
function askingForms(phones: readonly string[]): Map<string, string[]> {
  const asking = new Map<string, string[]>();
  for (const n of new Set(phones)) {
    for (const form of significantNumber(n) === null ? phoneVariants(n) : [storedForm(n)]) {
      const askers = asking.get(form);
      if (!askers) asking.set(form, [n]);
      else if (!askers.includes(n)) askers.push(n);
    }
  }
  return asking;
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
      const found = await db.withTenant(tenantId, (tx) => repo.findCustomersByPhones(tx, askingForms(phones)));
      for (const [n, c] of found) found.set(n, shown(c));
      return found;
    },
    /** byPhones' customers, their names only (an export's lines): number → name. */
    namesByPhones: (tenantId: number, phones: string[]): Promise<Map<string, string>> =>
      db.withTenant(tenantId, (tx) => repo.findCustomerNamesByPhones(tx, askingForms(phones))),
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
