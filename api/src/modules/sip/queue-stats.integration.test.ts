import Fastify, { type FastifyInstance } from 'fastify';
import { pbxClient } from '@tongdai/testkit/pbx-kit';
import { INTERNAL_HEADERS, carrierSource, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import type { CallTracker } from '../cdr/call-tracker';
import { registerCallRouting } from './call-routing';
import { buildInternalServer } from './internal-server';

const RR_DID = '02873000071';
const FEW_DID = '02873000072';
const LEAST_DID = '02873000073';

/**
 * Issue 16: rrmemory, leastrecent and fewestcalls remember in PostgreSQL (migration 0037), not in
 * one process. Instance A is the call routing an API process runs (its tracker hears the answers,
 * as Kamailio's events would tell it); instance B is another API process's internal listener; C
 * is one started after them (a restart). Each plans a queue caller's agents through the same
 * endpoints Kamailio and the media worker use.
 */
describe('queue strategies remember across API instances and restarts', () => {
  let t: TestApp;
  let src = '';
  const servers: FastifyInstance[] = [];
  let a: { app: FastifyInstance; tracker: CallTracker };
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
    src = await carrierSource(t.db);
    const demo = pbxClient(t.app, (await demoHeaders(t.app)).admin);
    for (const [did, strategy] of [[RR_DID, 'rrmemory'], [FEW_DID, 'fewestcalls'], [LEAST_DID, 'leastrecent']] as const) {
      const q = await demo.post('/partner/queues', { name: `Hàng đợi ${strategy}`, agents: ['101', '102'], strategy, agent_timeout: 15, max_wait: 60 });
      expect(q.statusCode).toBe(201);
      expect((await demo.post('/partner/number', { number: did })).statusCode).toBe(201);
      const route = await demo.post('/partner/inbound', { did, destination: { type: 'queue', target: String(q.json().data.id) } });
      expect(route.statusCode).toBe(201);
    }
    const appA = Fastify();
    servers.push(appA);
    a = { app: appA, tracker: registerCallRouting(appA, t.db, { internalSecret: INTERNAL_HEADERS['x-tongdai-internal'] }) };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await t?.close();
  });

  /** Another API process's internal listener, with 101 and 102 registered to it. */
  async function instance(app: FastifyInstance = buildInternalServer(t.db)): Promise<FastifyInstance> {
    if (!servers.includes(app)) servers.push(app);
    for (const user of ['101', '102']) {
      const r = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 600 } });
      expect(r.statusCode).toBe(200);
    }
    return app;
  }

  /** A carrier's caller reaches the queue on `did`; the media worker asks for its agents: the leg's Call-ID and whom it rings, in order. */
  async function queueLeg(app: FastifyInstance, did: string): Promise<{ legId: string; rings: string[] }> {
    const callId = `q-${++n}`;
    const plan = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=090100${String(n).padStart(4, '0')}&from_domain=carrier.example&to=${did}${src}` });
    expect(plan.json().steps[0].do).toBe('media');
    const next = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/media/continue', payload: { call_id: callId, step: 0, choice: { kind: 'queue_agents' } } });
    const token = next.json().token as string;
    expect(token).toMatch(/^c[0-9a-f]+$/);
    const legId = `leg-${n}`;
    const leg = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${legId}&source=media&continue=${token}` });
    // A serial strategy: one Kamailio step per agent, in the order they ring.
    const steps = leg.json().steps as { do: string; targets?: string[] }[];
    expect(steps[0].do).toBe('ring');
    return { legId, rings: steps.flatMap((s) => (s.do === 'ring' ? s.targets ?? [] : [])) };
  }

  /** On instance A: the agent answers the leg, talks, hangs up; then A has written what it shares. */
  async function answeredOnA(leg: { legId: string; rings: string[] }, extension: string) {
    const before = await written();
    a.tracker.answered(leg.legId, extension, leg.rings.indexOf(extension));
    a.tracker.ended(leg.legId);
    for (let i = 0; i < 80; i++) {
      const now = await written();
      if (now.calls === before.calls + 1 && now.open === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('instance A did not record the call in queue_agent_stats');
  }
  /** Calls recorded in all, and agents whose last answered call has no end written yet. */
  const written = () =>
    t.db.withSystem(async (tx) => {
      const { rows } = await tx.query<{ calls: number; open: number }>(
        'select coalesce(sum(calls), 0)::int as calls, (count(*) filter (where last_ended_at is null or last_ended_at < last_answered_at))::int as open from queue_agent_stats',
      );
      return rows[0];
    });

  it('rrmemory: after A’s caller was answered by 101, B rings 102 first; a restarted instance too; then it wraps around', async () => {
    await instance(a.app);
    const b = await instance();
    // Nothing remembered yet: the list's order.
    expect((await queueLeg(b, RR_DID)).rings).toEqual(['101', '102']);
    const first = await queueLeg(a.app, RR_DID);
    expect(first.rings).toEqual(['101', '102']);
    await answeredOnA(first, '101');
    expect((await queueLeg(b, RR_DID)).rings).toEqual(['102', '101']);
    // Restart: an instance built now reads the same memory.
    const c = await instance();
    expect((await queueLeg(c, RR_DID)).rings).toEqual(['102', '101']);
    const second = await queueLeg(a.app, RR_DID);
    await answeredOnA(second, '102');
    expect((await queueLeg(c, RR_DID)).rings).toEqual(['101', '102']);
  });

  it('fewestcalls counts the calls each agent took from this queue only: 101 took two, 102 one, so B rings 102 first', async () => {
    const b = await instance();
    // Both answered the rrmemory queue above: that does not count in this one.
    expect((await queueLeg(b, FEW_DID)).rings).toEqual(['101', '102']);
    for (const ext of ['101', '102', '101']) await answeredOnA(await queueLeg(a.app, FEW_DID), ext);
    expect((await queueLeg(b, FEW_DID)).rings).toEqual(['102', '101']);
  });

  it('leastrecent rings first the agent whose last call from this queue ended longest ago', async () => {
    const b = await instance();
    expect((await queueLeg(b, LEAST_DID)).rings).toEqual(['101', '102']);
    await answeredOnA(await queueLeg(a.app, LEAST_DID), '102');
    // 101 has taken no call from this queue: first.
    expect((await queueLeg(b, LEAST_DID)).rings).toEqual(['101', '102']);
    await answeredOnA(await queueLeg(a.app, LEAST_DID), '101');
    expect((await queueLeg(b, LEAST_DID)).rings).toEqual(['102', '101']);
  });
});
