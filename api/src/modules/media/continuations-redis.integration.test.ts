import { randomBytes } from 'node:crypto';
import { RedisStatus } from '../../db/redis';
import { REDIS_MISSING, startRedisServer, type RedisServer } from '../../../test/redis-server';
import type { RoutingPlan } from '../routing';
import { redisContinuations, type ContinuationStore } from './continuation';

/**
 * A media step's continuation tokens in Redis (ADR 0059's open window): the instance that takes the
 * calls over in a hand-over finds the tokens the other made. Two stores on one redis-server stand for
 * two API instances; the server is stopped and started to see the stores while it is away.
 */
describe('continuation tokens in Redis: made by one instance, taken once by any', () => {
  let redis: RedisServer;
  const opened: ContinuationStore[] = [];
  const statuses: RedisStatus[] = [];
  const plan = { from: '0909000001', to: '02873000012', steps: [{ kind: 'hangup' }], route: [] } as unknown as RoutingPlan;
  const prefix = `tongdai:test-continuation:${randomBytes(4).toString('hex')}:`;
  /** An instance's store: a connection of its own, as main.ts opens one per API process. */
  const instance = async () => {
    const status = new RedisStatus(() => undefined);
    const store = await redisContinuations(redis.url, status, () => undefined, prefix);
    statuses.push(status);
    opened.push(store);
    return { store, status };
  };
  const until = async (what: string, done: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!done()) {
      if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    const started = await startRedisServer();
    if (!started) throw new Error(REDIS_MISSING);
    redis = started;
  });

  afterAll(async () => {
    for (const store of opened) await store.close?.();
    await redis?.stop();
  });

  it('a token one instance made is taken by the other, once; none by a forged or lapsed token', async () => {
    const [a, b] = [await instance(), await instance()];
    const token = await a.store.add({ parentCallId: 'ivr-call', tenantId: 1, maDn: 'demo', plan });
    expect(token).toMatch(/^c[0-9a-f]{24}$/);
    expect(await b.store.take(token)).toMatchObject({ parentCallId: 'ivr-call', tenantId: 1, maDn: 'demo', plan });
    expect(await b.store.take(token)).toBeNull();
    expect(await a.store.take(token)).toBeNull();
    expect(await b.store.take(`c${'0'.repeat(24)}`)).toBeNull();
    const lapsing = await a.store.add({ parentCallId: 'late', tenantId: 1, maDn: 'demo', plan }, 100);
    await new Promise((r) => setTimeout(r, 300));
    expect(await b.store.take(lapsing)).toBeNull();
  });

  it('while Redis is away a token is kept by the instance that made it (found there, not elsewhere); once back, shared again', async () => {
    const [a, b] = [await instance(), await instance()];
    await redis.down();
    await until('both instances see Redis away', () => !a.status.up && !b.status.up);
    const started = Date.now();
    const token = await a.store.add({ parentCallId: 'during', tenantId: 1, maDn: 'demo', plan });
    // Never waits on the missing Redis (REDIS_TIMEOUT_MS at most; at once once it is known away).
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await b.store.take(token)).toBeNull();
    expect(await a.store.take(token)).toMatchObject({ parentCallId: 'during' });
    expect(await a.store.take(token)).toBeNull();
    await redis.up();
    await until('both instances have Redis back', () => a.status.up && b.status.up);
    const after = await a.store.add({ parentCallId: 'after', tenantId: 1, maDn: 'demo', plan });
    expect(await b.store.take(after)).toMatchObject({ parentCallId: 'after' });
  }, 30_000);
});
