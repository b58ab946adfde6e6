import type { PbxCallEvent } from '@tongdai/contracts';
import type { RealtimeEvent } from './call-event-hub';
import { INTERNAL_HEADERS, DEMO, login, startTestApp, type TestApp, carrierSource } from '../../../test/helpers';
import { testRedisUrl as redisUrl, stopTestRedis } from '../../../test/redis-server';
import { buildInternalServer } from '../sip/internal-server';
import { redisHub } from './call-event-hub';

// This file's own redis-server (test/redis-server.ts), stopped when the file is done.
afterAll(stopTestRedis);

/** Carriers call in from a switchboard of the tenant (ADR 0036): the plan request's src. */
let carrierSrc = '';

type Socket = Awaited<ReturnType<TestApp['app']['injectWS']>>;

/**
 * The next `n` call events of a socket, parsed (the wall's registration events are skipped). 15 s: the wait
 * covers the plan that publishes the event, up to 8 s (PLAN_WAIT) on a loaded machine (3 s ran out in ci2 of
 * the thirty-first session).
 */
function messages(ws: Socket, n: number, timeoutMs = 15_000): Promise<PbxCallEvent[]> {
  return new Promise((resolve, reject) => {
    const got: PbxCallEvent[] = [];
    const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${n} messages`)), timeoutMs);
    ws.on('message', (data: Buffer) => {
      const e = JSON.parse(data.toString()) as RealtimeEvent;
      if (e.kind !== 'tongdai.pbx-call') return;
      got.push(e);
      if (got.length === n) {
        clearTimeout(timer);
        resolve(got);
      }
    });
  });
}

describe('real-time call events (GET /t/{ma_dn}/events, WebSocket)', () => {
  let t: TestApp;
  let demoToken: string;
  let abcToken: string;
  const open = (maDn: string, token: string) => t.app.injectWS(`/t/${maDn}/events`, { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } });

  beforeAll(async () => {
    t = await startTestApp();
    carrierSrc = await carrierSource(t.db);
    [demoToken, abcToken] = await Promise.all([login(t.app, 'demo', DEMO.admin), login(t.app, 'abc', DEMO.admin)]);
  });
  afterAll(async () => t?.close());

  it('refuses a socket without a valid token, or for another tenant, before the upgrade', async () => {
    await expect(t.app.injectWS('/t/demo/events')).rejects.toThrow(/401/);
    await expect(open('demo', 'not-a-token')).rejects.toThrow(/401/);
    // Another tenant's code in the path: UNAUTHORIZED_TENANT, as on every tenant route.
    await expect(open('demo', abcToken)).rejects.toThrow(/401/);
  });

  it('a trunk call planned by the internal listener rings on the tenant\'s sockets, and only there', async () => {
    const internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub, testClock: true } });
    const demo = await open('demo', demoToken);
    const abc = await open('abc', abcToken);
    const heardByAbc: unknown[] = [];
    abc.on('message', (m: Buffer) => heardByAbc.push(m.toString()));
    try {
      for (const user of ['101', '102']) {
        const r = await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 60 } });
        expect(r.statusCode).toBe(200);
      }
      const next = messages(demo, 1);
      const plan = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=rt-1&source=trunk&from=0901000001&from_domain=carrier.example&to=02873000001&at=2024-06-10T09:00:00+07:00${carrierSrc}` });
      expect(plan.statusCode).toBe(200);
      const [ringing] = await next;
      expect(ringing).toMatchObject({ kind: 'tongdai.pbx-call', version: 1, type: 'ringing', callId: 'rt-1', caller: '0901000001', callee: '02873000001' });
      expect(ringing.type === 'ringing' && [...ringing.extensions].sort()).toEqual(['101', '102']);
      await new Promise((r) => setTimeout(r, 100));
      expect(heardByAbc).toEqual([]);
    } finally {
      demo.terminate();
      abc.terminate();
      await internal.close();
    }
  });
});

describe('call events across API instances (Redis pub/sub)', () => {
  it('an event published by one instance reaches the other instance\'s subscribers of that tenant only', async () => {
    const url = await redisUrl();
    const [a, b] = await Promise.all([redisHub(url), redisHub(url)]);
    try {
      const tenant = 900_000 + Math.floor(Math.random() * 99_999);
      const seen: RealtimeEvent[] = [];
      const other: RealtimeEvent[] = [];
      b.subscribe(tenant, (e) => seen.push(e));
      b.subscribe(tenant + 1, (e) => other.push(e));
      const event: PbxCallEvent = { kind: 'tongdai.pbx-call', version: 1, callId: 'x', at: 1, type: 'answered', extension: '101' };
      a.publish(tenant, event);
      for (let i = 0; i < 50 && !seen.length; i++) await new Promise((r) => setTimeout(r, 20));
      // Numbered on the tenant's channel (one counter in Redis for every instance): the /monitor
      // snapshot's position (seq) says which events it includes.
      expect(seen).toEqual([{ ...event, seq: 1 }]);
      expect(other).toEqual([]);
      b.publish(tenant, { ...event, callId: 'y' });
      for (let i = 0; i < 50 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen.map((e) => ['callId' in e && e.callId, e.seq])).toEqual([['x', 1], ['y', 2]]);
      expect(await a.position(tenant)).toBe(2);
      expect(await b.position(tenant)).toBe(2);
      expect(await a.position(tenant + 1)).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
