import Fastify, { type FastifyInstance } from 'fastify';
import {
  MONITOR_API, vnDay,
  type CallFigures, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse, type Kpi, type MonitorHourly, type MonitorSnapshot, type Queue,
} from '@tongdai/contracts';
import { pbxClient, type PbxClient } from '@tongdai/testkit/pbx-kit';
import { INTERNAL_HEADERS, carrierSource, startTestApp, type TestApp } from '../../../test/helpers';
import type { CallTracker } from '../cdr/call-tracker';
import { seedReportCalls, type ReportFixture } from '../reports/reports.fixture';
import { registerCallRouting } from '../sip/call-routing';

const CSAT_DID = '02873000081';
const PLAIN_DID = '02873000082';
const TODAY = vnDay(new Date());
const today = `from=${TODAY}&to=${TODAY}`;

/**
 * Post-call CSAT (issue 34) on a real PostgreSQL, through the endpoints Kamailio and the media worker
 * use: a queue with csat on tells the worker (its queue_agents continue says csat: true) to ask the
 * caller once the agent hangs up; the key reported (POST /internal/sip/media/csat) goes on the call's
 * record, with the agent who answered, once; the read model counts it, so the per-extension and
 * department summaries, the dashboard's and /monitor's today and the KPIs show the same CSAT.
 * Two rated calls today: 102 (customer care) answered one rated 4 while the caller was still on
 * the line; 101 (sales) one rated 2 after the caller had hung up (its record already written).
 * The fixture's own calls are on another day.
 */
let t: TestApp;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];
let pbx: PbxClient;
let src = '';
let app: FastifyInstance;
let tracker: CallTracker;
let csatQueue: number;
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
  ({ h, ids } = await seedReportCalls(t));
  src = await carrierSource(t.db);
  pbx = pbxClient(t.app, h.admin);
  for (const [did, csat] of [[CSAT_DID, true], [PLAIN_DID, false]] as const) {
    const q = await pbx.post('/partner/queues', { name: `Hàng đợi CSAT ${csat}`, agents: ['101', '102'], strategy: 'ringall', agent_timeout: 15, max_wait: 60, ...(csat && { csat }) });
    expect(q.statusCode).toBe(201);
    if (csat) csatQueue = q.json().data.id;
    expect((await pbx.post('/partner/number', { number: did })).statusCode).toBe(201);
    expect((await pbx.post('/partner/inbound', { did, destination: { type: 'queue', target: String(q.json().data.id) } })).statusCode).toBe(201);
  }
  app = Fastify();
  tracker = registerCallRouting(app, t.db, { internalSecret: INTERNAL_HEADERS['x-tongdai-internal'] });
  for (const user of ['101', '102']) {
    const r = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 600 } });
    expect(r.statusCode).toBe(200);
  }
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

/** A carrier's caller reaches the queue on `did` (the worker takes it, step 0) and the worker asks for its agents. */
async function queueCall(did: string) {
  const callId = `csat-${++n}`;
  const plan = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=090300${String(n).padStart(4, '0')}&from_domain=carrier.example&to=${did}${src}` });
  expect(plan.json().steps[0].do).toBe('media');
  const next = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/media/continue', payload: { call_id: callId, step: 0, choice: { kind: 'queue_agents' } } });
  expect(next.statusCode).toBe(200);
  const legId = `csat-leg-${n}`;
  const leg = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${legId}&source=media&continue=${next.json().token}` });
  const steps = leg.json().steps as { do: string; targets?: string[] }[];
  /** The agent answers the leg, talks, hangs up (the caller stays with the worker for the question). */
  const answeredBy = (extension: string, at = new Date(), hungUpAt = new Date()) => {
    tracker.answered(legId, extension, steps.findIndex((s) => s.targets?.includes(extension)), at);
    tracker.ended(legId, hungUpAt);
  };
  return { callId, continued: next.json() as Record<string, unknown>, answeredBy };
}

const csat = (payload: unknown) => app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/media/csat', payload: payload as object });

