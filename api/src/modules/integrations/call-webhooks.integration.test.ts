import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CallWebhookEvent } from '@tongdai/contracts';
import { INTERNAL_HEADERS, carrierSource, demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import type { ActiveCall, CallTracker } from '../cdr/call-tracker';
import type { Queryable } from '../../db/db';
import { registerCallRouting } from '../sip/call-routing';
import { callEventWrites } from './call-events.service';
import { sendDueCallWebhooks } from './integrations.service';

/**
 * The CRM's call webhooks (issue 39, ADR 0065) on PostgreSQL: calls planned by the internal listener
 * and followed by the call plane (ringing, answered by an extension, ended) become deliveries written
 * in the call plane's own transactions; a key with `calls.events` and a URL gets them in order, signed
 * with its secret; a 500 is tried again with the same event id; a key without the scope, another
 * tenant's key and a revoked key hear nothing. The sender's rounds are run by the test.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let plane: FastifyInstance;
let tracker: CallTracker;
let server: Server;
let url = '';
let src = '';
let n = 0;
const answers: number[] = [];
const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
let now = new Date();
const clock = () => now;
const hosts = loopbackCarrierHosts();
const round = () => sendDueCallWebhooks(t.db, hosts, { clock });
/** Rounds until nothing is due now (a call's next event waits for the previous one). */
async function drain(): Promise<void> {
  for (let i = 0; i < 20 && (await round()) > 0; i++);
}

const tenantId = async (maDn: string) =>
  t.db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // Loopback allowed as a carrier network would be (the operator's TRUNK_ALLOWED_NETWORKS), the timers off.
  t = await startTestApp({ switchboardHosts: hosts, otpWebhookMs: null, callWebhookMs: null });
  h = await demoHeaders(t.app);
  src = await carrierSource(t.db);
  plane = Fastify();
  tracker = registerCallRouting(plane, t.db, { internalSecret: INTERNAL_HEADERS['x-tongdai-internal'] });
  for (const user of ['101', '102']) {
    const r = await plane.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 600 } });
    expect(r.statusCode).toBe(200);
  }
});
afterAll(async () => {
  await plane?.close();
  await t?.close();
  await new Promise((r) => server?.close(r));
});

const createKey = async (headers: Record<string, string>, maDn: string, body: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'POST', url: `/t/${maDn}/integrations/keys`, headers, payload: body });
  expect([res.statusCode, res.body]).toEqual([201, expect.any(String)]);
  return res.json().data as { id: number; secret: string; webhook_secret: string; scopes: string[] };
};
const verify = (signature: string, body: string, secret: string) => {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  return !!m && createHmac('sha256', secret).update(`${m[1]}.${body}`).digest('hex') === m[2];
};

/** A carrier's caller rings the demo hotline; extension 101 answers after a while and they talk; then the end. */
async function call(from: string, opts: { answer?: boolean } = {}) {
  const callId = `crm-${++n}-${Date.now()}`;
  const plan = await plane.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=${from}&from_domain=carrier.example&to=02873000001${src}` });
  expect(plan.statusCode).toBe(200);
  await tracker.durable();
  const steps = plan.json().steps as { do: string; targets?: string[] }[];
  const start = Date.now();
  if (opts.answer !== false) {
    tracker.answered(callId, '101', steps.findIndex((s) => s.targets?.includes('101')), new Date(start + 3000));
    await tracker.durable();
    tracker.ended(callId, new Date(start + 45_000));
  } else tracker.failed(callId, 487, 0, new Date(start + 20_000));
  await tracker.durable();
  await recorded(callId);
  return callId;
}

/** Waits for the call's record (the writer's batch; call.ended is written with it). */
async function recorded(callId: string): Promise<void> {
  const demo = await tenantId('demo');
  for (let i = 0; i < 200; i++) {
    const { rows } = await t.db.withTenant(demo, (tx) => tx.query('select 1 from cdrs where call_id = $1', [callId]));
    if (rows.length) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no record of ${callId}`);
}

