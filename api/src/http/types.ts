import type { PaymentCheck } from '@tongdai/contracts';
import type { AppDeps } from '../deps';
import type { AuthContext, UserRoleRow } from '../security/session';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    /** Set by requireAuth. */
    auth: AuthContext | null;
    /** The caller's roles: read with the session by requireAuth (a WebSocket's checks read them again). */
    authRoles: UserRoleRow[] | null;
    /**
     * The tenant's payment check (null: none), read with the session for a chain that checks a feature
     * (guarded), else by requireFeature; undefined until read.
     */
    payment: PaymentCheck | null | undefined;
    /** The tenant's access version, read with the session by requireAuth (security/access-cache.ts). */
    accessVersion: string | undefined;
  }
}
