import type { AppDeps } from '../deps';
import type { AuthContext, UserRoleRow } from '../security/session';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    /** Set by requireAuth. */
    auth: AuthContext | null;
    /** Loaded once per request by requirePermission. */
    authRoles: UserRoleRow[] | null;
  }
}
