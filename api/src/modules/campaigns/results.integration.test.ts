import { CAMPAIGN_RESULTS_EXPORT_HEADERS, campaignApi, campaignResultsApi, type CampaignFamily, type CampaignResults } from '@tongdai/contracts';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { createWorkService, type Agent } from './work.service';

/** Three days after the machine's clock, so contacts imported now are due. */
const DAY = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const NEXT_DAY = new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const vn = (day: string, hm: string) => new Date(`${day}T${hm}:00+07:00`);

/**
 * Results of a campaign (issue 33 slice 4, ADR 0050) on PostgreSQL, from rows the agent's working
 * screen writes (hand-out, answers, "Gọi", result): answers per question, outcomes per agent and per
 * Vietnam day (23:30 and 00:30 VN are one UTC day, two Vietnam days), Decree 91 refusals, the export;
 * both families, tenant isolation and permissions.
 */
describe('the results of a campaign (PostgreSQL)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  let demo: number;
  let adminId: number;
  let staffId: number;
  let hotline: number;
  const q: Record<string, number> = {};
  let work: ReturnType<typeof createWorkService>;

  const send = (method: 'POST' | 'GET', url: string, payload?: object, headers = admin, maDn = 'demo') =>
    t.app.inject({ method, url: `/t/${maDn}/${url}`, headers, payload });
  const agentOf = (userId: number, at: Date): Agent => ({ tenantId: demo, userId, at });

  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
    work = createWorkService(t.db);
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [adminId, staffId, hotline] = await t.db.withTenant(demo, async (tx) => {
      const id = async (u: string) => (await tx.query<{ id: number }>('select id from users where username = $1', [u])).rows[0].id;
      const number = (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873005561') returning id", [demo])).rows[0].id;
      return [await id('admin'), await id('nhanvien'), number];
    });
    const category = (await send('POST', 'survey-categories', { name: 'Kết quả chiến dịch' })).json().data;
    for (const [key, body] of Object.entries({
      single: { kind: 'single', text: 'Gói cước?', options: ['Cơ bản', 'Nâng cao'] },
      multiple: { kind: 'multiple', text: 'Dịch vụ dùng?', options: ['A', 'B', 'C'] },
      rating: { kind: 'rating', text: 'Chấm điểm' },
      yes_no: { kind: 'yes_no', text: 'Giới thiệu bạn bè?' },
      number: { kind: 'number', text: 'Số máy nhánh' },
      text: { kind: 'text', text: 'Góp ý' },
    })) {
      const made = await send('POST', 'survey-questions', { category_id: category.id, ...body });
      expect(made.statusCode).toBe(201);
      q[key] = made.json().data.id;
    }
  });
  afterAll(() => t.close());

  /** A running care campaign of the family with these contacts, in this order of hand-out. */
  async function running(family: CampaignFamily, contacts: string[]): Promise<number> {
    const api = campaignApi(family);
    const body = family === 'survey'
      ? { name: `Kết quả ${Math.random()}`, question_ids: Object.values(q), agent_ids: [adminId, staffId], hotline_id: hotline, purpose: 'care' }
      : { name: `Kết quả ${Math.random()}`, script: 'Chào {{name}}', agent_ids: [adminId, staffId], hotline_id: hotline, purpose: 'care' };
    const made = await send('POST', api.base, body);
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id as number;
    await t.db.withTenant(demo, (tx) =>
      tx.query(
        `insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at)
         select $1, $2, n, 'Khách ' || i, now() - make_interval(secs => 1000 - i::int) from unnest($3::text[]) with ordinality as x(n, i)`,
        [demo, id, contacts],
      ));
    expect((await send('POST', api.state(id), { to: 'running' })).statusCode).toBe(200);
    return id;
  }

  /** One contact worked as the screen does: handed out, answered, "Gọi", then a result (unless refused). */
  async function worked(family: CampaignFamily, id: number, userId: number, at: Date, answers: Record<string, unknown>, result: 'agreed' | 'declined' | 'busy' | null) {
    const next = await work.next(agentOf(userId, at), family, id);
    const contact = next.contact!;
    for (const [key, value] of Object.entries(answers)) {
      await work.answer(agentOf(userId, at), family, id, contact.id, { question_id: q[key], value: value as never });
    }
    const decision = await work.call(agentOf(userId, at), family, id, contact.id);
    expect(decision.allowed).toBe(result !== null);
    if (result) await work.result(agentOf(userId, at), family, id, contact.id, { result, callback_at: null });
    return contact.id;
  }

  it('counts answers per question, outcomes per agent and per Vietnam day, refusals per reason; exports the contacts', async () => {
    const numbers = ['84912000101', '84912000102', '84912000103', '84912000104'];
    const id = await running('survey', numbers);
    await t.db.withTenant(demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source) values ($1, $2, 'tenant')", [demo, numbers[3]]));
    await worked('survey', id, adminId, vn(DAY, '23:30'), { single: 'Cơ bản', multiple: ['A', 'B'], rating: 4, yes_no: true, number: 10, text: 'Rất tốt' }, 'agreed');
    await worked('survey', id, staffId, vn(DAY, '23:40'), { single: 'Nâng cao', multiple: ['B'], rating: 2, yes_no: false, number: 20, text: '' }, 'declined');
    await worked('survey', id, adminId, vn(NEXT_DAY, '00:30'), { single: 'Cơ bản' }, 'busy');
    await worked('survey', id, staffId, vn(NEXT_DAY, '00:40'), {}, null);

    const res = await send('GET', campaignResultsApi('survey').results(id));
    expect(res.statusCode).toBe(200);
    const r = res.json().data as CampaignResults;
    expect(r.progress).toMatchObject({ total: 4, done: 3, pending: 1, by_result: { agreed: 1, declined: 1, busy: 1 }, refused: { tenant_dnc: 1 } });
    expect(r.attempts).toEqual({ total: 4, refused: 1, refusals: { tenant_dnc: 1 } });
    const byText = Object.fromEntries(r.questions.map((x) => [x.text, x]));
    expect(r.questions.map((x) => x.question_id)).toEqual(Object.values(q));
    expect(byText['Gói cước?']).toMatchObject({ answered: 3, average: null, options: [{ label: 'Cơ bản', count: 2 }, { label: 'Nâng cao', count: 1 }] });
    expect(byText['Dịch vụ dùng?']).toMatchObject({ answered: 2, options: [{ label: 'A', count: 1 }, { label: 'B', count: 2 }, { label: 'C', count: 0 }] });
    expect(byText['Chấm điểm']).toMatchObject({ answered: 2, average: 3, options: [0, 1, 0, 1, 0].map((count, i) => ({ label: String(i + 1), count })) });
    expect(byText['Giới thiệu bạn bè?']).toMatchObject({ answered: 2, options: [{ label: 'Có', count: 1 }, { label: 'Không', count: 1 }] });
    expect(byText['Số máy nhánh']).toMatchObject({ answered: 2, average: 15, options: [] });
    // Free text: counted when something was written.
    expect(byText['Góp ý']).toMatchObject({ answered: 1, average: null, options: [] });
    const agent = (userId: number) => r.agents.find((a) => a.user_id === userId);
    expect(agent(adminId)).toMatchObject({ attempts: 2, refused: 0, by_result: { agreed: 1, busy: 1 } });
    expect(agent(staffId)).toMatchObject({ attempts: 2, refused: 1, by_result: { declined: 1 } });
    // 23:30 and 00:30 Vietnam time are one UTC day (16:30Z, 17:30Z) and two Vietnam days.
    expect(r.days).toEqual([
      { day: DAY, attempts: 2, refused: 0, by_result: { agreed: 1, declined: 1 } },
      { day: NEXT_DAY, attempts: 2, refused: 1, by_result: { busy: 1 } },
    ]);

    const csv = await send('GET', campaignResultsApi('survey').export(id, 'csv'));
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe([...CAMPAIGN_RESULTS_EXPORT_HEADERS, 'Gói cước?', 'Dịch vụ dùng?', 'Chấm điểm', 'Giới thiệu bạn bè?', 'Số máy nhánh', 'Góp ý'].join(','));
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^Khách 1,0912000101,Đã xong,Đồng ý,,1,.+,Cơ bản,A; B,4,Có,10,Rất tốt$/);
    expect(lines[4]).toContain('Số nằm trong danh sách không gọi của doanh nghiệp');
    const xlsx = await send('GET', campaignResultsApi('survey').export(id, 'xlsx'));
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('a marketing campaign has results too (no questions); other tenants and callers without the permission get nothing', async () => {
    const id = await running('marketing', ['84912000201', '84912000202']);
    await worked('marketing', id, adminId, vn(DAY, '10:00'), {}, 'agreed');
    const api = campaignResultsApi('marketing');
    const r = (await send('GET', api.results(id))).json().data as CampaignResults;
    expect(r).toMatchObject({ questions: [], attempts: { total: 1, refused: 0 }, days: [{ day: DAY, attempts: 1 }], progress: { total: 2, done: 1 } });
    // The other family's base does not name it; another tenant's admin naming it gets a 404.
    expect((await send('GET', campaignResultsApi('survey').results(id))).statusCode).toBe(404);
    expect((await send('GET', api.results(id), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
    expect((await send('GET', api.export(id, 'csv'), undefined, abcAdmin, 'abc')).statusCode).toBe(404);
    // demo's limited role has neither campaign.view nor campaign.export.
    expect((await send('GET', api.results(id), undefined, staff)).statusCode).toBe(403);
    expect((await send('GET', api.export(id, 'xlsx'), undefined, staff)).statusCode).toBe(403);
  });
});
