import type { PgCluster } from './pg-cluster';
import type { RedisServer } from './redis-server';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { __pgCluster?: PgCluster; __redis?: RedisServer | null };
  await Promise.all([g.__pgCluster?.stop(), g.__redis?.stop()]);
}
