import { CONTACT_LEASE_RENEW_SEC, DIALER_READY_SEC, MONITOR_API, campaignApi, campaignWorkApi, type MonitorSnapshot, type WorkNext } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { placedCallsDue } from '../../db/due-signal';
import { openDb } from '../../db/open';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/api-process';
import type { RealtimeEvent } from '../realtime/call-event-hub';
import { dialerFigures } from './dialer-live.service';
import { sealSipPassword } from '../subscribers/sip-password-box';
import { createDialerService, DIALER_LOST_BRIDGED_S, DIALER_LOST_CALL_S } from './dialer.service';
import { createWorkService } from './work.service';
import { hotlineRoom } from './work.repository';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');
const AGENTS = 6;
const CONTACTS = 30;

/** `n` accounts (`<username>0`…, "<name> 0"…), each with an extension of its own (`<ext>0`…): a campaign's agents. */
async function addAgents(db: Db, tenant: number, n: number, username: string, name: string, ext: string): Promise<number[]> {
  return db.withTenant(tenant, async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const id = (await tx.query<{ id: number }>("insert into users (tenant_id, username, password_hash, full_name) values ($1, $2, 'x', $3) returning id", [tenant, `${username}${i}`, `${name} ${i}`])).rows[0].id;
      await tx.query('insert into subscribers (tenant_id, extension, display_name, sip_password, user_id) values ($1, $2, $3, $4, $5)', [tenant, `${ext}${i}`, `Máy ${i}`, sealSipPassword(tenant, 'secret-pw'), id]);
      ids.push(id);
    }
    return ids;
  });
}

/**
 * The progressive dialer's bookkeeping (issue 34, ADR 0055) on a real PostgreSQL, without calls: what
 * the media workers' asks claim (`claimCalls`) and what their reports do. Two API instances (two
 * database handles on one database) asking at once never take one contact twice nor call twice for
 * one agent; a restarted instance finds the calls in progress and dials nothing more for their
 * agents; Decree 91 refuses at the moment of the call; reports are taken once; lost calls are swept.
 */
