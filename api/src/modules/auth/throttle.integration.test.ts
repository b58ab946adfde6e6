import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ERROR_MESSAGES } from '@tongdai/contracts';
import { DEMO, startTestApp, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { testRedisUrl as redisUrl, stopTestRedis } from '../../../test/redis-server';
import { buildServer, type ServerOptions } from '../../server';
import { redisCounters, type CounterStore } from './throttle';

// This file's own redis-server (test/redis-server.ts), stopped when the file is done.
afterAll(stopTestRedis);

const PROXY = '10.0.0.2';
const ATTACKER = '203.0.113.66';
const VICTIM = '198.51.100.7';
const tooMany = { status: 429, code: 'TOO_MANY_ATTEMPTS', message: ERROR_MESSAGES.TOO_MANY_ATTEMPTS };

/**
 * Issue 12 item 3: behind the configured proxy each client counts on its own, an attacker's
 * failures slow only the attacker's address, and API instances share the counters in Redis.
 */
describe('login limits behind a proxy, shared through Redis', () => {
  // Each test builds its API instances and hashes passwords at every login; it judges no time (a hang still
  // fails): at load 13 the first one took over Jest's 30 s (ci4 of the thirty-second session; the file 25–77 s).
  jest.setTimeout(120_000);
  let t: TestApp;
  const stores: CounterStore[] = [];
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await Promise.all(stores.map((s) => s.close()));
    await t.close();
  });

  /** Instances of one deployment: same database, same Redis (own key prefix per test). */
  async function deployment(n: number, opts: Partial<ServerOptions>): Promise<FastifyInstance[]> {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const out: FastifyInstance[] = [];
    for (let i = 0; i < n; i++) {
      const loginCounters = await redisCounters(await redisUrl(), undefined, prefix);
      const app = await buildServer({ db: t.db, jwtSecret: TEST_JWT_SECRET, loginCounters, trustProxy: [PROXY], ...opts });
      stores.push(loginCounters);
      apps.push(app);
      out.push(app);
    }
    return out;
  }
  /** A login as nginx forwards it: from the proxy's address, the client in X-Forwarded-For. */
  const viaProxy = (app: FastifyInstance, client: string, password: string) =>
    app.inject({ method: 'POST', url: '/identity/login/tenant', remoteAddress: PROXY, headers: { 'x-forwarded-for': client }, payload: { ma_dn: 'demo', username: DEMO.admin.username, password } });

  it("an attacker's failures on one instance hold the attacker back on another, while the owner logs in from elsewhere", async () => {
    const [a, b] = await deployment(2, { accountThrottle: { maxFailures: 3, windowMs: 60_000, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await viaProxy(a, ATTACKER, 'doan-mo')).statusCode).toBe(401);
    const held = await viaProxy(b, ATTACKER, DEMO.admin.password);
    expect([held.statusCode, held.json()]).toEqual([429, tooMany]);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(50);
    const owner = await viaProxy(b, VICTIM, DEMO.admin.password);
    expect(owner.statusCode).toBe(200);
    // The owner's success does not clear the attacker's record.
    expect((await viaProxy(a, ATTACKER, DEMO.admin.password)).statusCode).toBe(429);
  });

  it('counts the per-IP limit across instances, per client behind the trusted proxy', async () => {
    const [a, b] = await deployment(2, { loginRateLimit: { max: 2, timeWindow: 60_000 } });
    expect((await viaProxy(a, ATTACKER, 'x')).statusCode).toBe(401);
    expect((await viaProxy(b, ATTACKER, 'x')).statusCode).toBe(401);
    const third = await viaProxy(a, ATTACKER, 'x');
    expect([third.statusCode, third.json()]).toEqual([429, tooMany]);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Everybody else behind the same proxy still logs in.
    expect((await viaProxy(b, VICTIM, DEMO.admin.password)).statusCode).toBe(200);
  });

  it('believes X-Forwarded-For only from the trusted proxy: a direct client cannot rotate it to escape', async () => {
    const [app] = await deployment(1, { loginRateLimit: { max: 2, timeWindow: 60_000 } });
    const direct = (forged: string) =>
      app.inject({ method: 'POST', url: '/identity/login/tenant', remoteAddress: ATTACKER, headers: { 'x-forwarded-for': forged }, payload: { ma_dn: 'demo', username: 'x', password: 'x' } });
    const codes = [];
    for (const forged of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) codes.push((await direct(forged)).statusCode);
    expect(codes).toEqual([401, 401, 429]);
    // A forged entry in front of what nginx appends does not help either: the proxy's own entry counts.
    const chained = await app.inject({
      method: 'POST', url: '/identity/login/tenant', remoteAddress: PROXY, headers: { 'x-forwarded-for': `9.9.9.9, ${ATTACKER}` }, payload: { ma_dn: 'demo', username: 'x', password: 'x' },
    });
    expect(chained.statusCode).toBe(429);
  });

  it('without TRUST_PROXY the socket address is the client (X-Forwarded-For ignored)', async () => {
    const [app] = await deployment(1, { trustProxy: undefined, loginRateLimit: { max: 1, timeWindow: 60_000 } });
    expect((await viaProxy(app, ATTACKER, 'x')).statusCode).toBe(401);
    expect((await viaProxy(app, VICTIM, 'x')).statusCode).toBe(429);
  });
});
