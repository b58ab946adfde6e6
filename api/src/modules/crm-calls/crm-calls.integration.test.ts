import { CRM_CALL_LIMITS } from '@tongdai/contracts';
import { insertOutboundRule, insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { bearer, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { createCrmCallsService } from './crm-calls.service';

/**
 * Click-to-call (issue 39, ADR 0066) on PostgreSQL: POST /crm/v1/calls and GET /crm/v1/calls/:id as a CRM
 * calls them with a tenant API key — the refusals (401, 403 without calls.originate, 404 for another key's
 * call, 409 for an agent with no phone or in a call, 422 for an unknown agent or a number the outbound
 * rules or the blocked-outgoing list refuse), and the job row: claimed once, moved by reports, swept.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let demo: number;
let abc: number;

const tenantId = async (maDn: string) =>
  t.db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);

async function createKey(headers: Record<string, string>, maDn: string, scopes: string[]): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/t/${maDn}/voice-otp/keys`, headers, payload: { name: `CRM ${scopes.join(' ')}`, scopes } });
  expect([res.statusCode, res.body]).toEqual([201, res.body]);
  return res.json().data.secret as string;
}

const call = (key: string | null, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/crm/v1/calls', headers: key === null ? {} : bearer(key), payload });
const get = (key: string, id: string) => t.app.inject({ method: 'GET', url: `/crm/v1/calls/${id}`, headers: bearer(key) });
const registered = (tenant: number, ext: string, expires: number) => t.app.deps.hub.live.registrations.report(tenant, ext, expires);
const rule = (res: { json(): { details?: { rule?: string }[] } }) => res.json().details?.[0]?.rule;

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  demo = await tenantId('demo');
  abc = await tenantId('abc');
  await t.db.withTenant(demo, async (tx) => {
    const sb = await insertSwitchboard(tx, demo, { name: 'Tổng đài CRM', host: '192.0.2.81', port: 5060 });
    await insertOutboundRule(tx, demo, { name: 'Di động CRM', pattern: '0912XXXXXX', switchboardIds: [sb], callerId: '02873006601', priority: 0 });
    await tx.query("insert into pbx_blocked_numbers (tenant_id, direction, number, match, note) values ($1, 'out', '0912000666', 'exact', 'Khách đã từ chối')", [demo]);
  });
  await registered(demo, '101', 300);
});
afterAll(() => t?.close());

afterEach(async () => {
  // Each test's calls end: an agent is in one click-to-call at a time.
  await t.db.withSystem((tx) => tx.query("update crm_calls set status = 'completed', ended_at = now() where status <> 'completed' and status <> 'failed'"));
});

describe('POST /crm/v1/calls: who may ask, and what is refused', () => {
  it('401 without a key or with garbage, 401 for a user session, 403 for a key without calls.originate', async () => {
    expect((await call(null, { agent: '101', to: '0912000101' })).statusCode).toBe(401);
    expect((await call('tdo.demo.1.not-a-key', { agent: '101', to: '0912000101' })).statusCode).toBe(401);
    const session = await t.app.inject({ method: 'POST', url: '/crm/v1/calls', headers: h.admin, payload: { agent: '101', to: '0912000101' } });
    expect(session.statusCode).toBe(401);
    const otpOnly = await createKey(h.admin, 'demo', ['verify.start', 'verify.read']);
    const forbidden = await call(otpOnly, { agent: '101', to: '0912000101' });
    expect([forbidden.statusCode, forbidden.json().code]).toEqual([403, 'FORBIDDEN']);
    // The key with the scope is not opened by another path: /otp/v1 needs its own scopes.
    const crm = await createKey(h.admin, 'demo', ['calls.originate']);
    expect((await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(crm), payload: { phone: '0912000101' } })).statusCode).toBe(403);
  });

  it('202 queued for a registered agent and a number the rules let out; GET by the same key only (another key, another tenant: 404)', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const res = await call(key, { agent: '101', to: '+84 912 000 102', external_ref: 'lead-42' });
    expect([res.statusCode, res.body]).toEqual([202, res.body]);
    const body = res.json();
    expect(body).toMatchObject({ status: 'queued', agent: '101', to: '84912000102', external_ref: 'lead-42', cause: null, cdr_id: null });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await get(key, body.id);
    expect([read.statusCode, read.json()]).toEqual([200, body]);

    const sameTenant = await createKey(h.admin, 'demo', ['calls.originate']);
    expect((await get(sameTenant, body.id)).statusCode).toBe(404);
    const otherTenant = await createKey(h.abcAdmin, 'abc', ['calls.originate']);
    expect((await get(otherTenant, body.id)).statusCode).toBe(404);
    expect((await get(key, 'not-a-uuid')).statusCode).toBe(404);
    expect((await get(key, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    // The other tenant's agent 101 is not demo's: not registered there.
    const abcCall = await call(otherTenant, { agent: '101', to: '0912000103' });
    expect([abcCall.statusCode, rule(abcCall)]).toEqual([409, 'agent_not_registered']);
    expect(abc).not.toBe(demo);
  });

  it('409 for an agent with no phone registered, and for one already in a click-to-call; Vietnamese messages', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const offline = await call(key, { agent: '102', to: '0912000104' });
    expect([offline.statusCode, offline.json().code, rule(offline)]).toEqual([409, 'CRM_AGENT_UNAVAILABLE', 'agent_not_registered']);
    expect(offline.json().details[0]).toMatchObject({ field: 'agent', message: 'Máy nhánh của nhân viên chưa đăng nhập trên điện thoại nào' });
    expect((await call(key, { agent: '101', to: '0912000105' })).statusCode).toBe(202);
    const again = await call(key, { agent: '101', to: '0912000106' });
    expect([again.statusCode, rule(again), again.json().details[0].message]).toEqual([409, 'agent_busy', 'Nhân viên đang có cuộc gọi khác']);
  });

  it('422 for an unknown agent, an invalid number, a number abroad, one on the blocked-outgoing list, one no outbound rule lets out', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ agent: '999', to: '0912000107' }, 422, 'unknown_agent'],
      [{ agent: '101', to: '12ab' }, 422, 'invalid_number'],
      [{ agent: '101', to: '+14155550100' }, 422, 'international'],
      [{ agent: '101', to: '0912000666' }, 422, 'blocked_out'],
      [{ agent: 'abc', to: '0912000107' }, 400, undefined],
      [{ agent: '101' }, 400, undefined],
    ];
    for (const [payload, status, why] of cases) {
      const res = await call(key, payload);
      expect([payload, res.statusCode, rule(res)]).toEqual([payload, status, why ?? rule(res)]);
      if (status === 422) expect(res.json()).toMatchObject({ code: 'CRM_CALL_REFUSED', message: 'Không thể thực hiện cuộc gọi này' });
    }
    const blocked = await call(key, { agent: '101', to: '0912000666' });
    expect(blocked.json().details[0].message).toBe('Số nằm trong danh sách chặn gọi ra của doanh nghiệp');
    // A number no rule matches (if the tenant has rules for everything, the demo carrier's, this says so).
    const landline = await call(key, { agent: '101', to: '02999000107' });
    expect([202, 422]).toContain(landline.statusCode);
    if (landline.statusCode === 422) expect(rule(landline)).toBe('no_route');
    // Nothing refused was queued.
    const rows = await t.db.withTenant(demo, async (tx) => (await tx.query<{ phone: string }>("select phone from crm_calls where phone in ('84912000107', '84912000666')")).rows);
    expect(rows).toEqual([]);
  });

  it('429 once a key has started its calls of the minute', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const keyId = Number(key.split('.')[2]);
    await t.db.withTenant(demo, (tx) =>
      tx.query(`insert into crm_calls (tenant_id, key_id, agent, phone, status, cause) select $1, $2, '102', '84912000200', 'failed', 'lost' from generate_series(1, $3)`, [demo, keyId, CRM_CALL_LIMITS.perKeyMinute]));
    const res = await call(key, { agent: '101', to: '0912000108' });
    expect([res.statusCode, res.json().code, rule(res)]).toEqual([429, 'CRM_RATE_LIMITED', 'key_minute_limit']);
  });
});

describe('the job: claimed once, moved by the reports, swept when lost', () => {
  it('a queued call is claimed by one ask only, goes ringing_agent → agent_answered → ringing_customer → answered → completed, late reports change nothing', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const id = (await call(key, { agent: '101', to: '0912000109' })).json().id as string;
    const svc = createCrmCallsService(t.db);
    const [first, second] = await Promise.all([svc.claimCalls(5), svc.claimCalls(5)]);
    const claimed = [...first, ...second].filter((c) => c.id === id);
    expect(claimed).toEqual([{ id, tenant_id: demo, ma_dn: 'demo', agent: '101', phone: '84912000109', attempt: 1 }]);
    expect((await get(key, id)).json()).toMatchObject({ status: 'ringing_agent' });

    expect((await svc.report(demo, id, 'answered', {})).applied).toBe(false);
    expect((await svc.report(demo, id, 'agent_answered', { callId: 'agent-leg@x' })).applied).toBe(true);
    expect((await svc.report(demo, id, 'agent_answered', { callId: 'again@x' })).applied).toBe(false);
    await svc.customerRinging(demo, id);
    expect((await get(key, id)).json()).toMatchObject({ status: 'ringing_customer' });
    expect((await svc.report(demo, id, 'answered', { callId: 'customer-leg@x' })).applied).toBe(true);
    expect((await svc.report(demo, id, 'completed', { durationS: 12.4 })).applied).toBe(true);
    expect((await svc.report(demo, id, 'customer_busy', {})).applied).toBe(false);
    const done = (await get(key, id)).json();
    expect(done).toMatchObject({ status: 'completed', cause: null, duration_s: 12, call_id: 'customer-leg@x' });
    for (const at of ['ringing_agent_at', 'agent_answered_at', 'ringing_customer_at', 'answered_at', 'ended_at']) expect(done[at]).toEqual(expect.any(String));
  });

  it('a call no worker took within 30 s is failed as lost (and never claimed after), as is one no worker reports on', async () => {
    const key = await createKey(h.admin, 'demo', ['calls.originate']);
    const stale = (await call(key, { agent: '101', to: '0912000110' })).json().id as string;
    await t.db.withSystem((tx) => tx.query("update crm_calls set created_at = now() - interval '40 seconds', updated_at = now() - interval '40 seconds' where id = $1", [stale]));
    const svc = createCrmCallsService(t.db);
    expect((await svc.claimCalls(5)).map((c) => c.id)).not.toContain(stale);
    await svc.failLost();
    expect((await get(key, stale)).json()).toMatchObject({ status: 'failed', cause: 'lost', ended_at: expect.any(String) });

    const ringing = (await call(key, { agent: '101', to: '0912000111' })).json().id as string;
    expect((await svc.claimCalls(5)).map((c) => c.id)).toContain(ringing);
    await svc.failLost();
    expect((await get(key, ringing)).json()).toMatchObject({ status: 'ringing_agent' });
    await t.db.withSystem((tx) => tx.query("update crm_calls set updated_at = now() - interval '4 minutes' where id = $1", [ringing]));
    await svc.failLost();
    expect((await get(key, ringing)).json()).toMatchObject({ status: 'failed', cause: 'lost' });
  });
});