describe('the progressive dialer on PostgreSQL, two instances', () => {
  let t: TestApp;
  let other: Db;
  let admin: Record<string, string>;
  let demo: number;
  let campaign: number;
  let agentIds: number[];
  const free = async () => true;

  const attempts = () =>
    t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number; number: string; user_id: number; dialer_state: string | null; result: string | null; refusal: string | null }>(
        `select a.id::int, k.number, a.user_id, a.dialer_state, a.result, a.refusal from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where k.campaign_id = $1 order by a.id`, [campaign])).rows);

  beforeAll(async () => {
    t = await startTestApp();
    other = await openDb({ databaseUrl: t.dbUrl });
    admin = (await demoHeaders(t.app)).admin;
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const hotlineId = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873006006') returning id", [demo])).rows[0].id);
    // Six agents, each an account with an extension of its own.
    agentIds = await addAgents(t.db, demo, AGENTS, 'dialer', 'Nhân viên', '70');
    const category = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers: admin, payload: { name: 'Dialer' } })).json().data;
    const question = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers: admin, payload: { category_id: category.id, kind: 'text', text: 'Ý kiến' } })).json().data;
    const made = await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.base}`, headers: admin, payload: { name: 'Tự động', mode: 'progressive', question_ids: [question.id], agent_ids: agentIds, hotline_id: hotlineId, retry_no_answer_min: 5, max_attempts: 2 } });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    campaign = made.json().data.id;
    await t.db.withTenant(demo, async (tx) => {
      await tx.query(
        `insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, '8491200' || lpad(i::text, 4, '0'), 'Khách ' || i, now() - interval '1 minute'
           from generate_series(1, ${CONTACTS}) as i`, [demo, campaign]);
      // The tenant's own do-not-call list holds the first contact's number: refused at the call, the next one dialled.
      await tx.query("insert into dnc_numbers (tenant_id, number, source) values ($1, '84912000001', 'tenant')", [demo]);
    });
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(campaign)}`, headers: admin, payload: { to: 'running' } })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('claims nothing while no agent is ready; readiness of a campaign that is not there is a 404, of a preview campaign a 409', async () => {
    expect(await createDialerService(t.db).claimCalls(10, new Date(), free)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/t/demo/${WORK.ready(campaign + 1000)}`, headers: admin })).statusCode).toBe(404);
    // The demo admin is an agent of a preview campaign: it has no "ready", "Gọi" is theirs.
    const adminId = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id);
    const preview = await t.db.withTenant(demo, async (tx) => {
      const c = await tx.query<{ id: number }>("insert into campaigns (tenant_id, family, name, purpose, state, hotline_id) select $1, 'survey', 'Xem trước', 'care', 'running', hotline_id from campaigns where id = $2 returning id", [demo, campaign]);
      await tx.query('insert into campaign_agents (tenant_id, campaign_id, user_id) values ($1, $2, $3)', [demo, c.rows[0].id, adminId]);
      return c.rows[0].id;
    });
    const res = await t.app.inject({ method: 'PUT', url: `/t/demo/${WORK.ready(preview)}`, headers: admin, payload: { ready: true } });
    expect([res.statusCode, res.json().message]).toEqual([409, 'Chiến dịch này không gọi tự động']);
  });

  it('two instances asking at once: one call per ready agent, never one contact twice; Decree 91 refuses at the call', async () => {
    const at = new Date();
    await t.db.withTenant(demo, async (tx) => {
      for (const id of agentIds) await tx.query("insert into campaign_dialer_agents (tenant_id, campaign_id, user_id, ready_until) values ($1, $2, $3, now() + interval '1 minute')", [demo, campaign, id]);
    });
    const a = createDialerService(t.db);
    const b = createDialerService(other);
    const claims = (await Promise.all([...Array(4)].flatMap(() => [a.claimCalls(3, at, free), b.claimCalls(3, at, free)]))).flat();
    expect(claims).toHaveLength(AGENTS);
    expect(new Set(claims.map((c) => c.user_id)).size).toBe(AGENTS);
    expect(new Set(claims.map((c) => c.contact_id)).size).toBe(AGENTS);
    expect(claims.every((c) => c.hotline === '02873006006' && c.extension!.startsWith('70'))).toBe(true);
    // The refused number: an attempt with its reason, the contact ended as refused, never dialled.
    const rows = await attempts();
    expect(rows.filter((r) => r.refusal)).toEqual([expect.objectContaining({ number: '84912000001', refusal: 'tenant_dnc', dialer_state: null })]);
    expect(claims.some((c) => c.number === '84912000001')).toBe(false);
    expect(rows.filter((r) => r.dialer_state === 'calling')).toHaveLength(AGENTS);
    // Every agent is in a call: asking again, on either instance, claims nothing.
    expect(await a.claimCalls(10, at, free)).toEqual([]);
    expect(await b.claimCalls(10, at, free)).toEqual([]);
    // A restarted instance (a new handle, a new service) finds the calls in progress: nothing more.
    const restarted = await openDb({ databaseUrl: t.dbUrl });
    try {
      expect(await createDialerService(restarted).claimCalls(10, new Date(), free)).toEqual([]);
    } finally {
      await restarted.close();
    }
  });

  it('reports are taken once and in order; an unanswered contact comes back later, its agent gets the next one', async () => {
    const a = createDialerService(t.db);
    const calling = (await attempts()).filter((r) => r.dialer_state === 'calling');
    const [first, second, third] = calling;
    const at = new Date();
    // Answered: the bridge is the agent's extension; a repeat is not taken; a late no_answer neither.
    const answered = await a.report(demo, first.id, 'answered', { callId: 'dialer-call-1' }, at);
    expect(answered).toMatchObject({ applied: true, bridge: { extension: expect.stringMatching(/^70\d$/), campaign_id: campaign } });
    // The same report again (its answer was lost): the same bridge, nothing written twice.
    expect(await a.report(demo, first.id, 'answered', { callId: 'dialer-call-1' }, at)).toMatchObject({ applied: false, bridge: answered.bridge });
    expect(await a.report(demo, first.id, 'answered', { callId: 'another-call' }, at)).toMatchObject({ applied: false, bridge: null });
    expect(await a.report(demo, first.id, 'no_answer', {}, at)).toMatchObject({ applied: false });
    expect(await a.report(demo, first.id, 'bridged', {}, at)).toMatchObject({ applied: true });
    expect(await a.report(demo, first.id, 'completed', { durationS: 41.6 }, at)).toMatchObject({ applied: true });
    // Another tenant's id is not found under this tenant.
    const abc = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'abc'")).rows[0].id);
    expect(await a.report(abc, second.id, 'busy', {}, at)).toMatchObject({ applied: false });
    // Not answered / busy: the contact is pending again after the campaign's minutes, the agent free.
    expect(await a.report(demo, second.id, 'no_answer', {}, at)).toMatchObject({ applied: true });
    expect(await a.report(demo, third.id, 'busy', { status: 486 }, at)).toMatchObject({ applied: true });
    const rows = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number; state: string; result: string | null; next_at: Date; duration_s: number | null; dialer_state: string; call_id: string | null }>(
        `select a.id::int, k.state, k.result, k.next_at, a.duration_s, a.dialer_state, a.call_id from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where a.id = any($1::bigint[]) order by a.id`, [[first.id, second.id, third.id]])).rows);
    expect(rows[0]).toMatchObject({ state: 'held', result: null, duration_s: 42, dialer_state: 'ended', call_id: 'dialer-call-1' });
    expect(rows[1]).toMatchObject({ state: 'pending', result: 'no_answer', dialer_state: 'ended' });
    expect(rows[2]).toMatchObject({ state: 'pending', result: 'busy', dialer_state: 'ended' });
    expect(new Date(rows[1].next_at).getTime() - at.getTime()).toBe(5 * 60_000);
    // The two freed agents get new contacts (not the ones just tried); the agent still holding theirs does not.
    const again = await a.claimCalls(10, new Date(), free);
    expect(again.map((c) => c.user_id).sort()).toEqual([second.user_id, third.user_id].sort());
    const tried = new Set((await attempts()).filter((r) => r.id !== again[0].attempt_id && r.id !== again[1].attempt_id).map((r) => r.number));
    expect(again.some((c) => tried.has(c.number))).toBe(false);
  });

  it('the agent screen: ready, the contact the dialer holds for them with its call state, paused', async () => {
    const [agentId] = agentIds;
    // These agents have no password to log in with: their screen is read through the service the routes call.
    const work = createWorkService(t.db);
    const agent = { tenantId: demo, userId: agentId, at: new Date() };
    const shown: WorkNext = await work.next(agent, 'survey', campaign);
    expect(shown.campaign.mode).toBe('progressive');
    expect(shown.contact?.dialer?.state).toMatch(/^(calling|ended)$/);
    expect((await work.setReady(agent, 'survey', campaign, false)).ready).toBe(false);
    expect((await work.readyState(agent, 'survey', campaign)).ready).toBe(false);
    // "Gọi" is not the agent's on a progressive campaign.
    await expect(work.call(agent, 'survey', campaign, shown.contact!.id)).rejects.toMatchObject({ message: expect.stringContaining('gọi tự động') });
  });

  it('sweeps a call no worker reports on: failed, the contact back, the agent free', async () => {
    const a = createDialerService(t.db);
    const open = (await attempts()).filter((r) => r.dialer_state === 'calling');
    expect(open.length).toBeGreaterThan(0);
    // Not yet lost.
    expect(await a.failLostCalls(new Date())).toBe(0);
    expect(await a.failLostCalls(new Date(Date.now() + (DIALER_LOST_CALL_S + 1) * 1000))).toBe(open.length);
    const after = await attempts();
    for (const o of open) expect(after.find((r) => r.id === o.id)).toMatchObject({ dialer_state: 'ended', result: 'failed' });
    // A bridged call whose end was never reported: ended after DIALER_LOST_BRIDGED_S, its agent free again.
    const [bridged] = await a.claimCalls(1, new Date(), free);
    await a.report(demo, bridged.attempt_id, 'answered', { callId: 'dialer-bridged-lost' }, new Date());
    await a.report(demo, bridged.attempt_id, 'bridged', {}, new Date());
    expect(await a.failLostCalls(new Date(Date.now() + (DIALER_LOST_CALL_S + 1) * 1000))).toBe(0);
    expect(await a.failLostCalls(new Date(Date.now() + (DIALER_LOST_BRIDGED_S + 1) * 1000))).toBe(1);
    expect((await attempts()).find((r) => r.id === bridged.attempt_id)).toMatchObject({ dialer_state: 'ended', result: null });
  });

  it("the campaign's progress carries the dialer's figures: calls now, ready agents, answered and abandoned so far", async () => {
    // Each call placed and each report taken says that the campaign's figures moved (the /monitor wall is told).
    const moved: [number, number][] = [];
    const a = createDialerService(t.db, (tenant, id) => moved.push([tenant, id]));
    const before = (await t.app.inject({ method: 'GET', url: `/t/demo/${SURVEY.progress(campaign)}`, headers: admin })).json().data.dialer;
    // One more call, answered and abandoned (its agent's leg failed: the agent paused).
    const [call] = await a.claimCalls(1, new Date(), free);
    expect(call).toBeDefined();
    expect(moved).toEqual([[demo, campaign]]);
    let now = (await t.app.inject({ method: 'GET', url: `/t/demo/${SURVEY.progress(campaign)}`, headers: admin })).json().data.dialer;
    expect(now).toMatchObject({ calling: before.calling + 1, talking: 0 });
    await a.report(demo, call.attempt_id, 'answered', { callId: 'dialer-abandoned-1' }, new Date());
    await a.report(demo, call.attempt_id, 'abandoned', { status: 480, durationS: 8 }, new Date());
    now = (await t.app.inject({ method: 'GET', url: `/t/demo/${SURVEY.progress(campaign)}`, headers: admin })).json().data.dialer;
    expect(now).toEqual({ calling: before.calling, talking: 0, ready: before.ready - 1, answered: before.answered + 1, abandoned: before.abandoned + 1, hotline_minute: null });
    expect(moved).toHaveLength(3);
    // A report not taken (late) moves nothing.
    await a.report(demo, call.attempt_id, 'no_answer', {}, new Date());
    expect(moved).toHaveLength(3);
  });

  it("the /monitor wall: the tenant's watchers see the dialer campaign with the list's figures; its state's changes reach their sockets; an agent's wall has none", async () => {
    const events: RealtimeEvent[] = [];
    const off = t.app.deps.hub.subscribe(demo, (e) => { if (e.kind === 'tongdai.monitor' && e.type === 'campaign') events.push(e); });
    try {
      const snapshot = async (h: Record<string, string>) => (await t.app.inject({ url: `/t/demo/${MONITOR_API.snapshot}`, headers: h })).json().data as MonitorSnapshot;
      const figures = async () => (await t.app.inject({ url: `/t/demo/${SURVEY.progress(campaign)}`, headers: admin })).json().data.dialer;
      expect((await snapshot(admin)).campaigns).toEqual([{ campaign_id: campaign, family: 'survey', name: 'Tự động', mode: 'progressive', state: 'running', dialer: await figures() }]);
      // 102's user (no monitor.view) watches its own line: no campaign.
      expect((await snapshot((await demoHeaders(t.app)).staff)).campaigns).toEqual([]);
      const state = (to: string) => t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(campaign)}`, headers: admin, payload: { to } });
      expect((await state('paused')).statusCode).toBe(200);
      await until('the paused campaign on the channel', () => events.at(-1), (e) => !!e && 'campaign' in e && e.campaign?.state === 'paused', 5000);
      expect(events.at(-1)).toMatchObject({ campaignId: campaign, campaign: { state: 'paused', dialer: await figures() } });
      expect((await state('running')).statusCode).toBe(200);
      await until('the running campaign on the channel', () => events.at(-1), (e) => !!e && 'campaign' in e && e.campaign?.state === 'running', 5000);
      // A burst of changes is published once per quarter second, not once each.
      const seen = events.length;
      for (let i = 0; i < 5; i++) dialerFigures(t.db, t.app.deps.hub)(demo, campaign);
      await new Promise((r) => setTimeout(r, 1000));
      expect(events.length).toBe(seen + 1);
    } finally {
      off();
    }
  });

  it('an agent in a call longer than the readiness stays ready: the lease the screen renews (and its next contact while holding one) renews it; a paused agent is not made ready by it', async () => {
    // Found by `npm run bench -- dialer` (10 agents × 10 min): after a call over DIALER_READY_SEC the agent was no longer ready.
    const work = createWorkService(t.db);
    const userId = agentIds[AGENTS - 1];
    // A day on: the other tests' readiness has run out; the clock is the requests' (Agent.at).
    const base = Date.now() + 86_400_000;
    const agent = (s: number) => ({ tenantId: demo, userId, at: new Date(base + s * 1000) });
    await work.setReady(agent(0), 'survey', campaign, true);
    // The dialer holds a contact for the agent, as for a bridged call.
    const contactId = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>(
      `update campaign_contacts set state = 'held', held_by = $1, held_until = $2
        where id = (select id from campaign_contacts where campaign_id = $3 and state = 'pending' order by id desc limit 1) returning id::int`,
      [userId, new Date(base + 120_000), campaign])).rows[0].id);
    // A 4-minute call: the screen renews its lease every CONTACT_LEASE_RENEW_SEC.
    for (let s = CONTACT_LEASE_RENEW_SEC; s <= 240; s += CONTACT_LEASE_RENEW_SEC) await work.lease(agent(s), 'survey', campaign, contactId);
    expect(DIALER_READY_SEC).toBeLessThan(240);
    expect((await work.readyState(agent(245), 'survey', campaign)).ready).toBe(true);
    // Its next contact while it holds one (the call over, the result not written): renewed too.
    expect((await work.next(agent(300), 'survey', campaign)).contact?.id).toBe(contactId);
    expect((await work.readyState(agent(300 + DIALER_READY_SEC - 10), 'survey', campaign)).ready).toBe(true);
    // Paused: renewing the lease does not make the agent ready again.
    await work.setReady(agent(390), 'survey', campaign, false);
    await work.lease(agent(400), 'survey', campaign, contactId);
    expect((await work.readyState(agent(401), 'survey', campaign)).ready).toBe(false);
    await t.db.withTenant(demo, (tx) => tx.query("update campaign_contacts set state = 'done', held_by = null, held_until = null where id = $1", [contactId]));
  });
});

