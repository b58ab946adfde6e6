import { startPgCluster, type PgCluster } from './pg-cluster';

/** Starts one PostgreSQL for the run; each test file then creates its own database in it. */
export default async function globalSetup(): Promise<void> {
  const cluster = await startPgCluster();
  (globalThis as { __pgCluster?: PgCluster }).__pgCluster = cluster;
  // Workers are spawned after this and inherit the environment.
  process.env.TEST_PG_URL = cluster.url;
}
