import type { AppDeps } from '../deps';
import type { AuthContext } from '../modules/auth/auth.service';
import type { UserRoleRow } from '../modules/auth/access.repository';

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