/**
 * Predictive (ADR 0054's pacing on real rows), ten agents: with nothing learnt yet one call per free
 * agent; once the campaign's calls have shown enough (30 answered, 30 talks) it dials ahead of its
 * agents while they all talk, at most 3 per agent; with its abandons at its cap, nothing ahead. An answered call goes to
 * the agent free longest, never two calls to one agent; with none free within 2 s, nobody (abandoned).
 */
describe('the predictive dialer on PostgreSQL', () => {
  const PREDICTIVE_AGENTS = 10;
  let t: TestApp;
  let admin: Record<string, string>;
  let demo: number;
  let campaign: number;
  let agentIds: number[];
  let history: number;
  const free = async () => true;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await demoHeaders(t.app)).admin;
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const hotlineId = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873006007') returning id", [demo])).rows[0].id);
    agentIds = await addAgents(t.db, demo, PREDICTIVE_AGENTS, 'predict', 'Dự đoán', '71');
    const category = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers: admin, payload: { name: 'Dự đoán' } })).json().data;
    const question = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers: admin, payload: { category_id: category.id, kind: 'text', text: 'Ý kiến' } })).json().data;
    const made = await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.base}`, headers: admin, payload: { name: 'Dự đoán', mode: 'predictive', abandon_cap_pct: 2, question_ids: [question.id], agent_ids: agentIds, hotline_id: hotlineId } });
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    expect(made.json().data).toMatchObject({ mode: 'predictive', abandon_cap_pct: 2 });
    campaign = made.json().data.id;
    history = await t.db.withTenant(demo, async (tx) => {
      await tx.query(
        `insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, '8491300' || lpad(i::text, 4, '0'), 'Khách ' || i, now() - interval '1 minute'
           from generate_series(1, 80) as i`, [demo, campaign]);
      // The contact the earlier calls below are of (done long ago).
      return (await tx.query<{ id: number }>("insert into campaign_contacts (tenant_id, campaign_id, number, name, state, result) values ($1, $2, '84913999999', 'Lịch sử', 'done', 'agreed') returning id::int", [demo, campaign])).rows[0].id;
    });
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(campaign)}`, headers: admin, payload: { to: 'running' } })).statusCode).toBe(200);
    await t.db.withTenant(demo, async (tx) => {
      for (const id of agentIds) await tx.query("insert into campaign_dialer_agents (tenant_id, campaign_id, user_id, ready_until) values ($1, $2, $3, now() + interval '10 minutes')", [demo, campaign, id]);
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Earlier calls of the campaign: `answered` answered after 8 s and talked ~90 s, `unanswered` rang 25 s; `abandoned` of the answered abandoned. */
  const learnt = (answered: number, unanswered: number, abandoned = 0) =>
    t.db.withTenant(demo, (tx) =>
      tx.query(
        `insert into campaign_attempts (tenant_id, contact_id, campaign_id, user_id, started_at, answered_at, dialer_state, dialer_at, result, duration_s, call_id)
         select $1, $2, $3, null, now() - interval '2 hours', case when i <= $4 then now() - interval '2 hours' + interval '8 seconds' end, 'ended',
                now() - interval '2 hours' + interval '25 seconds',
                case when i <= $6 then 'abandoned' when i <= $4 then 'agreed' else 'no_answer' end,
                case when i <= $4 then 60 + (i * 7) % 60 end, case when i <= $4 then 'history-' || i end
           from generate_series(1, $5::int) as i`,
        [demo, history, campaign, answered, answered + unanswered, abandoned]));

  /** An agent with a callback ("Hẹn gọi lại") due now, and that contact. */
  let callback: { agent: number; contact: number; extension: string };

  it("knowing nothing yet: one call per free agent, none for an agent already covered by a call ringing; a callback due is dialled for its agent", async () => {
    const d = createDialerService(t.db);
    callback = await t.db.withTenant(demo, async (tx) => {
      const agent = agentIds[3];
      const contact = (await tx.query<{ id: number }>(
        `update campaign_contacts set state = 'callback', result = 'callback', callback_user_id = $2, next_at = now() - interval '1 second'
          where id = (select id from campaign_contacts where campaign_id = $1 and state = 'pending' order by id desc limit 1) returning id::int`, [campaign, agent])).rows[0].id;
      const extension = (await tx.query<{ extension: string }>('select extension from subscribers where user_id = $1', [agent])).rows[0].extension;
      return { agent, contact, extension };
    });
    const calls = await d.claimPredictive(20, new Date(), free);
    expect(calls).toHaveLength(PREDICTIVE_AGENTS);
    expect(calls.every((c) => c.campaign_id === campaign)).toBe(true);
    // The callback is its agent's: placed for them (their extension, bridged to them on the answer); nine for nobody yet.
    expect(calls.filter((c) => c.user_id !== null)).toEqual([expect.objectContaining({ user_id: callback.agent, extension: callback.extension, contact_id: callback.contact })]);
    expect(calls.filter((c) => c.user_id === null)).toHaveLength(PREDICTIVE_AGENTS - 1);
    expect(new Set(calls.map((c) => c.contact_id)).size).toBe(PREDICTIVE_AGENTS);
    expect(await d.claimPredictive(20, new Date(), free)).toEqual([]);
  });

  it('an answered call goes to the agent free longest, each agent one call; none free within 2 s: nobody', async () => {
    const d = createDialerService(t.db);
    const ringing = (await t.db.withTenant(demo, (tx) => tx.query<{ id: number }>("select id::int from campaign_attempts where campaign_id = $1 and dialer_state = 'calling' and user_id is null order by id", [campaign]))).rows;
    // The callback's call answered: straight to its agent, nobody searched for.
    const back = (await t.db.withTenant(demo, (tx) => tx.query<{ id: number }>('select id::int from campaign_attempts where contact_id = $1', [callback.contact]))).rows[0].id;
    expect(await d.report(demo, back, 'answered', { callId: 'predict-callback' }, new Date())).toMatchObject({ applied: true, bridge: { extension: callback.extension, contact_id: callback.contact } });
    const given: number[] = [Number(callback.extension)];
    for (const [i, r] of ringing.entries()) {
      expect(await d.report(demo, r.id, 'answered', { callId: `predict-${i}` }, new Date())).toMatchObject({ applied: true, bridge: null, needsAgent: true });
      const target = await d.bridgeFor(demo, r.id, free, 'demo');
      expect(target?.extension).toMatch(/^71\d$/);
      given.push(Number(target!.extension));
    }
    expect(new Set(given).size).toBe(PREDICTIVE_AGENTS);
    // The screens: each agent holds their caller's contact.
    const held = await t.db.withTenant(demo, async (tx) => (await tx.query<{ held_by: number }>("select held_by from campaign_contacts where campaign_id = $1 and state = 'held' order by held_by", [campaign])).rows);
    expect(held.map((h) => h.held_by)).toEqual([...agentIds].sort((a, b) => a - b));
    // An agent's working screen shows the caller given to them, being connected.
    const shown = await createWorkService(t.db).next({ tenantId: demo, userId: agentIds[0], at: new Date() }, 'survey', campaign);
    expect(shown).toMatchObject({ campaign: { mode: 'predictive' }, contact: { dialer: { state: 'answered' } } });
    // A fourth answered call with every agent in a call: nobody within the 2 s.
    await t.db.withTenant(demo, async (tx) => {
      const k = (await tx.query<{ id: number }>("update campaign_contacts set state = 'held' where id = (select id from campaign_contacts where campaign_id = $1 and state = 'pending' order by id limit 1) returning id::int", [campaign])).rows[0].id;
      await tx.query("insert into campaign_attempts (tenant_id, contact_id, campaign_id, dialer_state, dialer_at, answered_at, call_id) values ($1, $2, $3, 'answered', now(), now(), 'predict-late')", [demo, k, campaign]);
    });
    const late = (await t.db.withTenant(demo, (tx) => tx.query<{ id: number }>("select id::int from campaign_attempts where call_id = 'predict-late'"))).rows[0].id;
    const started = Date.now();
    expect(await d.bridgeFor(demo, late, free, 'demo')).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    // The worker then plays the message: abandoned, nobody paused.
    expect(await d.report(demo, late, 'abandoned', { durationS: 9 }, new Date())).toMatchObject({ applied: true });
    const ready = await t.db.withTenant(demo, async (tx) => (await tx.query('select 1 from campaign_dialer_agents where campaign_id = $1', [campaign])).rows.length);
    expect(ready).toBe(PREDICTIVE_AGENTS);
  });

  it('once its calls have shown enough it dials ahead of its agents while they all still talk; at its abandon cap, not before an agent is free', async () => {
    // The calls above: every agent still talking, for 100 s now (their talks so far lasted 60–119 s).
    await t.db.withTenant(demo, (tx) => tx.query(
      "update campaign_attempts set dialer_state = 'bridged', answered_at = now() - interval '100 seconds', dialer_at = now() - interval '100 seconds' where campaign_id = $1 and dialer_state = 'answered' and user_id is not null", [campaign]));
    const d = createDialerService(t.db);
    // Nothing learnt yet: no free agent, no call.
    expect(await d.claimPredictive(20, new Date(), free)).toEqual([]);
    await learnt(120, 280);
    const ahead = await d.claimPredictive(20, new Date(), free);
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThanOrEqual(3 * PREDICTIVE_AGENTS);
    expect(new Set(ahead.map((c) => c.contact_id)).size).toBe(ahead.length);
    // Back to no call ringing; the campaign's abandons now at its 2 % cap (3 of 121 answered): none ahead.
    await t.db.withTenant(demo, (tx) => tx.query("delete from campaign_attempts where campaign_id = $1 and dialer_state = 'calling'", [campaign]));
    await t.db.withTenant(demo, (tx) => tx.query("update campaign_attempts set result = 'abandoned' where campaign_id = $1 and call_id in ('history-1', 'history-2')", [campaign]));
    expect(await d.claimPredictive(20, new Date(), free)).toEqual([]);

  });
});

