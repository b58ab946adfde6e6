import type { Customer, CustomerInput, CustomerListQuery } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { iso, likePattern } from '../../db/sql';

/** Runs inside withTenant: no query here names a tenant, RLS supplies it. */

const COLUMNS = `id, name, code, email, phone, address, zalo, facebook, status, note, user_id,
  note_in_calling, is_datasource, is_project, is_status, created_at, updated_at`;
const INPUT_FIELDS = ['name', 'code', 'email', 'phone', 'address', 'zalo', 'facebook', 'status', 'note', 'user_id', 'is_project', 'is_datasource', 'is_status'] as const;

type Row = Omit<Customer, 'created_at' | 'updated_at'> & { created_at: Date | string; updated_at: Date | string };
const toCustomer = (r: Row): Customer => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

/** `phoneSearch`: the search as the start of a stored phone number (84…), when it reads as one. */
export async function listCustomers(tx: Queryable, q: CustomerListQuery, phoneSearch: string | null = null): Promise<{ rows: Customer[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    params.push(likePattern(q.search));
    // search_text: name, phone, code and email folded once per write (migration 0011), so a search
    // does not fold four columns of every row of the tenant.
    const typed = `search_text like fold($${params.length})`;
    if (phoneSearch) params.push(likePattern(phoneSearch));
    where.push(phoneSearch ? `(${typed} or search_text like fold($${params.length}))` : typed);
  }
  if (q.status) {
    params.push(q.status);
    where.push(`status = $${params.length}`);
  }
  for (const label of ['is_project', 'is_datasource', 'is_status'] as const) {
    if (!q[label]) continue;
    params.push(q[label]);
    where.push(`${label} = $${params.length}`);
  }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const count = await tx.query<{ total: number }>(`select count(*)::int as total from customers ${filter}`, params);
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS} from customers ${filter} order by id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.per_page, (q.page - 1) * q.per_page],
  );
  return { rows: rows.map(toCustomer), total: count.rows[0].total };
}

export async function getCustomer(tx: Queryable, id: number): Promise<Customer | null> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from customers where id = $1`, [id]);
  return rows[0] ? toCustomer(rows[0]) : null;
}

/**
 * The customer a caller ID belongs to: the number in any form it may be stored in (phoneVariants:
 * 84… since migration 0013, other forms for numbers outside the Vietnamese plan), the most
 * recently updated record first.
 */
export async function findCustomerByPhone(tx: Queryable, variants: string[]): Promise<Customer | null> {
  if (!variants.length) return null;
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from customers where phone = any($1::text[]) order by updated_at desc, id desc limit 1`, [variants]);
  return rows[0] ? toCustomer(rows[0]) : null;
}

/** A digit-only list as an array literal: cheaper than pg escaping thousands of elements one by one. */
const phoneList = (forms: string[]) => (forms.every((x) => /^\d+$/.test(x)) ? `{${forms.join(',')}}` : forms);

/**
 * `columns` (with updated_at and id) of the customers stored under the forms in $1, newest first. One index probe on
 * customers (tenant_id, phone) per form, whatever the planner makes of thousands of `= any` elements
 * (it chose a scan of the tenant's customers at 378,000 of them): `offset 0` keeps the probe a
 * nested loop (a join on unnest() was planned as a scan too).
 */
const byFormsSql = (columns: string) => `select c.* from unnest($1::text[]) as f(form)
  cross join lateral (select ${columns} from customers where phone = f.form offset 0) c
  order by c.updated_at desc, c.id desc`;

/**
 * The customers of many caller IDs in one statement: for each number, the customer stored under one of
 * its forms (the most recently updated first). `asking`: each written form to look for → the numbers
 * asked that it is a form of (customers.service askingForms).
 */
export async function findCustomersByPhones(tx: Queryable, asking: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Customer>> {
  const out = new Map<string, Customer>();
  if (!asking.size) return out;
  // Newest first, so each number keeps its first.
  const { rows } = await tx.query<Row>(byFormsSql(COLUMNS), [phoneList([...asking.keys()])]);
  for (const r of rows) {
    for (const asked of asking.get(r.phone) ?? []) if (!out.has(asked)) out.set(asked, toCustomer(r));
  }
  return out;
}

/** findCustomersByPhones' customers, their names only: number → name. */
export async function findCustomerNamesByPhones(tx: Queryable, asking: ReadonlyMap<string, readonly string[]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!asking.size) return out;
  const { rows } = await tx.query<{ phone: string; name: string }>(byFormsSql('phone, name, updated_at, id'), [phoneList([...asking.keys()])]);
  for (const r of rows) {
    for (const asked of asking.get(r.phone) ?? []) if (!out.has(asked)) out.set(asked, r.name);
  }
  return out;
}

/**
 * The tenant's next customer code, KH0001 on (the seeded customers' series): a customer created
 * without a code gets one (issue 30: they showed "—"). One writer at a time per tenant.
 */
async function nextCustomerCode(tx: Queryable, tenantId: number): Promise<string> {
  await tx.query("select pg_advisory_xact_lock(hashtext('customers.code'), $1)", [tenantId]);
  const { rows } = await tx.query<{ code: string }>(
    `select 'KH' || lpad((coalesce(max(substring(code from '^KH([0-9]{1,9})$')::bigint), 0) + 1)::text, 4, '0') as code from customers`,
  );
  return rows[0].code;
}

export async function insertCustomer(tx: Queryable, tenantId: number, input: CustomerInput): Promise<Customer> {
  const code = input.code?.trim() ? input.code : await nextCustomerCode(tx, tenantId);
  const values = INPUT_FIELDS.map((f) => (f === 'code' ? code : (input[f] ?? null)));
  const { rows } = await tx.query<Row>(
    `insert into customers (tenant_id, ${INPUT_FIELDS.join(', ')})
     values ($1, ${INPUT_FIELDS.map((_, i) => `$${i + 2}`).join(', ')}) returning ${COLUMNS}`,
    [tenantId, ...values],
  );
  return toCustomer(rows[0]);
}

export async function updateCustomer(tx: Queryable, id: number, input: CustomerInput): Promise<Customer | null> {
  // Labels left out of the body keep their value (older clients do not send them).
  const fields = INPUT_FIELDS.filter((f) => input[f] !== undefined);
  const sets = fields.map((f, i) => `${f} = $${i + 2}`).join(', ');
  const { rows } = await tx.query<Row>(`update customers set ${sets}, updated_at = now() where id = $1 returning ${COLUMNS}`, [
    id,
    ...fields.map((f) => input[f]),
  ]);
  return rows[0] ? toCustomer(rows[0]) : null;
}

export async function deleteCustomer(tx: Queryable, id: number): Promise<boolean> {
  const { rows } = await tx.query<{ id: number }>('delete from customers where id = $1 returning id', [id]);
  return rows.length > 0;
}
