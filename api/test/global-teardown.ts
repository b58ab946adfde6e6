import type { PgCluster } from './pg-cluster';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __pgCluster?: PgCluster }).__pgCluster?.stop();
}
