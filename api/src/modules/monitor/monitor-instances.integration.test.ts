import type { FastifyInstance } from 'fastify';
import { MONITOR_API, type MonitorSnapshot } from '@tongdai/contracts';
import { INTERNAL_HEADERS, DEMO, TEST_JWT_SECRET, login, bearer, startTestApp, type TestApp, carrierSource } from '../../../test/helpers';
import { testRedisUrl, stopTestRedis } from '../../../test/redis-server';
import { openDb } from '../../db/open';
import type { Db } from '../../db/db';
import { buildServer } from '../../server';
import { buildInternalServer } from '../sip/internal-server';
import { redisHub, type CallEventHub, type RealtimeEvent } from '../realtime/call-event-hub';

// This file's own redis-server (test/redis-server.ts), stopped when the file is done.
afterAll(stopTestRedis);

/** Carriers call in from a switchboard of the tenant (ADR 0036): the plan request's src. */
let carrierSrc = '';

/**
 * Several API instances (ADR 0026): two servers on one PostgreSQL database and one Redis, each
 * with its own hub. Kamailio and the media worker talk to instance A's internal listener; a wall
 * served by instance B sees the call in its snapshot and on its socket.
 */
describe('live monitoring across two API instances (one Redis, one PostgreSQL)', () => {
  let a: TestApp;
  let bDb: Db;
  let b: FastifyInstance;
  let hubs: CallEventHub[];
  let internalA: FastifyInstance;

  beforeAll(async () => {
    const url = await testRedisUrl();
    hubs = [await redisHub(url), await redisHub(url)];
    a = await startTestApp({ hub: hubs[0] });
    carrierSrc = await carrierSource(a.db);
    bDb = await openDb({ databaseUrl: a.dbUrl });
    b = await buildServer({ db: bDb, jwtSecret: TEST_JWT_SECRET, hub: hubs[1] });
    internalA = buildInternalServer(a.db, { calls: { hub: hubs[0], testClock: true } });
  });
  afterAll(async () => {
    await internalA?.close();
    await b?.close();
    await bDb?.close();
    await a?.close();
    await Promise.all((hubs ?? []).map((h) => h.close()));
  });

  it('a call planned on instance A shows in instance B\'s snapshot and on a socket B serves', async () => {
    const token = await login(b, 'demo', DEMO.admin);
    const ws = await b.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } });
    const heard: RealtimeEvent[] = [];
    ws.on('message', (m: Buffer) => heard.push(JSON.parse(m.toString())));
    const snapshotB = async (): Promise<MonitorSnapshot> => (await b.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: bearer(token) })).json().data;
    const until = async (check: () => boolean | Promise<boolean>) => {
      for (const end = Date.now() + 3000; !(await check()); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error('not in time');
    };
    try {
      for (const user of ['101', '102']) {
        await internalA.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 60 } });
      }
      const sent = Date.now();
      const plan = await internalA.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=two-1&source=trunk&from=0904000001&from_domain=carrier.example&to=02873000001&at=2024-06-10T09:00:00%2B07:00${carrierSrc}` });
      expect(plan.statusCode).toBe(200);
      await until(() => heard.some((e) => e.type === 'ringing'));
      console.log(`event planned on instance A reached a socket on instance B in ${Date.now() - sent} ms`);
      expect(heard.find((e) => e.type === 'ringing')).toMatchObject({ callId: 'two-1', caller: '0904000001' });
      const snap = await snapshotB();
      expect(snap.calls.find((c) => c.call_id === 'two-1')).toMatchObject({ state: 'ringing', direction: 'inbound', caller: '0904000001' });
      expect([...snap.calls.find((c) => c.call_id === 'two-1')!.ringing].sort()).toEqual(['101', '102']);
      expect(snap.agents.filter((x) => x.registered).map((x) => x.extension).sort()).toEqual(['101', '102']);
      expect(snap.agents.find((x) => x.extension === '101')?.call_id).toBe('two-1');
    } finally {
      ws.terminate();
      // Redis outlives this file's database: leave no live state under the demo tenant's id for another test run.
      const tenantId = await a.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
      await hubs[0].live.removeCall(tenantId, 'two-1');
      for (const ext of ['101', '102']) await hubs[0].live.registrations.report(tenantId, ext, 0);
    }
  });
});
