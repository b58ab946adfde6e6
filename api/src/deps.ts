import type { onRequestHookHandler } from 'fastify';
import type { Db } from './db/db';
import type { AuthService } from './modules/auth/auth.service';
import type { TokenService } from './modules/auth/tokens';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** What every surface plugin needs, hung on the Fastify instance as `app.deps`. */
export interface AppDeps {
  db: Db;
  tokens: TokenService;
  auth: AuthService;
  /** Per-IP limit on the login routes; one counter shared by both login paths. */
  loginLimiter: onRequestHookHandler;
}
