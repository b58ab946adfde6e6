import { randomBytes } from 'node:crypto';
import { startPgCluster, type PgCluster } from './pg-cluster';
import { startRedisServer, type RedisServer } from './redis-server';

/** Starts one PostgreSQL and one Redis for the run; each test file then creates its own database in it. */
export default async function globalSetup(): Promise<void> {
  const [cluster, redis] = await Promise.all([startPgCluster(), startRedisServer()]);
  Object.assign(globalThis as { __pgCluster?: PgCluster; __redis?: RedisServer | null }, { __pgCluster: cluster, __redis: redis });
  // Workers are spawned after this and inherit the environment.
  process.env.TEST_PG_URL = cluster.url;
  if (redis) process.env.TEST_REDIS_URL = redis.url;
  // What `npm start` keeps in its data dir (ADR 0019): SIP passwords are sealed with this key and
  // the internal listener (buildInternalServer) needs this secret (tests send INTERNAL_HEADERS).
  process.env.SIP_PASSWORD_KEY ??= randomBytes(32).toString('hex');
  process.env.INTERNAL_SECRET ??= randomBytes(32).toString('base64url');
}
