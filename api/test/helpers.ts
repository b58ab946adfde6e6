import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import type { Db, Queryable } from '../src/db/db';
import { openDb } from '../src/db/open';
import { DEMO } from '../src/db/seed';
import { buildServer, type ServerOptions } from '../src/server';
import { insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { settingsFromEnv, SwitchboardHosts, type HostResolver } from '../src/modules/trunks/switchboard-hosts';
import { databaseUrl } from './global-setup';

export { DEMO };
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256!';
/** What Kamailio and the media workers present to the internal listener (global-setup sets the secret). */
export const INTERNAL_HEADERS: Record<string, string> = { 'x-tongdai-internal': process.env.INTERNAL_SECRET ?? '' };

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error('TEST_PG_URL is not set: run the tests through jest (test/global-setup.ts starts PostgreSQL)');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database per test file, so files can run in parallel on one cluster. */
export const freshDatabase = () => newDatabase('');

/**
 * A fresh database already migrated and seeded: a copy of the run's template (global-setup), so a
 * file does not run every migration and the seed again.
 */
export function seededDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = process.env.TEST_PG_TEMPLATE;
  if (!template) throw new Error('TEST_PG_TEMPLATE is not set: run the tests through jest (test/global-setup.ts makes the template)');
  return newDatabase(` template ${template}`);
}

async function newDatabase(template: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tongdai_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}${template}`));
  return { url: databaseUrl(process.env.TEST_PG_URL!, name), drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined) };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  dbUrl: string;
  close(): Promise<void>;
}

/** Migrated + seeded PostgreSQL database and a server on it. */
export async function startTestApp(opts: Partial<ServerOptions> = {}): Promise<TestApp> {
  const fresh = await seededDatabase();
  const db = await openDb({ databaseUrl: fresh.url });
  // The host policy as the environment sets it (nothing allowed), with no DNS: the tests' names answer nothing.
  // Voice-OTP's background rounds (webhooks each second, lost calls) off unless a suite asks: its
  // suites run them by hand on their own clock, and the others would only add queries to the run.
  const app = await buildServer({ db, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS), otpWebhookMs: null, ...opts });
  return {
    app,
    db,
    dbUrl: fresh.url,
    async close() {
      await app.close();
      await db.close();
      await fresh.drop();
    },
  };
}

export async function login(app: FastifyInstance, maDn: string, user: { username: string; password: string }): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: maDn, ...user } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().data.token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Bearer headers of the three seeded users most tests need: demo admin, demo staff, abc admin. */
export async function demoHeaders(app: FastifyInstance): Promise<Record<'admin' | 'staff' | 'abcAdmin', Record<string, string>>> {
  const [admin, staff, abcAdmin] = await Promise.all([
    login(app, 'demo', DEMO.admin),
    login(app, 'demo', DEMO.staff),
    login(app, 'abc', DEMO.admin),
  ]);
  return { admin: bearer(admin), staff: bearer(staff), abcAdmin: bearer(abcAdmin) };
}

/**
 * A Queryable that EXPLAINs every query of a repository function on `tx` into `plans` instead of
 * running it, answering a count of 0 first and no rows after: a list's own SQL, planned.
 */
export function explaining(tx: Queryable, plans: string[]): Queryable {
  return {
    query: (async (sql: string, params?: unknown[]) => {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
      plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
      return { rows: plans.length === 1 ? [{ total: 0 }] : [] };
    }) as Queryable['query'],
  };
}

/**
 * A switchboard of the tenant that carriers call in from (ADR 0036: no open relay, a call without
 * digest is planned only from a switchboard of the number's tenant), written before the first plan
 * request; returns the `&src=` Kamailio adds to such a plan request. Nothing is sent to it: its
 * address is a documentation one (TEST-NET-1), a public address for the host policy (ADR 0043).
 */
export async function carrierSource(db: Db, maDn = 'demo', port = 5999): Promise<string> {
  const tenantId = await db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);
  await db.withTenant(tenantId, (tx) => insertSwitchboard(tx, tenantId, { name: `Nhà mạng kiểm thử ${port}`, host: CARRIER_SOURCE_IP, port }));
  return `&src=${CARRIER_SOURCE_IP}:${port}`;
}
export const CARRIER_SOURCE_IP = '192.0.2.59';

/** A resolver for a test machine with no DNS: every name answers nothing. */
export const NO_DNS: HostResolver = async () => [];

/**
 * The operator's allow-list of a test stack whose carriers (sipp) listen on loopback: 127.0.0.1
 * opened explicitly, as a deployment lists its carriers' networks (ADR 0043). Give the same to the
 * public server (switchboardHosts), the internal listener (calls.switchboardHosts) and Kamailio
 * (trunkAllowedNetworks). Every other test runs with nothing allowed.
 */
export const LOOPBACK_CARRIERS = '127.0.0.1/32';
export const loopbackCarrierHosts = (resolver?: HostResolver): SwitchboardHosts =>
  new SwitchboardHosts(settingsFromEnv({ ...process.env, TRUNK_ALLOWED_NETWORKS: LOOPBACK_CARRIERS }), resolver);
