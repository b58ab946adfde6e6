import { hkdfSync } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { ERROR_CODES, ERROR_MESSAGES, REALTIME_PROTOCOL, REFRESHED_TOKEN_HEADER } from '@tongdai/contracts';
import { isTransientDbError, type Db } from './db/db';
import type { RedisStatus } from './db/redis';
import { primaryReports, type ReportsDb } from './db/replica';
import type { AppDeps, RateLimit } from './deps';
import { AccessCache } from './security/access-cache';
import { onSipCredentialsChanged, sipCredentialsChanged } from './security/sip-credentials-changed';
import { registerErrorHandling } from './http/error-handler';
import { exposeAccess, publicRoute } from './http/guards';
import { registerSecurityHeaders } from './http/security-headers';
import { clientErrorOptions, registerInputGuard } from './http/input-guard';
import { registerRequestActor } from './http/request-actor';
import './http/types';
import { createAuthService } from './modules/auth/auth.service';
import { LoginThrottle, withRetryAfter, type CounterStore } from './modules/auth/throttle';
import { createTokenService } from './modules/auth/tokens';
import { registerSurfaces } from './surfaces';
import { memoryHub, type CallEventHub } from './modules/realtime/call-event-hub';
import { pbxConfigChangedElsewhere, relayConfigChanges } from './modules/pbx/pbx.service';
import { recordingStorage, recordingStoreFromEnv, scheduleRecordingSweep, type RecordingStore } from './modules/recordings/recordings.service';
import { scheduleOtpJobs } from './modules/voice-otp/voice-otp.service';
import { scheduleCallWebhooks } from './modules/integrations/integrations.service';
import { SwitchboardHosts } from './modules/trunks/switchboard-hosts';
import { getPaymentCheck } from './modules/settings/settings.service';

