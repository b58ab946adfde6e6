import { randomBytes } from 'node:crypto';
import { startPgCluster, type PgCluster } from './pg-cluster';

/**
 * Starts one PostgreSQL for the run; each test file then creates its own database in it. A file
 * that needs Redis starts its own (test/redis-server.ts testRedisUrl).
 */
export default async function globalSetup(): Promise<void> {
  const cluster = await startPgCluster();
  Object.assign(globalThis as { __pgCluster?: PgCluster }, { __pgCluster: cluster });
  // Workers are spawned after this and inherit the environment.
  process.env.TEST_PG_URL = cluster.url;
  // What `npm start` keeps in its data dir (ADR 0019): SIP passwords are sealed with this key and
  // the internal listener (buildInternalServer) needs this secret (tests send INTERNAL_HEADERS).
  process.env.SIP_PASSWORD_KEY ??= randomBytes(32).toString('hex');
  process.env.INTERNAL_SECRET ??= randomBytes(32).toString('base64url');
}
