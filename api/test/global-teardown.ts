import type { PgCluster } from './pg-cluster';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { __pgCluster?: PgCluster };
  await g.__pgCluster?.stop();
}