const heard = (path: string, callId?: string) =>
  received.filter((r) => r.path === path).map((r) => ({ ...r, event: JSON.parse(r.body) as CallWebhookEvent })).filter((r) => !callId || r.event.call_id === callId);

describe('CRM call webhooks', () => {
  it('a call rings, is answered, ends: call.ringing, call.answered, call.ended, in order, signed with the key’s secret', async () => {
    const demo = await tenantId('demo');
    await t.db.withTenant(demo, (tx) => tx.query("insert into customers (tenant_id, name, code, phone, status) values ($1, 'Công ty Gọi Đến', 'KH-CRM-1', '84905550001', '1')", [demo]));
    const key = await createKey(h.admin, 'demo', { name: 'CRM bán hàng', scopes: ['calls.events'], webhook_url: `${url}/crm/a` });
    expect(key.webhook_secret).toMatch(/^whsec_/);
    const callId = await call('0905550001');
    now = new Date();
    await drain();
    const got = heard('/crm/a', callId);
    expect(got.map((r) => r.event.type)).toEqual(['call.ringing', 'call.answered', 'call.ended']);
    for (const r of got) {
      expect(verify(String(r.headers['x-tongdai-signature']), r.body, key.webhook_secret)).toBe(true);
      expect(verify(String(r.headers['x-tongdai-signature']), r.body, 'whsec_other')).toBe(false);
      expect(r.headers['x-tongdai-event-id']).toBe(r.event.event_id);
    }
    const [ringing, answered, ended] = got.map((r) => r.event);
    expect(ringing).toMatchObject({
      event_id: `${callId}:call.ringing`, call_id: callId, direction: 'inbound', caller: '0905550001', callee: '02873000001', hotline: '02873000001',
      customer: { name: 'Công ty Gọi Đến', code: 'KH-CRM-1' },
    });
    expect(answered.agent).toMatchObject({ extension: '101', user_id: expect.any(Number), name: expect.any(String) });
    expect(ended).toMatchObject({ result: 'ANSWERED', duration: 45, talk_time: 42, agent: { extension: '101' }, recording_url: null });
    // The delivery log says so, newest first.
    const log = await t.app.inject({ url: `/t/demo/integrations/deliveries?key_id=${key.id}`, headers: h.admin });
    expect(log.statusCode).toBe(200);
    const rows = (log.json().data as { call_id: string; event: string; status: string; attempts: number; last_status: number }[]).filter((d) => d.call_id === callId);
    expect(rows.map((d) => [d.event, d.status, d.attempts, d.last_status])).toEqual([
      ['call.ended', 'delivered', 1, 200], ['call.answered', 'delivered', 1, 200], ['call.ringing', 'delivered', 1, 200],
    ]);
    await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${key.id}/revoke`, headers: h.admin });
  });

  it('a 500 is tried again later with the same event id, and the call’s next events wait for it', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'CRM thử lại', scopes: ['calls.events'], webhook_url: `${url}/crm/retry` });
    const callId = await call('0905550002');
    answers.push(500);
    now = new Date();
    await drain();
    // Only ringing was tried: it failed, answered and ended wait behind it.
    expect(heard('/crm/retry', callId).map((r) => r.event.type)).toEqual(['call.ringing']);
    const log = await t.app.inject({ url: `/t/demo/integrations/deliveries?key_id=${key.id}`, headers: h.admin });
    const ringing = (log.json().data as { event: string; status: string; last_status: number; next_at: string }[]).find((d) => d.event === 'call.ringing')!;
    expect([ringing.status, ringing.last_status]).toEqual(['retrying', 500]);
    expect(new Date(ringing.next_at).getTime() - now.getTime()).toBeGreaterThanOrEqual(4000);
    now = new Date(Date.now() + 6000);
    await drain();
    const got = heard('/crm/retry', callId);
    expect(got.map((r) => r.event.type)).toEqual(['call.ringing', 'call.ringing', 'call.answered', 'call.ended']);
    expect(got[0].headers['x-tongdai-event-id']).toBe(got[1].headers['x-tongdai-event-id']);
    await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${key.id}/revoke`, headers: h.admin });
  });

  it('a key without calls.events, another tenant’s key and a revoked key hear nothing; an unanswered call has no call.answered', async () => {
    const listening = await createKey(h.admin, 'demo', { name: 'CRM nghe', scopes: ['calls.events'], webhook_url: `${url}/crm/listening` });
    await createKey(h.admin, 'demo', { name: 'CRM chỉ gọi', scopes: ['calls.originate'], webhook_url: `${url}/crm/originate-only` });
    await createKey(h.abcAdmin, 'abc', { name: 'CRM của abc', scopes: ['calls.events'], webhook_url: `${url}/crm/abc` });
    const revoked = await createKey(h.admin, 'demo', { name: 'CRM đã thu hồi', scopes: ['calls.events'], webhook_url: `${url}/crm/revoked` });
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${revoked.id}/revoke`, headers: h.admin })).statusCode).toBe(200);
    const callId = await call('0905550003', { answer: false });
    now = new Date();
    await drain();
    expect(heard('/crm/listening', callId).map((r) => [r.event.type, r.event.result ?? ''])).toEqual([['call.ringing', ''], ['call.ended', 'NO ANSWER']]);
    expect(heard('/crm/originate-only')).toEqual([]);
    expect(heard('/crm/abc')).toEqual([]);
    expect(heard('/crm/revoked')).toEqual([]);
    // A key of voice-OTP's is not listed on /integrations, nor a CRM key on /voice-otp/number.
    const list = (await t.app.inject({ url: '/t/demo/integrations/keys', headers: h.admin })).json().data as { name: string }[];
    expect(list.map((k) => k.name)).toContain('CRM chỉ gọi');
    await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${listening.id}/revoke`, headers: h.admin });
  });

  it('deliveries are written in the call record’s transaction: a rolled-back change writes none', async () => {
    const demo = await tenantId('demo');
    const key = await createKey(h.admin, 'demo', { name: 'CRM giao dịch', scopes: ['calls.events'], webhook_url: `${url}/crm/tx` });
    const row = {
      tenant_id: demo, call_id: `crm-tx-${Date.now()}`, caller: '0905550004', callee: '02873000001', did: '02873000001', direction: 'inbound' as const, route: [],
      ring_group_id: null, queue_id: null, extension: '101', trunk: null, started_at: new Date(), answered_at: new Date(), ended_at: new Date(), duration: 5, billsec: 4,
      disposition: 'ANSWERED' as const, sip_code: 200, reason: '', csat: null,
    };
    const count = () => t.db.withTenant(demo, async (tx) => Number((await tx.query<{ n: string }>('select count(*) as n from call_webhook_deliveries where call_id = $1 and key_id = $2', [row.call_id, key.id])).rows[0].n));
    await expect(t.db.withTenant(demo, async (tx) => {
      expect(await callEventWrites.records.write(tx, [row])).toBe(true);
      throw new Error('the record’s write failed');
    })).rejects.toThrow('failed');
    expect(await count()).toBe(0);
    await t.db.withTenant(demo, (tx) => callEventWrites.records.write(tx, [row]));
    expect(await count()).toBe(3);
    // Written again (the journal and the record both saw it): kept once.
    await t.db.withTenant(demo, (tx) => callEventWrites.records.write(tx, [row]));
    expect(await count()).toBe(3);
    await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${key.id}/revoke`, headers: h.admin });
  });

  it('a call in progress written again with nothing new costs no query; its next event is written once', async () => {
    const demo = await tenantId('demo');
    const key = await createKey(h.admin, 'demo', { name: 'CRM nhịp', scopes: ['calls.events'], webhook_url: `${url}/crm/hot` });
    const callId = `crm-hot-${Date.now()}`;
    // A call in progress as the journal saves it (only what factsOfCall reads).
    const ringing = {
      tenantId: demo, callId, parentCallId: null, caller: '0905550005', callee: '02873000001', startedAt: new Date(),
      plan: { did: '02873000001', direction: 'inbound' }, kamailio: { steps: [] }, answeredAt: null, answeredBy: null, answeredOutside: false,
    } as unknown as ActiveCall;
    const answered = { ...ringing, answeredAt: new Date(), answeredBy: '101' } as unknown as ActiveCall;
    const counted = (tx: Queryable) => {
      let queries = 0;
      const q: Queryable = { query: ((...args: Parameters<Queryable['query']>) => { queries++; return tx.query(...args); }) as Queryable['query'] };
      return { q, queries: () => queries };
    };
    const journalWrite = async (call: ActiveCall) => {
      let queries = 0;
      const wrote = await t.db.withSystem(async (tx) => {
        const c = counted(tx);
        const r = await callEventWrites.journal.write(c.q, [call]);
        queries = c.queries();
        return r;
      });
      if (wrote) callEventWrites.journal.committed();
      return queries;
    };
    const events = () => t.db.withTenant(demo, async (tx) => (await tx.query<{ event: string }>('select event from call_webhook_deliveries where call_id = $1 and key_id = $2 order by id', [callId, key.id])).rows.map((r) => r.event));
    expect(await journalWrite(ringing)).toBeGreaterThan(0);
    expect(await events()).toEqual(['call.ringing']);
    // Held, resumed, transferred...: the journal writes the call again; its ringing is written already.
    expect(await journalWrite(ringing)).toBe(0);
    expect(await journalWrite(answered)).toBeGreaterThan(0);
    expect(await journalWrite(answered)).toBe(0);
    expect(await events()).toEqual(['call.ringing', 'call.answered']);
    await t.app.inject({ method: 'POST', url: `/t/demo/integrations/keys/${key.id}/revoke`, headers: h.admin });
  });

  it('/integrations needs integrations.manage, not the voice-OTP purchase; a CRM key is no voice-OTP key', async () => {
    expect((await t.app.inject({ url: '/t/demo/integrations/keys', headers: h.staff })).statusCode).toBe(403);
    const refused = await t.app.inject({ method: 'POST', url: '/t/demo/integrations/keys', headers: h.admin, payload: { name: 'Sai quyền', scopes: ['verify.start'] } });
    expect(refused.statusCode).toBe(400);
    // The log of another tenant's key is not found; a key id that is no number is a 400.
    const abcKey = ((await t.app.inject({ url: '/t/abc/integrations/keys', headers: h.abcAdmin })).json().data as { id: number }[])[0];
    expect((await t.app.inject({ url: `/t/demo/integrations/deliveries?key_id=${abcKey.id}`, headers: h.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/t/demo/integrations/deliveries?key_id=x', headers: h.admin })).statusCode).toBe(400);
    const all = (await t.app.inject({ url: '/t/demo/integrations/deliveries?per_page=100', headers: h.admin })).json();
    expect(all.meta.total).toBeGreaterThanOrEqual(6);
    expect((all.data as { key_name: string }[]).every((d) => d.key_name !== 'CRM của abc')).toBe(true);
    const found = (await t.app.inject({ url: '/t/demo/integrations/deliveries?search=crm-2-', headers: h.admin })).json();
    expect([found.meta.total, (found.data as { call_id: string }[]).every((d) => d.call_id.startsWith('crm-2-'))]).toEqual([3, true]);
    const otpList = (await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin })).json().data as { scopes: string[] }[];
    expect(otpList.every((k) => k.scopes.some((s) => s.startsWith('verify.')))).toBe(true);
  });
});
