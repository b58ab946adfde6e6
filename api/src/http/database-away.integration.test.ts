import type { FastifyInstance } from 'fastify';
import { ERROR_MESSAGES } from '@tongdai/contracts';
import type { Db } from '../db/db';
import { openDb } from '../db/open';
import { seed } from '../db/seed';
import { buildServer } from '../server';
import { SwitchboardHosts } from '../modules/trunks/switchboard-hosts';
import { DEMO, NO_DNS, TEST_JWT_SECRET, bearer, login } from '../../test/helpers';
import { startPgCluster, type PgCluster } from '../../test/pg-cluster';

/**
 * PostgreSQL away under the API (issue 41): its own throwaway cluster stopped for real. Requests
 * answer 503 DATABASE_UNAVAILABLE with the Vietnamese message within a bound (none hangs), /health
 * says the database is unreachable, and once it is back the pool serves again by itself.
 */
describe('the database away', () => {
  let cluster: PgCluster;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    cluster = await startPgCluster();
    db = await openDb({ databaseUrl: cluster.url });
    await seed(db);
    app = await buildServer({ db, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS) });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('answers 503 with a machine-readable body naming the cause, says so on /health, and serves again when it is back', async () => {
    const token = await login(app, 'demo', DEMO.admin);
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok', db: 'postgres' });
    cluster.down();
    try {
      const t0 = Date.now();
      const health = await app.inject({ url: '/health' });
      expect({ status: health.statusCode, body: health.json() }).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'unreachable', code: 'DATABASE_UNAVAILABLE' } });
      const list = await app.inject({ url: '/t/demo/customers?page=1&page_size=10', headers: bearer(token) });
      expect({ status: list.statusCode, body: list.json() }).toEqual({ status: 503, body: { status: 503, code: 'DATABASE_UNAVAILABLE', message: ERROR_MESSAGES.DATABASE_UNAVAILABLE } });
      const again = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: 'demo', ...DEMO.admin } });
      expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      // Within a bound: nothing waits on a server that is not there.
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      cluster.up();
    }
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/t/demo/customers?page=1&page_size=10', headers: bearer(token) })).statusCode).toBe(200);
  }, 60_000);
});
