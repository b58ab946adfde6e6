import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openDb } from '../src/db/open';
import { seed } from '../src/db/seed';
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
  // One database migrated and seeded for the whole run (after the keys above: the seed seals SIP
  // passwords): a test file's database is a copy of it (helpers.seededDatabase), not 55 migrations
  // and a seed again per file.
  const template = `tongdai_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(cluster.url, `create database ${template}`);
  const db = await openDb({ databaseUrl: databaseUrl(cluster.url, template) });
  await seed(db);
  await db.close();
  process.env.TEST_PG_TEMPLATE = template;
  // The PGlite suites' migrated images are made in it when first asked for (test/pglite-image.ts).
  process.env.TEST_PGLITE_IMAGES = mkdtempSync(join(tmpdir(), 'tongdai-pglite-images-'));
}

export function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(clusterUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
