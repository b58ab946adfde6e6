import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDb } from './db/open';
import { seedIfEmpty } from './db/seed';
import { demoCarrierFromEnv, seedDemoCarrier } from './db/seed-demo-carrier';
import { buildServer, DEFAULT_CORS_ORIGINS } from './server';
import { buildInternalServer } from './modules/sip/internal-server';
import { postgresLease, soleLease } from './modules/sip/call-plane-lease';
import { SwitchboardHosts } from './modules/trunks/switchboard-hosts';
import { newInternalSecret } from './modules/sip/internal-auth';
import { newSipPasswordKey } from './modules/subscribers/sip-password-box';
import { memoryHub, redisHub } from './modules/realtime/call-event-hub';
import { memoryLiveStore } from './modules/realtime/live-state';
import { dbRegistrations } from './modules/realtime/registration-store';
import { redisCounters } from './modules/auth/throttle';
import { redisContinuations } from './modules/media/continuation';
import { recordingStoreFromEnv } from './modules/recordings/recordings.service';
import { RedisStatus } from './db/redis';
import { openReportsReplica, primaryReports, reportsReplicaUrl, whereIs } from './db/replica';

const REPO_ROOT = resolve(__dirname, '../..');

/**
 * A dev machine without the variable gets a random value kept beside the data, so tokens (and
 * sealed SIP passwords) survive restarts. The value is also put in the environment.
 */
