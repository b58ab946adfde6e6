import { rmSync } from 'node:fs';
import { adminQuery } from './global-setup';
import type { PgCluster } from './pg-cluster';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { __pgCluster?: PgCluster };
  // The machine's own PostgreSQL outlives the run: its template goes (a throwaway cluster goes whole).
  const template = process.env.TEST_PG_TEMPLATE;
  if (template && g.__pgCluster) await adminQuery(g.__pgCluster.url, `drop database if exists ${template} with (force)`).catch(() => undefined);
  await g.__pgCluster?.stop();
  if (process.env.TEST_PGLITE_IMAGES) rmSync(process.env.TEST_PGLITE_IMAGES, { recursive: true, force: true });
}