/**
 * The hotline's calls-per-minute cap (issue 34: "a pacing cap per hotline (calls started per minute) so
 * carriers do not block it"): a progressive and a predictive campaign calling from one hotline capped at
 * 3, claimed by two instances at once, start 3 calls in that minute together; the minute over (counted
 * from each call's start), the next 3. The workers' asks are woken when the minute frees.
 */
describe("a hotline's calls-per-minute cap, two campaigns and two instances on PostgreSQL", () => {
  const CAP = 3;
  let t: TestApp;
  let other: Db;
  let demo: number;
  let admin: Record<string, string>;
  let hotlineId: number;
  const campaigns: number[] = [];
  const free = async () => true;

  beforeAll(async () => {
    t = await startTestApp();
    other = await openDb({ databaseUrl: t.dbUrl });
    admin = (await demoHeaders(t.app)).admin;
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    hotlineId = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number }>('insert into pbx_numbers (tenant_id, number, max_calls_per_minute) values ($1, $2, $3) returning id', [demo, '842873006008', CAP])).rows[0].id);
    const agentIds = await addAgents(t.db, demo, 8, 'capped', 'Giới hạn', '72');
    const category = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers: admin, payload: { name: 'Giới hạn' } })).json().data;
    const question = (await t.app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers: admin, payload: { category_id: category.id, kind: 'text', text: 'Ý kiến' } })).json().data;
    for (const [i, mode] of (['progressive', 'predictive'] as const).entries()) {
      const agents = agentIds.slice(i * 4, i * 4 + 4);
      const made = await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.base}`, headers: admin, payload: { name: `Giới hạn ${mode}`, mode, question_ids: [question.id], agent_ids: agents, hotline_id: hotlineId } });
      expect([made.statusCode, made.body]).toEqual([201, made.body]);
      const id = made.json().data.id;
      campaigns.push(id);
      await t.db.withTenant(demo, async (tx) => {
        await tx.query(
          `insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, '849140' || $3 || lpad(i::text, 4, '0'), 'Khách ' || i, now() - interval '1 minute'
             from generate_series(1, 20) as i`, [demo, id, String(i)]);
        for (const agent of agents) await tx.query("insert into campaign_dialer_agents (tenant_id, campaign_id, user_id, ready_until) values ($1, $2, $3, now() + interval '10 minutes')", [demo, id, agent]);
      });
      expect((await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.state(id)}`, headers: admin, payload: { to: 'running' } })).statusCode).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const claimEverywhere = async (at: Date) => {
    const [a, b] = [createDialerService(t.db), createDialerService(other)];
    return (await Promise.all([a.claimCalls(10, at, free), b.claimCalls(10, at, free), a.claimPredictive(10, at, free), b.claimPredictive(10, at, free)])).flat();
  };

  it("a claim holds a capped hotline's row till it commits; through an uncapped hotline it locks nothing", async () => {
    const uncapped = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873006009') returning id", [demo])).rows[0].id);
    /** While a claim's transaction is open: can another instance lock the hotline's row? */
    const seenFromOther = (id: number, cap: number | null) =>
      t.db.withTenant(demo, async (tx) => {
        expect((await hotlineRoom(tx, id, cap, new Date())).room).toBe(cap === null ? Infinity : CAP);
        return other.withTenant(demo, async (tx2) =>
          tx2.query('select 1 from pbx_numbers where id = $1 for update nowait', [id]).then(() => 'free', (e: { code?: string }) => e.code));
      });
    expect([await seenFromOther(hotlineId, CAP), await seenFromOther(uncapped, null)]).toEqual(['55P03', 'free']);
    await t.db.withTenant(demo, (tx) => tx.query('delete from pbx_numbers where id = $1', [uncapped]));
  });

  it('starts no more than the cap in a minute across both campaigns and both instances; the next calls when the minute is over', async () => {
    // Each campaign's first two contacts are on the tenant's do-not-call list: refused at the claim, they start no
    // call and take nothing of the minute (the cap is still 3 calls placed).
    const refusedNumbers = ['84914000001', '84914000002', '84914010001', '84914010002'];
    await t.db.withTenant(demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source) select $1, n, 'tenant' from unnest($2::text[]) as n", [demo, refusedNumbers]));
    // The first calls 50 s ago: their minute ends about 10 s from now (what follows takes seconds on a loaded machine).
    const first = new Date(Date.now() - 50_000);
    const calls = await claimEverywhere(first);
    expect(calls).toHaveLength(CAP);
    const refusals = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ number: string; refusal: string; dialer_state: string | null }>(
        `select k.number, a.refusal, a.dialer_state from campaign_attempts a join campaign_contacts k on k.id = a.contact_id
          where k.campaign_id = any($1::int[]) and a.refusal is not null order by k.number`, [campaigns])).rows);
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expect(refusals.every((r) => refusedNumbers.includes(r.number) && r.refusal === 'tenant_dnc' && r.dialer_state === null)).toBe(true);
    expect(calls.some((c) => refusedNumbers.includes(c.number))).toBe(false);
    expect(new Set(calls.map((c) => c.contact_id)).size).toBe(CAP);
    expect(calls.every((c) => c.hotline === '02873006008')).toBe(true);
    // Unanswered: their agents are free again and contacts wait, yet the hotline's minute is full.
    const d = createDialerService(t.db);
    for (const c of calls) expect(await d.report(demo, c.attempt_id, 'no_answer', {}, first)).toMatchObject({ applied: true });
    const since = placedCallsDue.generation;
    expect(await claimEverywhere(new Date())).toEqual([]);
    // The asks are woken once the first calls' minute is over (not at their own timeout).
    expect(await placedCallsDue.wait(20_000, since)).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(first.getTime() + 60_000 - 50);
    const next = await claimEverywhere(new Date(Math.max(Date.now(), first.getTime() + 60_001)));
    expect(next).toHaveLength(CAP);
    expect(next.some((c) => calls.some((x) => x.contact_id === c.contact_id))).toBe(false);
    // Each campaign's live figures: its hotline's minute is full (the first calls are out of it now).
    for (const id of campaigns) {
      const progress = (await t.app.inject({ method: 'GET', url: `/t/demo/${SURVEY.progress(id)}`, headers: admin })).json().data;
      expect(progress.dialer.hotline_minute).toEqual({ cap: CAP, started: CAP });
    }
  }, 60_000);
});