function keptSecret(dataDir: string, name: 'JWT_SECRET' | 'SIP_PASSWORD_KEY' | 'INTERNAL_SECRET' | 'BACKUP_SECRET', make: () => string): string {
  if (process.env[name]) return process.env[name];
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name.toLowerCase().replace(/_/g, '-'));
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  process.env[name] = readFileSync(file, 'utf8').trim();
  return process.env[name];
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 4000);
  const host = process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(process.env.DATA_DIR ?? join(REPO_ROOT, '.data/pglite'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // A misconfigured replica (REPORTS_DATABASE_URL without DATABASE_URL…) stops the start here, before anything opens.
  const replicaUrl = reportsReplicaUrl(process.env);
  if (!databaseUrl) mkdirSync(dataDir, { recursive: true });
  // SIP passwords are sealed with this key (migration 0016 needs it); the internal listener's
  // secret is shared with Kamailio and the media workers (ADR 0019). The start scripts pass both.
  keptSecret(dataDir, 'SIP_PASSWORD_KEY', newSipPasswordKey);
  const internalSecret = keptSecret(dataDir, 'INTERNAL_SECRET', newInternalSecret);
  const db = await openDb({ databaseUrl, dataDir });
  // Reports, exports, KPIs' figures and the dashboard's chart read a streaming replica when one is given (ADR 0058).
  const reportsDb = replicaUrl ? await openReportsReplica(replicaUrl, db) : primaryReports(db);
  if (replicaUrl) {
    const now = await reportsDb.freshness();
    console.log(now.source === 'replica'
      ? `Reports read the streaming replica ${whereIs(replicaUrl)} (REPORTS_DATABASE_URL, ${now.lag_seconds} s behind); every write goes to the primary`
      : `Reports: the replica ${whereIs(replicaUrl)} (REPORTS_DATABASE_URL) is not read for now (the line above says why); reports read the primary meanwhile`);
  }
  if (await seedIfEmpty(db)) console.log('Seeded demo tenants "demo" and "abc" (admin / Admin@123)');
  // npm start runs the demo carrier (dev tooling, ADR 0037) and says where: the demo tenant's switchboard follows it.
  const demoCarrier = demoCarrierFromEnv(process.env);
  if (demoCarrier && (await seedDemoCarrier(db, demoCarrier))) console.log(`Demo carrier switchboard "Nhà mạng demo" → udp ${demoCarrier.host}:${demoCarrier.port}`);
  const corsOrigins = process.env.CORS_ORIGINS?.split(',').map((s) => s.trim()).filter(Boolean) ?? DEFAULT_CORS_ORIGINS;
  // LOGIN_IP_LIMIT: logins per minute per IP (the e2e run logs in more often than a person).
  const loginRateLimit = process.env.LOGIN_IP_LIMIT ? { max: Number(process.env.LOGIN_IP_LIMIT), timeWindow: 60_000 } : undefined;
  const logger = { level: process.env.LOG_LEVEL ?? 'warn' };
  // Call events for the browsers: through Redis when several API instances serve (REDIS_URL).
  // Registrations (ADR 0038) live there too; without Redis in the database, so a restart keeps them.
  // Nothing waits on Redis (issue 41): each connection gives up at once or within 0.5 s, /health says
  // "degraded" and the log says when it goes and comes back.
  const redisStatus = process.env.REDIS_URL ? new RedisStatus() : undefined;
  const hub = process.env.REDIS_URL
    ? await redisHub(process.env.REDIS_URL, (e) => console.error('Redis (call events):', e), redisStatus)
    : memoryHub(memoryLiveStore(Date.now, await dbRegistrations(db, (e) => console.error('Registrations not saved:', e))));
  // Login counters: in Redis too, so every instance counts the same tries (memory otherwise).
  const loginCounters = process.env.REDIS_URL ? await redisCounters(process.env.REDIS_URL, (e) => console.error('Redis (login limits):', e), undefined, redisStatus) : undefined;
  // A media step's continuation tokens (an IVR's choice → the next leg's plan) too: the instance that takes the
  // calls over in a hand-over (ADR 0059) finds the tokens the other made.
  const continuations = process.env.REDIS_URL ? await redisContinuations(process.env.REDIS_URL, redisStatus!, (e) => console.error('Redis (media continuations):', e)) : undefined;
  // TRUST_PROXY: the reverse proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For
  // names the client; unset = none, the socket's address is the client (server.ts).
  const trustProxy = process.env.TRUST_PROXY?.split(',').map((s) => s.trim()).filter(Boolean);
  // Call recordings' files (issue 16): RECORDINGS_S3_* names a bucket, else RECORDINGS_DIR or
  // <DATA_DIR>/recordings; one store for the player (public) and the worker's upload (internal).
  const recordingStore = recordingStoreFromEnv();
  // Where tenants' switchboards may point the PBX (ADR 0043): one policy for saves and for use.
  const switchboardHosts = SwitchboardHosts.fromEnv();
  const app = await buildServer({
    db, reportsDb, jwtSecret: keptSecret(dataDir, 'JWT_SECRET', () => randomBytes(48).toString('base64url')), corsOrigins, logger, loginRateLimit, hub, redisStatus, loginCounters, trustProxy, recordingStore, switchboardHosts,
  });
  // Kamailio's and the media workers' listener: loopback only, never on the public port (ADR 0007),
  // and only with the shared secret (ADR 0019). A container stack sets INTERNAL_HOST to reach it
  // over its private network.
  const internalPort = Number(process.env.INTERNAL_PORT ?? port + 1);
  const internalHost = process.env.INTERNAL_HOST ?? '127.0.0.1';
  // Only a server started for tests (e2e sets TONGDAI_TEST_CLOCK=1; npm start never passes it on)
  // lets a plan request say what time it is; a production server refuses to start with it.
  const testClock = process.env.TONGDAI_TEST_CLOCK === '1';
  if (testClock && process.env.NODE_ENV === 'production') throw new Error('TONGDAI_TEST_CLOCK is for tests: not with NODE_ENV=production');
  // On PGlite, `npm run backup` asks this process for a consistent snapshot (docs/operations/backups.md)
  // with a secret of its own, kept beside the data; on PostgreSQL the backup is pg_dump's.
  const backupSecret = databaseUrl ? undefined : keptSecret(dataDir, 'BACKUP_SECRET', newInternalSecret);
  // The call plane (ADR 0059): on PostgreSQL, the one instance holding the lease follows the calls and
  // the others stand by for them; PGlite's data folder belongs to one process, which holds it.
  const lease = databaseUrl ? await postgresLease(databaseUrl) : soleLease();
  lease.onLost(() => {
    console.error('The call plane lease is held by another API instance now: stopping, to be started again as a standby');
    process.exit(1);
  });
  if (!lease.held) console.log('Another API instance follows the calls: this one serves the API and stands by for them (ADR 0059)');
  const internal = buildInternalServer(db, { logger, calls: { hub, testClock, recordingStore, switchboardHosts, lease, continuations }, secret: internalSecret, backupSecret });
  const close = async () => {
    await internal.close();
    await app.close();
    await loginCounters?.close();
    await continuations?.close?.();
    await hub.close();
    await reportsDb.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  // The internal listener first: its start takes back the calls in progress (the journal, then what
  // Kamailio kept; call-routing's onReady), and the public API, whose /monitor wall and channel counts
  // read them, answers nothing before (issue 41, "no undercount"). Listening first, the public API
  // served an empty wall while a loaded machine was still restoring (CI of stop 49: still [] 3 s after
  // /health answered).
  await internal.listen({ port: internalPort, host: internalHost });
  await app.listen({ port, host });
  console.log(`Tongdai API on http://${host}:${port} (${db.kind}); docs at http://${host}:${port}/docs`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
