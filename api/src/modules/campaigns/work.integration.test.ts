import {
  CONTACT_LEASE_SEC, DECREE91_MESSAGES, WORK_MSG, campaignApi, campaignWorkApi, type CallDecision, type Campaign, type WorkNext,
} from '@tongdai/contracts';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { createWorkService, type Agent } from './work.service';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');
const MARKETING = campaignApi('marketing');
const MWORK = campaignWorkApi('marketing');

/** A day after the machine's clock, so contacts imported now are due; 10:00 Vietnam time is 03:00Z. */
const DAY = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const vn = (hms: string) => new Date(`${DAY}T${hms}+07:00`);
const plus = (d: Date, sec: number) => new Date(d.getTime() + sec * 1000);

/**
 * The agent's working screen on PostgreSQL (issue 33 slice 3, ADR 0050): the skip-locked hand-out
 * under concurrent agents, the lease, callbacks, retries, answers as typed, "Gọi" under Decree 91
 * (ADR 0049) at 17:00:00 Vietnam time whatever the machine's zone, tenant isolation, permission.
 * The clock-dependent rules call the service with an explicit `at` (the routes pass the server's).
 */
describe('the working screen of a campaign (PostgreSQL)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  let demo: number;
  let adminId: number;
  let staffId: number;
  let plain: number;
  let registered: number;
  let questionId: number;
  let textQuestionId: number;
  let work: ReturnType<typeof createWorkService>;

  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
    work = createWorkService(t.db);
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [adminId, staffId] = await t.db.withTenant(demo, async (tx) => {
      const id = async (u: string) => (await tx.query<{ id: number }>('select id from users where username = $1', [u])).rows[0].id;
      return [await id('admin'), await id('nhanvien')];
    });
    [plain, registered] = await t.db.withTenant(demo, async (tx) => {
      const add = async (number: string, identity: boolean) =>
        (await tx.query<{ id: number }>('insert into pbx_numbers (tenant_id, number, advertising_identity) values ($1, $2, $3) returning id', [demo, number, identity])).rows[0].id;
      return [await add('842873005551', false), await add('842873005552', true)];
    });
    const category = (await send('POST', 'survey-categories', { name: 'Làm việc với liên hệ' })).json().data;
    questionId = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'single', text: 'Anh/chị dùng gói nào?', options: ['Cơ bản', 'Nâng cao'] })).json().data.id;
    textQuestionId = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data.id;
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: object, headers = admin, maDn = 'demo') =>
    t.app.inject({ method, url: `/t/${maDn}/${url}`, headers, payload });
  const agentOf = (userId: number, at = new Date()): Agent => ({ tenantId: demo, userId, at });
  let seq = 0;
  /** Numbers unique in the whole file: the Decree 91 cap is per tenant and number across campaigns. */
  const numbers = (n: number) => Array.from({ length: n }, () => `8491${String(1_000_000 + ++seq * 7).slice(-7)}`);

  /** A running survey campaign (or marketing) with contacts inserted as an import writes them. */
  async function running(contacts: string[], extra: object = {}, base = SURVEY): Promise<Campaign> {
    const body = base === SURVEY
      ? { name: `Chiến dịch ${Math.random()}`, question_ids: [questionId, textQuestionId], agent_ids: [adminId, staffId], hotline_id: plain, ...extra }
      : { name: `Chiến dịch ${Math.random()}`, script: 'Chào {{name}}', agent_ids: [adminId, staffId], hotline_id: plain, ...extra };
    const made = await send('POST', base.base, body);
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id as number;
    await t.db.withTenant(demo, (tx) =>
      tx.query(
        `insert into campaign_contacts (tenant_id, campaign_id, number, name, fields, next_at)
         select $1, $2, n, 'Khách ' || i, jsonb_build_object('Gói', 'Vàng'), now() - make_interval(secs => 1000 - i::int) from unnest($3::text[]) with ordinality as x(n, i)`,
        [demo, id, contacts],
      ));
    const started = await send('POST', base.state(id), { to: 'running' });
    expect(started.statusCode).toBe(200);
    return started.json().data;
  }
  const contactRow = (id: number) =>
    t.db.withTenant(demo, async (tx) => (await tx.query<{ state: string; result: string | null; attempts: number; next_at: Date; refusal: string | null; held_by: number | null }>(
      'select state, result, attempts, next_at, refusal, held_by from campaign_contacts where id = $1', [id])).rows[0]);

  it('hands each contact to one agent only: two agents asking at once, five requests each in flight (skip locked)', async () => {
    const c = await running(numbers(30));
    const got: Record<number, Set<number>> = { [adminId]: new Set(), [staffId]: new Set() };
    // Five tabs of one agent share the contact the agent holds (one hand-out at a time per agent);
    // a tab whose contact another tab ended is told so, and asks again.
    const loop = async (userId: number) => {
      for (;;) {
        const next = await work.next(agentOf(userId), 'survey', c.id);
        if (!next.contact) return;
        got[userId].add(next.contact.id);
        await work.result(agentOf(userId), 'survey', c.id, next.contact.id, { result: 'agreed', callback_at: null }).catch((e: Error) => {
          if (e.message !== WORK_MSG.notHeld) throw e;
        });
      }
    };
    await Promise.all([adminId, staffId].flatMap((u) => Array.from({ length: 5 }, () => loop(u))));
    expect([...got[adminId]].filter((id) => got[staffId].has(id))).toEqual([]);
    expect(got[adminId].size + got[staffId].size).toBe(30);
    expect(got[adminId].size).toBeGreaterThan(0);
    expect(got[staffId].size).toBeGreaterThan(0);
    expect((await send('GET', SURVEY.progress(c.id))).json().data).toMatchObject({ total: 30, done: 30, by_result: { agreed: 30 } });
  });

  it('gives a reload the contact it holds, with its answers as asked; the answers are checked and kept through an edit of the question', async () => {
    const c = await running(numbers(2));
    const first = (await send('POST', WORK.next(c.id))).json().data as WorkNext;
    expect(first.campaign.questions.map((q) => q.id)).toEqual([questionId, textQuestionId]);
    const contact = first.contact!;
    expect(contact).toMatchObject({ name: 'Khách 1', fields: { 'Gói': 'Vàng' }, attempts: 0, callback: false, answers: {} });
    expect(contact.phone).toMatch(/^09/);
    const put = (question_id: number, value: unknown) => send('PUT', WORK.answer(c.id, contact.id), { question_id, value });
    expect((await put(questionId, 'Nâng cao')).statusCode).toBe(204);
    expect((await put(textQuestionId, 'Gọi lúc')).statusCode).toBe(204);
    expect((await put(textQuestionId, 'Gọi lúc chiều')).statusCode).toBe(204);
    const bad = await put(questionId, 'Không có');
    expect([bad.statusCode, bad.json().details[0].field]).toEqual([400, 'value']);
    const foreign = await put(999999, 'x');
    expect(foreign.json().details).toEqual([{ field: 'question_id', message: WORK_MSG.questionNotAsked }]);
    // The question is edited after it was asked: the saved answer keeps the text it answered.
    const categoryId = (await send('GET', `survey-questions/${questionId}`)).json().data.category_id;
    const edited = await send('PUT', `survey-questions/${questionId}`, { category_id: categoryId, kind: 'single', text: 'Gói đang dùng?', options: ['Cơ bản', 'Nâng cao'] });
    expect(edited.statusCode).toBe(200);
    const again = (await send('POST', WORK.next(c.id))).json().data as WorkNext;
    expect(again.contact!.id).toBe(contact.id);
    expect(again.contact!.answers).toEqual({
      [questionId]: { value: 'Nâng cao', question: { question_id: questionId, version: 1, kind: 'single', text: 'Anh/chị dùng gói nào?', options: ['Cơ bản', 'Nâng cao'] } },
      [textQuestionId]: { value: 'Gọi lúc chiều', question: { question_id: textQuestionId, version: 1, kind: 'text', text: 'Góp ý', options: [] } },
    });
    expect(again.campaign.questions[0]).toMatchObject({ text: 'Gói đang dùng?', version: 2 });
    // Another agent cannot write into it.
    await expect(work.answer(agentOf(staffId), 'survey', c.id, contact.id, { question_id: textQuestionId, value: 'x' })).rejects.toMatchObject({ code: 'CAMPAIGN_STATE', message: WORK_MSG.notHeld });
  });

  it('returns a contact whose agent closed the tab to the pool after the lease, and a renewed lease keeps it', async () => {
    const c = await running(numbers(1));
    const now = new Date();
    const held = (await work.next(agentOf(adminId, now), 'survey', c.id)).contact!;
    expect((await work.next(agentOf(staffId, plus(now, 60)), 'survey', c.id)).reason).toBe('empty');
    // The screen renews at 100 s: still the admin's at 200 s.
    await work.lease(agentOf(adminId, plus(now, 100)), 'survey', c.id, held.id);
    expect((await work.next(agentOf(staffId, plus(now, 200)), 'survey', c.id)).contact).toBeNull();
    // Closed: nothing renews; after the lease the other agent gets it, and the admin's lease is refused.
    const taken = await work.next(agentOf(staffId, plus(now, 100 + CONTACT_LEASE_SEC + 1)), 'survey', c.id);
    expect(taken.contact!.id).toBe(held.id);
    await expect(work.lease(agentOf(adminId, plus(now, 300)), 'survey', c.id, held.id)).rejects.toMatchObject({ code: 'CAMPAIGN_STATE' });
    expect((await contactRow(held.id)).held_by).toBe(staffId);
  });

  it('brings a callback back to the same agent at its time, before the other contacts', async () => {
    const c = await running(numbers(3));
    const now = new Date();
    const first = (await work.next(agentOf(adminId, now), 'survey', c.id)).contact!;
    const past = await send('POST', WORK.result(c.id, first.id), { result: 'callback', callback_at: new Date(Date.now() - 60_000).toISOString() });
    expect(past.json().details).toEqual([{ field: 'callback_at', message: WORK_MSG.callbackFuture }]);
    const none = await send('POST', WORK.result(c.id, first.id), { result: 'callback' });
    expect(none.json().details).toEqual([{ field: 'callback_at', message: WORK_MSG.callbackAt }]);
    const at = plus(now, 3600);
    expect((await send('POST', WORK.result(c.id, first.id), { result: 'callback', callback_at: at.toISOString() })).statusCode).toBe(204);
    expect(await contactRow(first.id)).toMatchObject({ state: 'callback', result: 'callback', attempts: 1 });
    // Not to the other agent, even when due; not to the admin before its time.
    const other = (await work.next(agentOf(staffId, plus(now, 7200)), 'survey', c.id)).contact!;
    expect(other.id).not.toBe(first.id);
    const early = (await work.next(agentOf(adminId, plus(now, 1800)), 'survey', c.id)).contact!;
    expect(early.id).not.toBe(first.id);
    await work.result(agentOf(adminId, plus(now, 1801)), 'survey', c.id, early.id, { result: 'declined', callback_at: null });
    const due = (await work.next(agentOf(adminId, plus(now, 3600)), 'survey', c.id)).contact!;
    expect([due.id, due.callback, due.history.map((h) => h.result)]).toEqual([first.id, true, ['callback']]);
  });

  it('retries a busy number after the busy minutes, an unanswered one after its minutes, up to the attempts allowed', async () => {
    const c = await running(numbers(2), { retry_busy_min: 10, retry_no_answer_min: 30, max_attempts: 2 });
    const now = new Date();
    const a = (await work.next(agentOf(adminId, now), 'survey', c.id)).contact!;
    await work.call(agentOf(adminId, now), 'survey', c.id, a.id);
    await work.result(agentOf(adminId, now), 'survey', c.id, a.id, { result: 'busy', callback_at: null });
    expect(await contactRow(a.id)).toMatchObject({ state: 'pending', result: 'busy', attempts: 1, next_at: plus(now, 600) });
    const b = (await work.next(agentOf(adminId, now), 'survey', c.id)).contact!;
    await work.result(agentOf(adminId, now), 'survey', c.id, b.id, { result: 'no_answer', callback_at: null });
    expect(await contactRow(b.id)).toMatchObject({ state: 'pending', result: 'no_answer', attempts: 1, next_at: plus(now, 1800) });
    expect((await work.next(agentOf(adminId, plus(now, 599)), 'survey', c.id)).contact).toBeNull();
    const again = (await work.next(agentOf(adminId, plus(now, 600)), 'survey', c.id)).contact!;
    expect([again.id, again.attempts]).toEqual([a.id, 1]);
    await work.result(agentOf(adminId, plus(now, 601)), 'survey', c.id, a.id, { result: 'busy', callback_at: null });
    expect(await contactRow(a.id)).toMatchObject({ state: 'done', result: 'busy', attempts: 2 });
  });

  it('refuses an advertising "Gọi" at 17:00:00 Vietnam time and allows it at 16:59:59, on a UTC clock, and counts the refusal', async () => {
    expect(new Date(`${DAY}T17:00:00+07:00`).getUTCHours()).toBe(10);
    const c = await running(numbers(2), { purpose: 'advertising', hotline_id: registered }, MARKETING);
    const first = (await work.next(agentOf(adminId, vn('16:59:59')), 'marketing', c.id)).contact!;
    expect(await work.call(agentOf(adminId, vn('16:59:59')), 'marketing', c.id, first.id)).toEqual({ allowed: true, attempt_id: expect.any(Number) });
    await work.result(agentOf(adminId, vn('16:59:59')), 'marketing', c.id, first.id, { result: 'agreed', callback_at: null });
    const second = (await work.next(agentOf(adminId, vn('17:00:00')), 'marketing', c.id)).contact!;
    expect(await work.call(agentOf(adminId, vn('17:00:00')), 'marketing', c.id, second.id)).toEqual({ allowed: false, reason: 'outside_window', message: DECREE91_MESSAGES.outside_window });
    expect(await contactRow(second.id)).toMatchObject({ state: 'refused', refusal: 'outside_window', attempts: 1 });
    const progress = (await send('GET', MARKETING.progress(c.id))).json().data;
    expect(progress).toMatchObject({ total: 2, done: 2, by_result: { agreed: 1 }, refused: { outside_window: 1 } });
  });

  it('holds the rolling 24 hours across two advertising campaigns of the tenant', async () => {
    const [number] = numbers(1);
    const one = await running([number], { purpose: 'advertising', hotline_id: registered }, MARKETING);
    const two = await running([number], { purpose: 'advertising', hotline_id: registered }, MARKETING);
    const at = vn('10:00:00');
    const a = (await work.next(agentOf(adminId, at), 'marketing', one.id)).contact!;
    expect((await work.call(agentOf(adminId, at), 'marketing', one.id, a.id)).allowed).toBe(true);
    const b = (await work.next(agentOf(staffId, plus(at, 86_399)), 'marketing', two.id)).contact!;
    expect(await work.call(agentOf(staffId, plus(at, 86_399)), 'marketing', two.id, b.id)).toEqual({ allowed: false, reason: 'rolling_cap', message: DECREE91_MESSAGES.rolling_cap });
    expect((await send('GET', MARKETING.progress(two.id))).json().data.refused).toEqual({ rolling_cap: 1 });
  });

  it('"Gọi" over HTTP: a care campaign is allowed and the softphone gets the number of its own attempt only; a number on the DNC list is refused', async () => {
    const [ok, dnc] = numbers(2);
    const c = await running([ok, dnc], {}, SURVEY);
    await t.db.withTenant(demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source) values ($1, $2, 'tenant')", [demo, dnc]));
    const first = (await send('POST', WORK.next(c.id))).json().data.contact;
    const call = await send('POST', WORK.call(c.id, first.id));
    const decision = call.json().data as CallDecision;
    expect(decision).toEqual({ allowed: true, attempt_id: expect.any(Number) });
    if (!decision.allowed) throw new Error('refused');
    const dial = await send('GET', WORK.dial(c.id, first.id));
    expect(dial.json().data).toEqual({ number: `0${ok.slice(2)}` });
    expect((await send('GET', WORK.dial(c.id, first.id), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
    await expect(work.dial(agentOf(staffId), 'survey', c.id, first.id)).rejects.toMatchObject({ message: WORK_MSG.attemptGone });
    expect((await send('POST', WORK.result(c.id, first.id), { result: 'agreed' })).statusCode).toBe(204);
    const second = (await send('POST', WORK.next(c.id))).json().data.contact;
    const refused = (await send('POST', WORK.call(c.id, second.id))).json().data;
    expect(refused).toEqual({ allowed: false, reason: 'tenant_dnc', message: DECREE91_MESSAGES.tenant_dnc });
    // Refused ends the contact: a result on it is no longer this agent's to set.
    expect((await send('POST', WORK.result(c.id, second.id), { result: 'agreed' })).json()).toMatchObject({ code: 'CAMPAIGN_STATE', message: WORK_MSG.notHeld });
  });

  it('masks the number as the tenant does and shows the CRM card of a customer', async () => {
    const [number] = numbers(1);
    await t.db.withTenant(demo, async (tx) => {
      await tx.query("insert into customers (tenant_id, name, phone, status, code) values ($1, 'Trần Thị Mai', $2, 'active', 'KH-MAI')", [demo, number]);
      await tx.query('update system_settings set hidden_phone_customer = 1, position_hidden_phone_customer = 0');
    });
    try {
      const c = await running([number]);
      const contact = (await send('POST', WORK.next(c.id))).json().data.contact;
      expect(contact.phone).toContain('***');
      expect(contact.phone).not.toContain(number.slice(2));
      expect(contact.customer).toMatchObject({ name: 'Trần Thị Mai', code: 'KH-MAI' });
    } finally {
      await t.db.withTenant(demo, (tx) => tx.query('update system_settings set hidden_phone_customer = 0'));
    }
  });

  it('keeps tenants apart, needs campaign.run and one of the campaign\'s agents, a running campaign, and its calling window', async () => {
    const c = await running(numbers(1));
    expect((await send('POST', WORK.next(c.id), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
    expect((await send('POST', WORK.next(c.id), undefined, staff)).statusCode).toBe(403);
    // The survey family's screen does not reach a marketing campaign.
    expect((await send('POST', MWORK.next(c.id))).statusCode).toBe(404);
    const notMine = await running(numbers(1), { agent_ids: [staffId] });
    const refused = await send('POST', WORK.next(notMine.id));
    expect([refused.statusCode, refused.json().message]).toEqual([403, WORK_MSG.notAgent]);
    await send('POST', SURVEY.state(c.id), { to: 'paused' });
    const paused = await send('POST', WORK.next(c.id));
    expect([paused.statusCode, paused.json().message]).toEqual([409, WORK_MSG.notRunning]);
    // A calling window that is never open: no contact, and why.
    const group = await t.db.withTenant(demo, async (tx) => {
      const g = (await tx.query<{ id: number }>("insert into pbx_time_groups (tenant_id, name) values ($1, 'Không bao giờ') returning id", [demo])).rows[0].id;
      await tx.query("insert into pbx_time_ranges (tenant_id, time_group_id, time_start, time_end, month_start, month_end, dom_start, dom_end) values ($1, $2, '08:00', '09:00', 2, 2, 30, 30)", [demo, g]);
      return g;
    });
    const closed = await running(numbers(1), { time_group_id: group });
    expect((await send('POST', WORK.next(closed.id))).json().data).toMatchObject({ contact: null, reason: 'outside_window', message: WORK_MSG.outsideWindow });
  });

  it('a calling window "trừ ngày lễ" (a time group that excludes public holidays) is closed on Tết and open the day after (issue 39)', async () => {
    const made = await t.app.inject({
      method: 'POST', url: '/pbx/partner/time-group', headers: admin,
      payload: { name: 'Giờ gọi, trừ ngày lễ', holiday_mode: 'exclude', ranges: [{ time_start: '08:00', time_end: '17:00', dow_start: 1, dow_end: 5 }] },
    });
    const c = await running(numbers(1), { time_group_id: made.json().data.id });
    // Monday 08/02/2027 is mùng 3 Tết Đinh Mùi; Thursday 11/02 the second working day after it.
    expect(await work.next(agentOf(adminId, new Date('2027-02-08T10:00:00+07:00')), 'survey', c.id)).toMatchObject({ contact: null, reason: 'outside_window' });
    expect((await work.next(agentOf(adminId, new Date('2027-02-11T10:00:00+07:00')), 'survey', c.id)).contact).not.toBeNull();
  });
});