/** The call's record once the writer has written it. */
async function recordOf(callId: string): Promise<{ csat: number | null; extension: string | null; disposition: string; billsec?: number; duration?: number }> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await t.db.withTenant(ids.demo, (tx) => tx.query<{ csat: number | null; extension: string | null; disposition: string }>(
      'select csat, extension, disposition from cdrs where call_id = $1', [callId]));
    if (rows[0]) return rows[0];
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no record of ${callId}`);
}

async function json<T>(url: string, headers = h.admin): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json();
}

const AGENT_102: Partial<CallFigures> = { csat_count: 1, csat_avg: 4 };
const AGENT_101: Partial<CallFigures> = { csat_count: 1, csat_avg: 2 };
const TENANT: Partial<CallFigures> = { csat_count: 2, csat_avg: 3 };

describe('post-call CSAT', () => {
  it('the queue API keeps csat (off unless asked)', async () => {
    const on = (await pbx.get(`/partner/queues/${csatQueue}`)).json<{ data: Queue }>().data;
    expect(on.csat).toBe(true);
    const plain = await pbx.post('/partner/queues', { name: 'Hàng đợi không hỏi', agents: ['102'], strategy: 'ringall', agent_timeout: 15, max_wait: 60 });
    expect(plain.json<{ data: Queue }>().data.csat).toBe(false);
    const off = await pbx.put(`/partner/queues/${plain.json().data.id}`, { ...plain.json().data, csat: true });
    expect([off.statusCode, off.json<{ data: Queue }>().data.csat]).toEqual([200, true]);
    expect((await pbx.get(`/partner/queues/${plain.json().data.id}`)).json<{ data: Queue }>().data.csat).toBe(true);
  });

  it('a queue with csat: its queue_agents continue says csat: true; without: absent, and no score is taken', async () => {
    const plain = await queueCall(PLAIN_DID);
    expect(plain.continued).not.toHaveProperty('csat');
    plain.answeredBy('102');
    const refused = await csat({ call_id: plain.callId, step: 0, score: 4 });
    expect([refused.statusCode, refused.json()]).toEqual([404, { error: 'NO_CSAT_CALL' }]);
    tracker.ended(plain.callId);
    expect(await recordOf(plain.callId)).toMatchObject({ csat: null, extension: '102', disposition: 'ANSWERED' });
  });

  it('the score goes on the answered queue call’s record with its agent, once; a bad score is 400, an unknown call 404', async () => {
    // 102 answers; the caller rates the call while still on the line (the record is written at its end).
    const first = await queueCall(CSAT_DID);
    expect(first.continued).toMatchObject({ csat: true });
    first.answeredBy('102');
    for (const score of [0, 6, 'x', 4.5, null]) {
      const bad = await csat({ call_id: first.callId, step: 0, score });
      expect([score, bad.statusCode, bad.json().error]).toEqual([score, 400, 'BAD_CSAT_SCORE']);
    }
    expect((await csat({ call_id: first.callId, step: 'zero', score: 4 })).statusCode).toBe(400);
    expect((await csat({ call_id: 'nobody-knows', step: 0, score: 4 })).statusCode).toBe(404);
    expect((await csat({ call_id: first.callId, step: 0, score: 4 })).json()).toEqual({ applied: true });
    expect((await csat({ call_id: first.callId, step: 0, score: 5 })).json()).toEqual({ applied: false });
    tracker.ended(first.callId);
    expect(await recordOf(first.callId)).toEqual({ csat: 4, extension: '102', disposition: 'ANSWERED' });

    // 101 answers; the caller presses 2 as they hang up: the score comes after the record was written.
    const second = await queueCall(CSAT_DID);
    second.answeredBy('101');
    tracker.ended(second.callId);
    expect(await recordOf(second.callId)).toMatchObject({ csat: null, extension: '101' });
    expect((await csat({ call_id: second.callId, step: 0, score: 2 })).json()).toEqual({ applied: true });
    expect((await csat({ call_id: second.callId, step: 0, score: 3 })).json()).toEqual({ applied: false });
    expect(await recordOf(second.callId)).toEqual({ csat: 2, extension: '101', disposition: 'ANSWERED' });
    // The first call's score again, its record written: still not taken twice.
    expect((await csat({ call_id: first.callId, step: 0, score: 1 })).json()).toEqual({ applied: false });

    // Every grain holds each score once: what the records say.
    const grains = await t.db.withTenant(ids.demo, (tx) => tx.query<{ g: string; count: number; sum: number }>(
      `select 'hourly' as g, sum(csat_count)::int as count, sum(csat_sum)::int as sum from cdr_hourly
       union all select 'daily', sum(csat_count)::int, sum(csat_sum)::int from cdr_daily
       union all select 'daily_queue', sum(csat_count)::int, sum(csat_sum)::int from cdr_daily_queue`));
    expect(grains.rows).toEqual([{ g: 'hourly', count: 2, sum: 6 }, { g: 'daily', count: 2, sum: 6 }, { g: 'daily_queue', count: 2, sum: 6 }]);
  });

  it('per extension: each agent’s row shows their calls’ CSAT; department/team the same', async () => {
    const { data } = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}`);
    expect(Object.fromEntries(data.map((r) => [r.extension, { csat_count: r.csat_count, csat_avg: r.csat_avg }]))).toEqual({ 101: AGENT_101, 102: AGENT_102 });
    // 102's user: their own row.
    expect((await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}`, h.staff)).data).toEqual([data.find((r) => r.extension === '102')]);
    // Filtered by queue (cdr_daily_queue): the same; a day without a rated call: none.
    const byQueue = await json<ExtensionSummaryResponse>(`/t/demo/reports/by-extension?${today}&queue=${csatQueue}`);
    expect(byQueue.data.map((r) => [r.extension, r.csat_count, r.csat_avg])).toEqual([['101', 1, 2], ['102', 1, 4]]);
    const before = await json<ExtensionSummaryResponse>('/t/demo/reports/by-extension?from=2026-03-10&to=2026-03-10');
    expect(before.data.every((r) => r.csat_count === 0 && r.csat_avg === null)).toBe(true);

    const res = await json<DepartmentTeamSummaryResponse>(`/t/demo/reports/by-department-team?${today}`);
    const care = res.data.find((d) => d.department_id === ids.care)!;
    expect(care).toMatchObject(AGENT_102);
    expect(care.teams.find((x) => x.team_id === ids.team)).toMatchObject(AGENT_102);
    expect(res.data.find((d) => d.department_id === ids.sales)).toMatchObject(AGENT_101);
    expect(res.series.points.reduce((s, p) => s + p.csat_count, 0)).toBe(2);
  });

  it("dashboard and /monitor: today's figures and the hourly chart; 102's own", async () => {
    const wall = (await json<{ data: MonitorSnapshot }>(`/t/demo/${MONITOR_API.snapshot}`)).data;
    expect(wall.today).toMatchObject(TENANT);
    const chart = (await json<{ data: MonitorHourly }>(`/t/demo/${MONITOR_API.hourly}`)).data;
    expect(chart.today.reduce((s, p) => s + p.csat_count, 0)).toBe(2);
    const own = (await json<{ data: MonitorSnapshot }>(`/t/demo/${MONITOR_API.snapshot}`, h.staff)).data;
    expect(own.today).toMatchObject(AGENT_102);
  });

  it('KPI csat_avg: the assignee’s mean score, on track at or above its target; a target is 1–5', async () => {
    const kpi = async (target: number | string, assignee: { type: string; id: number }) => t.app.inject({
      method: 'POST', url: '/t/demo/kpis', headers: h.admin,
      payload: { name: `CSAT ${assignee.type} ${assignee.id} ${target}`, measure: 'csat_avg', target, period: 'day', start_date: TODAY, assignee },
    });
    const progress = async (target: number, assignee: { type: string; id: number }) => {
      const res = await kpi(target, assignee);
      expect(res.statusCode).toBe(201);
      return (await json<{ data: Kpi }>(`/t/demo/kpis/${res.json<{ data: Kpi }>().data.id}`)).data.progress;
    };
    expect(await progress(4, { type: 'user', id: ids.staffId })).toMatchObject({ actual: 4, percent: 100, status: 'on_track' });
    expect(await progress(4, { type: 'department', id: ids.care })).toMatchObject({ actual: 4, status: 'on_track' });
    expect(await progress(3, { type: 'user', id: ids.adminId })).toMatchObject({ actual: 2, status: 'behind' });
    // Someone with no rated call yet: nothing to average.
    expect(await progress(4, { type: 'user', id: ids.managerId })).toMatchObject({ actual: 0, status: 'no_calls' });
    for (const target of [6, 0.5]) {
      const bad = await kpi(target, { type: 'user', id: ids.staffId });
      expect([target, bad.statusCode]).toEqual([target, 400]);
    }
  });

  it('the talk time ends when the agent hangs up, not when the caller leaves after the question', async () => {
    const call = await queueCall(CSAT_DID);
    const t0 = Date.now();
    // 101 talks 20 s and hangs up; the caller answers the question and leaves 12 s later.
    call.answeredBy('101', new Date(t0), new Date(t0 + 20_000));
    tracker.ended(call.callId, new Date(t0 + 32_000));
    await recordOf(call.callId);
    const { rows } = await t.db.withTenant(ids.demo, (tx) => tx.query<{ billsec: number; duration: number }>('select billsec, duration from cdrs where call_id = $1', [call.callId]));
    expect(rows[0].billsec).toBe(20);
    expect(rows[0].duration).toBeGreaterThanOrEqual(32);
  });
});

/**
 * An inbound route's own CSAT (ADR 0056): a call the route sends straight to an extension gets the
 * worker in front (a bridge step, ADR 0041), whose continuation (the rest of the plan) is answered with
 * csat: true; 102 answers that leg and hangs up, the caller's key goes on the call's record with 102.
 * After the tests above: they count the rated calls of today, these add to them.
 */
describe("post-call CSAT on an inbound route", () => {
  const ROUTE_DID = '02873000083';
  const ROUTE_PLAIN_DID = '02873000084';
  const ROUTE_QUEUE_DID = '02873000085';
  const ROUTE_IVR_DID = '02873000086';
  const ROUTE_GROUP_DID = '02873000087';
  let routeId = 0;

  beforeAll(async () => {
    const plainQueue = await pbx.post('/partner/queues', { name: 'Hàng đợi của tuyến CSAT', agents: ['101'], strategy: 'ringall', agent_timeout: 15, max_wait: 60 });
    const menu = await pbx.post('/partner/ivr_detail', { name: 'Menu CSAT', entries: [{ digit: '1', destination: { type: 'direct', target: '102' } }] });
    // A group of 101 that falls to the queue that asks (csatQueue) when 101 does not answer.
    const group = await pbx.post('/partner/group-inbounds', { name: 'Nhóm CSAT', extensions: ['101'], strategy: 'ringall', ring_time: 10, destination: { type: 'queue', target: String(csatQueue) } });
    expect([plainQueue.statusCode, menu.statusCode, group.statusCode]).toEqual([201, 201, 201]);
    const routes = [
      [ROUTE_DID, { type: 'direct', target: '102' }, true],
      [ROUTE_PLAIN_DID, { type: 'direct', target: '102' }, undefined],
      [ROUTE_QUEUE_DID, { type: 'queue', target: String(plainQueue.json().data.id) }, true],
      [ROUTE_IVR_DID, { type: 'ivr', target: String(menu.json().data.id) }, true],
      [ROUTE_GROUP_DID, { type: 'group', target: String(group.json().data.id) }, true],
    ] as const;
    for (const [did, destination, on] of routes) {
      expect((await pbx.post('/partner/number', { number: did })).statusCode).toBe(201);
      const r = await pbx.post('/partner/inbound', { did, destination, ...(on && { csat: on }) });
      expect([did, r.statusCode, r.json().data.csat]).toEqual([did, 201, on === true]);
      if (did === ROUTE_DID) routeId = r.json().data.id;
    }
  });

  /** A carrier's caller on `did`: the first Kamailio step, and the worker's session when it is a media step. */
  async function routeCall(did: string) {
    const callId = `route-csat-${++n}`;
    const plan = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=090400${String(n).padStart(4, '0')}&from_domain=carrier.example&to=${did}${src}` });
    const first = (plan.json().steps as { do: string }[])[0];
    const session = first.do === 'media' ? (await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/media/session?call_id=${callId}&step=0` })).json() : null;
    /** The worker asks where the caller goes; Kamailio fetches that leg's plan; `extension` answers it and hangs up. */
    const continued = async (choice: object) => {
      const next = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/media/continue', payload: { call_id: callId, step: 0, choice } });
      expect(next.statusCode).toBe(200);
      const legId = `${callId}-leg`;
      const leg = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${legId}&source=media&continue=${next.json().token}` });
      const steps = leg.json().steps as { do: string; targets?: string[] }[];
      const answeredBy = (extension: string) => {
        tracker.answered(legId, extension, steps.findIndex((s) => s.targets?.includes(extension)));
        tracker.ended(legId);
      };
      return { legId, answer: next.json() as Record<string, unknown>, steps, answeredBy };
    };
    return { callId, first, session, continued };
  }

  it('the route API keeps csat (off unless asked); a PUT changes it', async () => {
    expect((await pbx.get(`/partner/inbound/${routeId}`)).json().data.csat).toBe(true);
    const off = await pbx.put(`/partner/inbound/${routeId}`, { did: ROUTE_DID, destination: { type: 'direct', target: '102' }, csat: false });
    expect([off.statusCode, off.json().data.csat]).toEqual([200, false]);
    const on = await pbx.put(`/partner/inbound/${routeId}`, { did: ROUTE_DID, destination: { type: 'direct', target: '102' }, csat: true });
    expect([on.statusCode, on.json().data.csat]).toEqual([200, true]);
  });

  it("a route to 102 with csat: the worker bridges (unrecorded), the bridge's continuation says csat: true; 102's caller rates the call", async () => {
    const call = await routeCall(ROUTE_DID);
    expect(call.first.do).toBe('media');
    expect(call.session).toMatchObject({ step: { kind: 'bridge' }, record_ticket: null });
    const leg = await call.continued({ kind: 'next' });
    expect(leg.answer).toMatchObject({ token: expect.any(String), csat: true });
    expect(leg.steps[0]).toMatchObject({ do: 'ring', targets: ['102'] });
    leg.answeredBy('102');
    expect((await csat({ call_id: call.callId, step: 0, score: 5 })).json()).toEqual({ applied: true });
    expect((await csat({ call_id: call.callId, step: 0, score: 1 })).json()).toEqual({ applied: false });
    tracker.ended(call.callId);
    expect(await recordOf(call.callId)).toEqual({ csat: 5, extension: '102', disposition: 'ANSWERED' });
  });

  it('a route without csat rings 102 straight (no worker): nothing asks, no score is taken', async () => {
    const call = await routeCall(ROUTE_PLAIN_DID);
    expect(call.first).toMatchObject({ do: 'ring', targets: ['102'] });
    const refused = await csat({ call_id: call.callId, step: 0, score: 4 });
    expect([refused.statusCode, refused.json()]).toEqual([404, { error: 'NO_CSAT_CALL' }]);
  });

  it("a route with csat to a queue that does not ask: the queue's own setting (its agents' continuation says nothing)", async () => {
    const call = await routeCall(ROUTE_QUEUE_DID);
    expect(call.session).toMatchObject({ step: { kind: 'queue' } });
    const leg = await call.continued({ kind: 'queue_agents' });
    expect(leg.answer.token).toEqual(expect.any(String));
    expect(leg.answer).not.toHaveProperty('csat');
    leg.answeredBy('101');
    expect((await csat({ call_id: call.callId, step: 0, score: 3 })).statusCode).toBe(404);
  });

  it("a route with csat to an IVR: the menu's way on to 102 says csat: true, and the score lands on the record with 102", async () => {
    const call = await routeCall(ROUTE_IVR_DID);
    expect(call.session).toMatchObject({ step: { kind: 'ivr' } });
    const leg = await call.continued({ kind: 'digits', digits: '1' });
    expect(leg.answer).toMatchObject({ csat: true });
    leg.answeredBy('102');
    expect((await csat({ call_id: call.callId, step: 0, score: 3 })).json()).toEqual({ applied: true });
    tracker.ended(call.callId);
    expect(await recordOf(call.callId)).toEqual({ csat: 3, extension: '102', disposition: 'ANSWERED' });
  });

  it('a route with csat to a group that falls to a queue that asks: the bridge asks, the queue (in its leg) does not ask again', async () => {
    const call = await routeCall(ROUTE_GROUP_DID);
    expect(call.session).toMatchObject({ step: { kind: 'bridge' } });
    const leg = await call.continued({ kind: 'next' });
    expect(leg.answer).toMatchObject({ csat: true });
    // 101 does not answer: Kamailio hands the leg's queue step to a worker, which asks for the agents.
    const queueStep = leg.steps.findIndex((s) => s.do === 'media');
    expect(leg.steps[0]).toMatchObject({ do: 'ring', targets: ['101'] });
    expect(queueStep).toBeGreaterThan(0);
    const session = await app.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/media/session?call_id=${leg.legId}&step=${queueStep}` });
    expect(session.json()).toMatchObject({ step: { kind: 'queue', queueId: csatQueue } });
    const agents = await app.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/media/continue', payload: { call_id: leg.legId, step: queueStep, choice: { kind: 'queue_agents' } } });
    expect(agents.json().token).toEqual(expect.any(String));
    expect(agents.json()).not.toHaveProperty('csat');
    expect((await csat({ call_id: leg.legId, step: queueStep, score: 4 })).statusCode).toBe(404);
  });
});
