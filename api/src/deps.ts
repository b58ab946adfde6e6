import type { onRequestHookHandler } from 'fastify';
import type { PaymentCheck } from '@tongdai/contracts';
import type { Db, Queryable } from './db/db';
import type { ReportsDb } from './db/replica';
import type { AccessCache } from './security/access-cache';
import type { SessionGate } from './security/session';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** The tenant's purchased features and their expiry (settings/ reads them), for requireFeature. */
export type PaymentCheckReader = (tx: Queryable) => Promise<PaymentCheck | null>;

/**
 * What every surface plugin needs, hung on the Fastify instance as `app.deps`; the composition root
 * (server.ts) builds it. The kernel declares here only what it owns and the small interfaces its
 * guards ask of modules; a module that hands its neighbours a dependency adds that field itself
 * (`declare module '…/deps' { interface AppDeps { … } }` beside its type), so this file imports no
 * module (ADR 0047).
 */
export interface AppDeps {
  db: Db;
  /**
   * Where the read model is read (reports, exports, KPIs' figures, the dashboard's chart): a
   * streaming replica with REPORTS_DATABASE_URL, else `db` itself (ADR 0058). Reads only.
   */
  reportsDb: ReportsDb;
  /** The guards' view of the identity module (auth/): the same object as `auth`. */
  sessions: SessionGate;
  /** The feature guard's view of settings/. */
  paymentCheck: PaymentCheckReader;
  /** What a request's checks read besides the session, per tenant access version (security/access-cache.ts). */
  accessCache: AccessCache;
  /**
   * A 32-byte key for one purpose (telecom shop keys, SDK tokens), derived from the deployment's
   * secret: one secret to keep, and a leak of one derived key reveals neither the others nor it.
   */
  deriveKey: (purpose: string) => Buffer;
  /** How often an open events socket re-checks its session (revoked elsewhere, absolute limit). */
  sessionCheckMs: number;
  /** Per-IP limit on the login routes; one counter shared by both login paths. */
  loginLimiter: onRequestHookHandler;
}
