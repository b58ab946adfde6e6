import type { CallEventHub } from './modules/realtime/call-event-hub';
import type { onRequestHookHandler } from 'fastify';
import type { Db } from './db/db';
import type { AuthService } from './modules/auth/auth.service';
import type { TokenService } from './modules/auth/tokens';
import type { RecordingStore } from './modules/recordings/recordings.service';
import type { SwitchboardHosts } from './modules/trunks/switchboard-hosts';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** What every surface plugin needs, hung on the Fastify instance as `app.deps`. */
export interface AppDeps {
  db: Db;
  tokens: TokenService;
  auth: AuthService;
  /**
   * A 32-byte key for one purpose (telecom shop keys, SDK tokens), derived from the deployment's
   * secret: one secret to keep, and a leak of one derived key reveals neither the others nor it.
   */
  deriveKey: (purpose: string) => Buffer;
  /** Call events to the tenants' WebSockets (memory, or Redis pub/sub with REDIS_URL). */
  hub: CallEventHub;
  /** How often an open events socket re-checks its session (revoked elsewhere, absolute limit). */
  sessionCheckMs: number;
  /** Per-IP limit on the login routes; one counter shared by both login paths. */
  loginLimiter: onRequestHookHandler;
  /** Where call recordings' files are (issue 16): a local folder or an S3-compatible bucket. */
  recordings: RecordingStore;
  /** Where a switchboard may point the PBX (issue 32, ADR 0043): the operator's settings and a resolver. */
  switchboardHosts: SwitchboardHosts;
}
