/** The only database surface the rest of the API sees: two engines, one interface. */
import { actorSetting } from './actor';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}
/** A transaction handle; `exec` runs multi-statement SQL (migrations only). */
export interface Tx extends Queryable {
  exec(sql: string): Promise<void>;
}

export type DbKind = 'pglite' | 'postgres';

export interface Db {
  readonly kind: DbKind;
  /**
   * The one path to tenant data: a transaction with `app.tenant_id` set locally, so every
   * row-level security policy sees the tenant taken from the token (never from a header).
   */
  withTenant<T>(tenantId: number, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Tenant-less work (tenant lookup by ma_dn at login, seeding). Runs under `SET LOCAL ROLE
   * app_system`, a NOLOGIN role with BYPASSRLS created by the migrations: the unrestricted
   * access is visible at every call site instead of hiding in a superuser connection.
   */
  withSystem<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** A plain statement as app_user with no tenant set: RLS hides every tenant row. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

/**
 * Shared by both engines: what a transaction does before handing over to the caller. `app.actor`
 * names the logged-in user of the request it runs for ('' for system work): the audit log's
 * triggers read it (db/actor.ts, migration 0065).
 */
export async function enterTenant(tx: Queryable, tenantId: number): Promise<void> {
  if (!Number.isInteger(tenantId) || tenantId <= 0) throw new Error(`invalid tenant id ${tenantId}`);
  await tx.query("select set_config('app.tenant_id', $1, true), set_config('app.actor', $2, true)", [String(tenantId), actorSetting()]);
}

export async function enterSystem(tx: Queryable): Promise<void> {
  await tx.query('set local role app_system');
  // A user's request that writes across tenants (none today; a platform operator's, later) is logged in the tenant it changed.
  const actor = actorSetting();
  if (actor) await tx.query("select set_config('app.actor', $1, true)", [actor]);
}

/**
 * The database could not take the statement now but may in a moment (ADR 0046): the server is
 * unreachable, restarting, shutting down or out of connections. A statement it refused for what
 * it said (a constraint, a type) is not: trying it again would fail the same way.
 */
export function isTransientDbError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^(08|53|57P)/.test(code) || /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)$/.test(code)) return true;
  return typeof e?.message === 'string' && /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(e.message);
}
