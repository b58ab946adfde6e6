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
