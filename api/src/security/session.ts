/**
 * Who is calling and what roles they hold, as the kernel's guards read them. The kernel owns these
 * shapes and the identity module (auth/) fills them, so http/ and deps.ts import no module (ADR 0047).
 */
import type { Queryable } from '../db/db';

/** Who is calling, as proven by the token; the tenant comes from here, never from a header. */
export interface AuthContext {
  userId: number;
  tenantId: number;
  maDn: string;
  sessionId: string;
}

/** One of the user's roles with its permission names (auth/access.repository reads them). */
export interface UserRoleRow {
  id: number;
  name: string;
  permissions: string[];
}

/** What the guards ask of the identity module: a token's caller, and that caller's roles. */
export interface SessionGate {
  /**
   * Checks a bearer token; `refreshed` is a renewed token when the sliding window says so; `roles`
   * the caller's; `accessVersion` the tenant's, read with the session (security/access-cache.ts).
   * `alsoRead` runs in the same transaction, in the caller's tenant (the guards' other reads: one
   * transaction for a request's checks).
   */
  authenticate(token: string, options?: { alsoRead?: (tx: Queryable, access: { tenantId: number; version: string }) => Promise<void> }): Promise<{ auth: AuthContext; refreshed?: string; roles: UserRoleRow[]; accessVersion: string }>;
  /** The user's roles in role id order (the first is the session user). */
  roles(auth: AuthContext): Promise<UserRoleRow[]>;
}