export interface ServerOptions {
  db: Db;
  /** The read model's database (default: `db`); main.ts opens a replica with REPORTS_DATABASE_URL (ADR 0058). Its owner closes it. */
  reportsDb?: ReportsDb;
  jwtSecret: string;
  /** Origin patterns; `*` stands for any port, e.g. `http://localhost:*`. */
  corsOrigins?: string[];
  logger?: boolean | { level: string };
  /** Per-IP limit on login routes (default 20 per minute). */
  loginRateLimit?: RateLimit;
  /** Failed logins per account + IP before the backoff starts (default 5, forgotten after an hour; auth/throttle.ts). */
  accountThrottle?: { maxFailures: number; windowMs: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Where the login counters live (default: this process's memory; main.ts passes Redis with REDIS_URL). */
  loginCounters?: CounterStore;
  /**
   * Addresses or CIDRs of the reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY);
   * default none: the socket's address is the client.
   */
  trustProxy?: string[];
  /** Call events for the real-time channel (default: in memory, this process only). */
  hub?: CallEventHub;
  /** Whether Redis answers, when REDIS_URL is set: /health says "degraded" while it does not (issue 41). */
  redisStatus?: RedisStatus;
  /** How often an open events socket re-checks its session (default 60 s). */
  sessionCheckMs?: number;
  /** Call recordings' files (default: recordingStoreFromEnv(), a folder or an S3 bucket); the internal listener must get the same. */
  recordingStore?: RecordingStore;
  /** How often expired recordings are deleted (default hourly, and once when ready); null: never. */
  recordingSweepMs?: number | null;
  /** The switchboard host policy (default: SwitchboardHosts.fromEnv(), TRUNK_ALLOWED_NETWORKS…); the internal listener must get the same. */
  switchboardHosts?: SwitchboardHosts;
  /** Voice-OTP's round (webhooks due, lost calls, old deliveries) at least this often besides when a status change wakes it (default 15 s); null: never. */
  otpWebhookMs?: number | null;
  /** The CRM's call-event webhooks round (ADR 0065): its longest wait; null: off (tests run rounds themselves). */
  callWebhookMs?: number | null;
}

export const DEFAULT_CORS_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*'];

/** Turns `http://localhost:*` into a matcher for that host on any port. */
export function originMatcher(patterns: string[]): (origin: string) => boolean {
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '\\d+')}$`));
  return (origin) => regexes.some((r) => r.test(origin));
}

/** Builds the whole API on a migrated database; no listen (main.ts or inject() do that). */
export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, trustProxy: opts.trustProxy?.length ? opts.trustProxy : false, ...clientErrorOptions });
  const tokens = createTokenService(opts.jwtSecret);
  const throttle = new LoginThrottle(opts.loginCounters, { ...opts.accountThrottle, ...(opts.loginRateLimit && { ipLimit: opts.loginRateLimit }) });
  // Roles, payment checks and settings a request's checks read, kept per tenant access version (ADR 0064).
  const accessCache = new AccessCache();
  const auth = createAuthService(opts.db, tokens, throttle, accessCache);
  const deps: AppDeps = {
    db: opts.db,
    reportsDb: opts.reportsDb ?? primaryReports(opts.db),
    tokens,
    auth,
    // The kernel's guards see the identity and settings modules through these two small interfaces (deps.ts).
    sessions: auth,
    paymentCheck: getPaymentCheck,
    accessCache,
    deriveKey: (purpose) => Buffer.from(hkdfSync('sha256', opts.jwtSecret, '', `tongdai:${purpose}`, 32)),
    hub: opts.hub ?? memoryHub(),
    sessionCheckMs: opts.sessionCheckMs ?? 60_000,
    // One counter per IP for every login-like route (both logins, sign-up, change-password).
    loginLimiter: (request, reply) => withRetryAfter(reply, () => throttle.hitIp(request.ip)),
    recordings: opts.recordingStore ?? recordingStoreFromEnv(),
    switchboardHosts: opts.switchboardHosts ?? SwitchboardHosts.fromEnv(),
  };
  app.decorate('deps', deps);
  // A PBX change or an extension's new SIP credentials saved here reach every instance (the routing
  // caches; the call plane that tells Kamailio to forget HA1s): through the hub, Redis when several
  // instances serve (issue 42).
  const relays = [
    relayConfigChanges((tenantId) => deps.hub.changed('pbx-config', tenantId)),
    deps.hub.onChanged('pbx-config', pbxConfigChangedElsewhere),
    onSipCredentialsChanged((tenantId, elsewhere) => void (elsewhere || deps.hub.changed('sip-credentials', tenantId))),
    deps.hub.onChanged('sip-credentials', (tenantId) => sipCredentialsChanged(tenantId, true)),
  ];
  app.addHook('onClose', async () => {
    for (const stop of relays) stop();
  });
  // Recordings past their tenant's retention go, file and row (issue 16): at start, then hourly.
  if (opts.recordingSweepMs !== null) scheduleRecordingSweep(app, opts.db, deps.recordings, opts.recordingSweepMs);
  // Voice-OTP (issue 35): status changes to the applications' webhooks (due rows, signed, retried), and calls lost with their worker.
  if (opts.otpWebhookMs !== null) scheduleOtpJobs(app, opts.db, deps.switchboardHosts, { everyMs: opts.otpWebhookMs });
  if (opts.callWebhookMs !== null) scheduleCallWebhooks(app, opts.db, deps.switchboardHosts, { everyMs: opts.callWebhookMs ?? undefined });
  app.decorateRequest('auth', null);
  app.decorateRequest('authRoles', null);
  app.decorateRequest('payment', undefined);
  app.decorateRequest('accessVersion', undefined);
  registerErrorHandling(app);
  exposeAccess(app);
  registerSecurityHeaders(app);
  registerInputGuard(app);
  // The logged-in user behind each transaction a request opens, for the audit log (ADR 0057).
  registerRequestActor(app);
  // The subprotocol a browser offers must be echoed: the first of ours (the second one is its token).
  await app.register(websocket, { options: { handleProtocols: (protocols: Set<string>) => (protocols.has(REALTIME_PROTOCOL) ? REALTIME_PROTOCOL : false) } });

  const allowed = originMatcher(opts.corsOrigins ?? DEFAULT_CORS_ORIGINS);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || allowed(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: [REFRESHED_TOKEN_HEADER, 'content-disposition'],
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tongdai API', version: '0.1.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'A voice-OTP API key (tdo.…), created on /voice-otp/number' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // 503 with db "unreachable" while PostgreSQL is away (issue 41): a load balancer or supervisor reads it.
  // Redis away is "degraded", 200: every request is still served (each instance with its own state).
  const redis = () => (opts.redisStatus ? { redis: opts.redisStatus.up ? 'ok' : 'unreachable' } : {});
  /** Nothing without a replica; else its state (freshness is measured at most once a second, ADR 0058). */
  const reportsHealth = async (): Promise<{ reports: 'replica' | 'fallback'; reports_lag_seconds: number } | undefined> => {
    const f = await app.deps.reportsDb.freshness().catch(() => ({ source: 'fallback' as const, lag_seconds: 0 }));
    return f.source === 'primary' ? undefined : { reports: f.source, reports_lag_seconds: f.lag_seconds };
  };
  app.get('/health', { preHandler: publicRoute, schema: { tags: ['health'] } }, async (_request, reply) => {
    try {
      await opts.db.query('select 1');
    } catch (err) {
      if (!isTransientDbError(err)) throw err;
      return reply.status(503).send({ status: 'unavailable', db: opts.db.kind, database: 'unreachable', ...redis(), code: ERROR_CODES.databaseUnavailable, message: ERROR_MESSAGES.DATABASE_UNAVAILABLE });
    }
    // The recordings' storage full (ENOSPC): "degraded" too, calls go on, recordings wait in the workers' spools.
    const full = recordingStorage.fullSince;
    // A reports replica (REPORTS_DATABASE_URL, ADR 0058): where the reports read and how far behind. Away, the
    // reports read the primary ("fallback"): served, but "degraded", as an operator should know it is away.
    const reports = await reportsHealth();
    const degraded = (opts.redisStatus && !opts.redisStatus.up) || full || reports?.reports === 'fallback';
    return { status: degraded ? 'degraded' : 'ok', db: opts.db.kind, ...redis(), ...reports, ...(full ? { recordings: 'full', recordings_full_since: full.toISOString() } : {}) };
  });
  await registerSurfaces(app);
  return app;
}
