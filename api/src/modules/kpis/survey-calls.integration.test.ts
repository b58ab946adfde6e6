import { KPI_MEASURES, campaignApi, vnDay, type CampaignFamily, type AgentResult, type Kpi } from '@tongdai/contracts';
import { createWorkService, type Agent } from '../campaigns/work.service';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';

/**
 * The KPI "survey calls completed" (issue 33, ADR 0050) on PostgreSQL: its actual is the assignee's
 * attempts in survey campaigns ended "Đồng ý" in the KPI's period, counted from the rows the agent's
 * working screen writes (the results' own rows): not "Từ chối", not a marketing campaign's, not
 * another agent's, not yesterday's; for a team, its members' together.
 */
describe('the KPI survey calls completed', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let demo: number;
  let adminId: number;
  let staffId: number;
  let teamId: number;
  let hotline: number;
  let question: number;
  const work = () => createWorkService(t.db);
  const send = (method: 'POST' | 'GET', url: string, payload?: object) => t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload });

  beforeAll(async () => {
    t = await startTestApp();
    ({ admin } = await demoHeaders(t.app));
    demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    [adminId, staffId, teamId, hotline] = await t.db.withTenant(demo, async (tx) => {
      const id = async (u: string) => (await tx.query<{ id: number }>('select id from users where username = $1', [u])).rows[0].id;
      const [a, s] = [await id('admin'), await id('nhanvien')];
      const team = (await tx.query<{ id: number }>('select id from teams order by id limit 1')).rows[0].id;
      await tx.query('update users set team_id = $1 where id = $2', [team, s]);
      await tx.query('update users set team_id = null where id = $1', [a]);
      const number = (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873005571') returning id", [demo])).rows[0].id;
      return [a, s, team, number];
    });
    const category = (await send('POST', 'survey-categories', { name: 'KPI khảo sát' })).json().data;
    question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data.id;
  });
  afterAll(() => t?.close());

  /** A running care campaign of the family whose contacts the agents work, each ended with its result at `at`. */
  async function worked(family: CampaignFamily, results: { userId: number; result: AgentResult; at: Date }[]) {
    const api = campaignApi(family);
    const body = family === 'survey'
      ? { name: `KPI ${family} ${Math.random()}`, question_ids: [question], agent_ids: [adminId, staffId], hotline_id: hotline, purpose: 'care' }
      : { name: `KPI ${family} ${Math.random()}`, script: 'Chào {{name}}', agent_ids: [adminId, staffId], hotline_id: hotline, purpose: 'care' };
    const made = await send('POST', api.base, body);
    expect([made.statusCode, made.body]).toEqual([201, made.body]);
    const id = made.json().data.id as number;
    const numbers = results.map((_, i) => `8491300${family === 'survey' ? 1 : 2}${String(i).padStart(3, '0')}`);
    await t.db.withTenant(demo, (tx) =>
      tx.query(`insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) select $1, $2, n, 'Khách', now() - interval '3 days' from unnest($3::text[]) n`, [demo, id, numbers]));
    expect((await send('POST', api.state(id), { to: 'running' })).statusCode).toBe(200);
    for (const r of results) {
      const agent: Agent = { tenantId: demo, userId: r.userId, at: r.at };
      const contact = (await work().next(agent, family, id)).contact!;
      expect((await work().call(agent, family, id, contact.id)).allowed).toBe(true);
      await work().result(agent, family, id, contact.id, { result: r.result, callback_at: null });
    }
  }

  it("counts the assignee's survey attempts ended 'Đồng ý' in the period", async () => {
    const now = new Date(Date.now() - 2_000);
    const yesterday = new Date(Date.now() - 86_400_000 - 3_600_000);
    await worked('survey', [
      { userId: staffId, result: 'agreed', at: now },
      { userId: staffId, result: 'agreed', at: now },
      { userId: staffId, result: 'declined', at: now },
      { userId: staffId, result: 'busy', at: now },
      { userId: staffId, result: 'agreed', at: yesterday },
      { userId: adminId, result: 'agreed', at: now },
    ]);
    await worked('marketing', [{ userId: staffId, result: 'agreed', at: now }]);

    const kpi = async (assignee: { type: 'user' | 'team'; id: number }): Promise<Kpi> => {
      const res = await send('POST', 'kpis', { name: `Khảo sát ${assignee.type} ${assignee.id}`, measure: 'survey_calls_completed', target: 4, period: 'day', start_date: vnDay(new Date()), assignee });
      expect([res.statusCode, res.body]).toEqual([201, res.body]);
      return res.json().data;
    };
    const staffKpi = await kpi({ type: 'user', id: staffId });
    expect(staffKpi.measure).toBe('survey_calls_completed');
    expect(staffKpi.progress).toMatchObject({ actual: 2, percent: 50 });
    expect((await kpi({ type: 'user', id: adminId })).progress).toMatchObject({ actual: 1, percent: 25 });
    expect((await kpi({ type: 'team', id: teamId })).progress).toMatchObject({ actual: 2 });
    // The list reads the same figure; the measure's words are Vietnamese.
    const listed = (await send('GET', 'kpis?per_page=100')).json().data as Kpi[];
    expect(listed.find((k) => k.id === staffKpi.id)?.progress.actual).toBe(2);
    expect(KPI_MEASURES.survey_calls_completed).toEqual({ label: 'Số cuộc gọi khảo sát hoàn thành', unit: 'cuộc' });
  });
});
