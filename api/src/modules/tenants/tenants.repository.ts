import type { MaxUserResult } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';

export interface TenantRow {
  id: number;
  ma_dn: string;
  name: string;
}

/** Tenant-less by nature: the login has only the code the user typed. */
export async function findTenantByMaDn(db: Db, maDn: string): Promise<TenantRow | null> {
  const { rows } = await db.withSystem((tx) => tx.query<TenantRow>('select id, ma_dn, name from tenants where ma_dn = $1', [maDn]));
  return rows[0] ?? null;
}

/** Inside withTenant: RLS shows only the current tenant's row. */
export async function currentTenant(tx: Queryable): Promise<TenantRow | null> {
  const { rows } = await tx.query<TenantRow>('select id, ma_dn, name from tenants');
  return rows[0] ?? null;
}

export async function maxUser(tx: Queryable): Promise<MaxUserResult | null> {
  const { rows } = await tx.query<MaxUserResult>(
    'select t.ma_dn, t.max_user, (select count(*)::int from users) as "current_user" from tenants t',
  );
  return rows[0] ?? null;
}
