import type { FastifyInstance } from 'fastify';
import { MONITOR_API, type MonitorHourly, type MonitorSnapshot } from '@tongdai/contracts';
import { CdrWriter } from '../cdr/cdr.service';
import { INTERNAL_HEADERS, DEMO, demoHeaders, login, startTestApp, type TestApp, carrierSource } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';
import type { RealtimeEvent } from '../realtime/call-event-hub';

/** Carriers call in from a switchboard of the tenant (ADR 0036): the plan request's src. */
let carrierSrc = '';

type Socket = Awaited<ReturnType<TestApp['app']['injectWS']>>;
const DOMAIN = 'demo.tongdai.local';
const MONDAY = '2024-06-10T09:00:00+07:00';

/** Everything a socket hears, parsed. */
function hear(ws: Socket): RealtimeEvent[] {
  const heard: RealtimeEvent[] = [];
  ws.on('message', (m: Buffer) => heard.push(JSON.parse(m.toString())));
  return heard;
}
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The wall's API without real phones (issue 14): the internal listener plans calls as Kamailio
 * asks and the media worker takes a caller into a queue (the same HTTP requests they make); the
 * snapshot and the sockets show it to whom may see it. calls-monitor.integration.test.ts does the
 * same with Kamailio and sipp.
 */
describe('live monitoring: snapshot and per-user events', () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let headers: Awaited<ReturnType<typeof demoHeaders>>;
  let queueId: number;
  const open = (token: string) => t.app.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } });
  const snapshot = async (h: Record<string, string>): Promise<MonitorSnapshot> => {
    const res = await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: h });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const api = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: headers.admin, payload });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const route = (callId: string, from: string, to: string) =>
    internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=${from}&from_domain=carrier.example&to=${to}&at=${encodeURIComponent(MONDAY)}${carrierSrc}` });

  beforeAll(async () => {
    t = await startTestApp();
    carrierSrc = await carrierSource(t.db);
    headers = await demoHeaders(t.app);
    internal = buildInternalServer(t.db, { calls: { hub: t.app.deps.hub, testClock: true } });
    const queue = await api('/pbx/partner/queues?CodeCompany=demo', { name: 'Chăm sóc khách hàng', agents: ['102'], strategy: 'linear', agent_timeout: 10, max_wait: 60, sla_seconds: 15, amber_wait_seconds: 20, red_wait_seconds: 40 });
    queueId = queue.id;
    for (const [did, destination] of [
      ['02873009001', { type: 'queue', target: String(queueId) }],
      ['02873009101', { type: 'direct', target: '101' }],
      ['02873009102', { type: 'direct', target: '102' }],
    ] as const) {
      await api('/pbx/partner/number?CodeCompany=demo', { number: did });
      await api('/pbx/partner/inbound?CodeCompany=demo', { did, destination });
    }
  });
  afterAll(async () => {
    await internal?.close();
    await t?.close();
  });

  it('the queue keeps its thresholds; a registration shows on the wall and as an event', async () => {
    const q = await t.app.inject({ url: `/pbx/partner/queues/${queueId}?CodeCompany=demo`, headers: headers.admin });
    expect(q.json().data).toMatchObject({ sla_seconds: 15, amber_wait_seconds: 20, red_wait_seconds: 40 });
    const ws = await open(await login(t.app, 'demo', DEMO.admin));
    const heard = hear(ws);
    try {
      const r = await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user: '102', domain: DOMAIN, expires: 60 } });
      expect(r.statusCode).toBe(200);
      await until(() => heard.some((e) => e.type === 'registration'));
      expect(heard.find((e) => e.type === 'registration')).toMatchObject({ kind: 'tongdai.monitor', extension: '102', registered: true });
      const snap = await snapshot(headers.admin);
      expect(snap.scope).toBe('tenant');
      expect(snap.agents.find((a) => a.extension === '102')).toMatchObject({ registered: true, status_activity: 1, call_id: null });
      expect(snap.agents.find((a) => a.extension === '101')).toMatchObject({ registered: false });
    } finally {
      ws.terminate();
    }
  });

  it('a caller entering a queue waits on the wall: its path with the configured names, since when, in the queue tile', async () => {
    const ws = await open(await login(t.app, 'demo', DEMO.admin));
    const heard = hear(ws);
    try {
      const plan = await route('mon-q1', '0903000001', '02873009001');
      expect(plan.json().steps[0].do).toBe('media');
      const before = Date.now();
      const session = await internal.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/media/session?call_id=mon-q1&step=0' });
      expect(session.statusCode).toBe(200);
      await until(() => heard.some((e) => e.type === 'queued'));
      expect(heard.find((e) => e.type === 'queued')).toMatchObject({ kind: 'tongdai.monitor', callId: 'mon-q1', queueId, caller: '0903000001' });
      const snap = await snapshot(headers.admin);
      const call = snap.calls.find((c) => c.call_id === 'mon-q1')!;
      expect(call).toMatchObject({ state: 'queued', direction: 'inbound', did: '02873009001', queue_id: queueId, caller: '0903000001' });
      expect(call.route.map((s) => s.name)).toContain('Chăm sóc khách hàng');
      expect(call.queued_at).toBeGreaterThanOrEqual(before);
      const tile = snap.queues.find((q) => q.queue_id === queueId)!;
      expect(tile).toMatchObject({ name: 'Chăm sóc khách hàng', sla_seconds: 15, amber_wait_seconds: 20, red_wait_seconds: 40, agents_total: 1 });
      expect(tile.waiting).toEqual([{ call_id: 'mon-q1', caller: '0903000001', since: call.queued_at }]);
    } finally {
      ws.terminate();
    }
  });

  it("an agent's socket hears their own calls and never another agent's; the snapshot is scoped the same way", async () => {
    const [adminWs, staffWs] = [await open(await login(t.app, 'demo', DEMO.admin)), await open(await login(t.app, 'demo', DEMO.staff))];
    const [adminHeard, staffHeard] = [hear(adminWs), hear(staffWs)];
    try {
      for (const user of ['101', '102']) await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: DOMAIN, expires: 60 } });
      expect((await route('mon-101', '0903000101', '02873009101')).statusCode).toBe(200);
      expect((await route('mon-102', '0903000102', '02873009102')).statusCode).toBe(200);
      await until(() => adminHeard.filter((e) => e.type === 'ringing').length === 2 && staffHeard.some((e) => e.type === 'ringing'));
      // The staff's socket (extension 102) heard 102's call only, never 101's.
      await new Promise((r) => setTimeout(r, 100));
      const staffCalls = staffHeard.filter((e) => 'callId' in e).map((e) => (e as { callId: string }).callId);
      expect(staffCalls).toContain('mon-102');
      expect(staffCalls).not.toContain('mon-101');
      expect(staffCalls).not.toContain('mon-q1');
      const staffSnap = await snapshot(headers.staff);
      expect(staffSnap.scope).toBe('own');
      expect(staffSnap.calls.map((c) => c.call_id)).toEqual(['mon-102']);
      expect(staffSnap.agents.map((a) => a.extension)).toEqual(['102']);
      expect(staffSnap.agents[0].call_id).toBe('mon-102');
      const adminSnap = await snapshot(headers.admin);
      expect(adminSnap.calls.map((c) => c.call_id)).toEqual(expect.arrayContaining(['mon-q1', 'mon-101', 'mon-102']));
    } finally {
      adminWs.terminate();
      staffWs.terminate();
    }
  });

  it("a department's manager (without monitor.view) watches the department's extensions: snapshot and socket", async () => {
    const tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    // The staff account (102) becomes the manager of the admin's (101) department.
    await t.db.withTenant(tenantId, (tx) =>
      tx.query(`update departments set manager_id = (select id from users where username = 'nhanvien')
                where id = (select department_id from users where username = 'admin')`),
    );
    const ws = await open(await login(t.app, 'demo', DEMO.staff));
    const heard = hear(ws);
    try {
      const snap = await snapshot(headers.staff);
      expect(snap.scope).toBe('department');
      expect(snap.agents.map((a) => a.extension).sort()).toEqual(['101', '102']);
      // 101's and 102's calls, and the caller waiting in a queue whose agent (102) is in scope.
      expect(snap.calls.map((c) => c.call_id).sort()).toEqual(['mon-101', 'mon-102', 'mon-q1']);
      expect((await route('mon-101b', '0903000111', '02873009101')).statusCode).toBe(200);
      await until(() => heard.some((e) => 'callId' in e && e.callId === 'mon-101b'));
    } finally {
      ws.terminate();
      await t.db.withTenant(tenantId, (tx) => tx.query("update departments set manager_id = (select id from users where username = 'admin')"));
    }
  });

  it("an activity status change reaches the tenant's watchers and the snapshot", async () => {
    const ws = await open(await login(t.app, 'demo', DEMO.admin));
    const heard = hear(ws);
    try {
      const res = await t.app.inject({ method: 'PUT', url: '/t/demo/update-activity-status', headers: headers.staff, payload: { status: 2 } });
      expect(res.statusCode).toBe(200);
      await until(() => heard.some((e) => e.type === 'activity'));
      expect(heard.find((e) => e.type === 'activity')).toMatchObject({ kind: 'tongdai.monitor', extension: '102', status_activity: 2 });
      expect((await snapshot(headers.admin)).agents.find((a) => a.extension === '102')?.status_activity).toBe(2);
    } finally {
      ws.terminate();
    }
  });

  it('the snapshot says which events it includes: its position on the channel is at least every event heard before it, below every event after it', async () => {
    const ws = await open(await login(t.app, 'demo', DEMO.admin));
    const heard = hear(ws);
    try {
      const first = await snapshot(headers.admin);
      expect(first.seq).toEqual(expect.any(Number));
      expect((await route('mon-seq', '0903000222', '02873009101')).statusCode).toBe(200);
      await until(() => heard.some((e) => 'callId' in e && e.callId === 'mon-seq'));
      const ringing = heard.find((e) => 'callId' in e && e.callId === 'mon-seq')!;
      // The screen holding `first` applies this event (after its position); the next snapshot includes it.
      expect(ringing.seq).toBeGreaterThan(first.seq!);
      const next = await snapshot(headers.admin);
      expect(next.seq).toBeGreaterThanOrEqual(ringing.seq!);
      expect(next.calls.some((c) => c.call_id === 'mon-seq')).toBe(true);
    } finally {
      ws.terminate();
    }
  });

  it("today's figures come from the read model: the queue's offered/answered/service level, the totals and the hourly chart agree", async () => {
    const tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const before = await snapshot(headers.admin);
    const writer = new CdrWriter(t.db, { intervalMs: 10 });
    const now = Date.now();
    const row = (callId: string, waitS: number, answered: boolean) => ({
      tenant_id: tenantId, call_id: callId, caller: '0905000001', callee: '02873009001', did: '02873009001', direction: 'inbound' as const,
      route: [{ type: 'queue' as const, id: String(queueId), name: 'Chăm sóc khách hàng' }], ring_group_id: null, queue_id: queueId,
      extension: answered ? '102' : null, trunk: null, started_at: new Date(now - 60_000), answered_at: answered ? new Date(now - 60_000 + waitS * 1000) : null,
      ended_at: new Date(now - 1000), duration: 59, billsec: answered ? 59 - waitS : 0, disposition: answered ? ('ANSWERED' as const) : ('NO ANSWER' as const), sip_code: answered ? 200 : 487, reason: '',
    });
    // Within the queue's 15 s, after it, and a caller who gave up.
    for (const r of [row('fig-1', 5, true), row('fig-2', 30, true), row('fig-3', 0, false)]) writer.add(r);
    await writer.flush();
    const after = await snapshot(headers.admin);
    const tile = (s: MonitorSnapshot) => s.queues.find((q) => q.queue_id === queueId)!.today;
    expect(tile(after).offered - tile(before).offered).toBe(3);
    expect(tile(after).answered - tile(before).answered).toBe(2);
    expect(tile(after).abandoned - tile(before).abandoned).toBe(1);
    if (tile(before).offered === 0) expect(tile(after).service_level).toBeCloseTo(1 / 3);
    expect(after.today.calls - before.today.calls).toBe(3);
    expect(after.agents.find((a) => a.extension === '102')!.handled_today - before.agents.find((a) => a.extension === '102')!.handled_today).toBe(2);
    const chart: MonitorHourly = (await t.app.inject({ url: `/t/demo/${MONITOR_API.hourly}`, headers: headers.admin })).json().data;
    expect(chart.today).toHaveLength(24);
    expect(chart.last_week).toHaveLength(24);
    expect(chart.today.reduce((n, p) => n + p.calls, 0)).toBe(after.today.calls);
  });

  it("another tenant's wall shows none of it", async () => {
    const res = await t.app.inject({ url: `/t/abc/${MONITOR_API.snapshot}`, headers: headers.abcAdmin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.calls).toEqual([]);
    expect((await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: headers.abcAdmin })).statusCode).toBe(401);
  });
});
