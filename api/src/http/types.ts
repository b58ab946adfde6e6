import type { AppDeps } from '../deps';
import type { AuthContext, UserRoleRow } from '../modules/auth/auth.service';

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
