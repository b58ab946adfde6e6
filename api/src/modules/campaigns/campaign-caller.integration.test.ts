import { TELECOM_API, campaignApi, campaignWorkApi, type CallDecision } from '@tongdai/contracts';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { settingsFromEnv, SwitchboardHosts } from '../trunks/switchboard-hosts';
import { buildInternalServer } from '../sip/internal-server';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');

/**
 * ADR 0050 slice 3, Decree 91 (an advertising call shows the identity registered for it): the call an
 * agent's extension places right after an allowed "Gọi" leaves with the campaign's hotline as caller
 * ID, through that hotline's switchboard first; any other call, or one placed minutes later, as the
 * outbound rule says. Asked of the real call path's planning endpoint, on the real database.
 */
describe('the caller ID of a campaign call (the outbound plan)', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it("is the campaign's hotline for the agent's extension dialling the contact it was allowed to call", async () => {
    // Carriers on loopback, allowed as a deployment lists its carriers' networks (ADR 0043).
    const hosts = new SwitchboardHosts(settingsFromEnv({ ...process.env, TRUNK_ALLOWED_NETWORKS: '127.0.0.0/8' }));
    t = await startTestApp({ switchboardHosts: hosts });
    const { admin } = await demoHeaders(t.app);
    const internal = buildInternalServer(t.db, { calls: { testClock: true, switchboardHosts: hosts } });
    const send = (method: 'POST' | 'GET', url: string, payload?: object) => t.app.inject({ method, url: `/t/demo/${url}`, headers: admin, payload });
    let n = 0;
    const dial = async (from: string, to: string) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=campaign-${++n}&source=ext&from=${from}&from_domain=demo.tongdai.local&to=${encodeURIComponent(to)}` })).json();
    try {
      const demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
      // Two switchboards: the rule goes out through the first; the campaign's hotline is on the second.
      const board = async (name: string, host: string) => {
        const made = await send('POST', TELECOM_API.switchboards, { name, carrier: 'viettel', host, register: false });
        expect([made.statusCode, made.body]).toEqual([201, made.body]);
        return made.json().data.id as number;
      };
      const [ruleBoard, campaignBoard] = [await board('Viettel 1', '127.0.0.2'), await board('Viettel 2', '127.0.0.3')];
      const hotline = await send('POST', TELECOM_API.hotlines, { number: '02873000066', switchboard_id: campaignBoard, destination: { type: 'direct', target: '102' } });
      expect(hotline.statusCode).toBe(201);
      const own = await send('POST', TELECOM_API.hotlines, { number: '02873000065', switchboard_id: ruleBoard, destination: { type: 'direct', target: '102' } });
      expect(own.statusCode).toBe(201);
      const rule = await t.app.inject({ method: 'POST', url: '/pbx/partner/rule', headers: admin, payload: { name: 'Di động', pattern: '0[35789]XXXXXXXX', switchboard_ids: [ruleBoard, campaignBoard], caller_id: '02873000065' } });
      expect([rule.statusCode, rule.body]).toEqual([201, rule.body]);

      // The agent (admin) and its extension 101; a running care campaign with one contact, on that hotline.
      const [adminId, hotlineId] = await t.db.withTenant(demo, async (tx) => {
        const user = (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id;
        await tx.query("update subscribers set user_id = null where user_id = $1 and extension <> '101'", [user]);
        await tx.query("update subscribers set user_id = $1 where extension = '101'", [user]);
        return [user, (await tx.query<{ id: number }>("select id from pbx_numbers where number = '842873000066'")).rows[0].id];
      });
      const category = (await send('POST', 'survey-categories', { name: 'Caller ID chiến dịch' })).json().data;
      const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý' })).json().data;
      const made = await send('POST', SURVEY.base, { name: 'Caller ID E2E', question_ids: [question.id], agent_ids: [adminId], hotline_id: hotlineId });
      expect([made.statusCode, made.body]).toEqual([201, made.body]);
      const campaign = made.json().data.id as number;
      await t.db.withTenant(demo, (tx) =>
        tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, fields, next_at) values ($1, $2, '84912000777', 'Khách', '{}', now() - interval '1 minute')", [demo, campaign]));
      expect((await send('POST', SURVEY.state(campaign), { to: 'running' })).statusCode).toBe(200);

      // Before "Gọi": the rule's caller ID, the rule's switchboards.
      const before = (await dial('101', '0912000777')).steps.filter((s: { do: string }) => s.do === 'forward');
      expect(before[0]).toMatchObject({ from: expect.stringContaining('2873000065'), sb: ruleBoard });

      const contact = (await send('POST', WORK.next(campaign))).json().data.contact;
      const call = await send('POST', WORK.call(campaign, contact.id));
      expect((call.json().data as CallDecision).allowed).toBe(true);

      // The agent's extension dials the contact (any written form): the campaign's hotline, its switchboard first.
      for (const to of ['0912000777', '+84912000777']) {
        const steps = (await dial('101', to)).steps.filter((s: { do: string }) => s.do === 'forward');
        expect(steps.map((s: { sb: number }) => s.sb)).toEqual([campaignBoard, ruleBoard]);
        expect(steps[0].from).toContain('2873000066');
      }
      // Another extension, or another number: as the rule says.
      expect((await dial('102', '0912000777')).steps.find((s: { do: string }) => s.do === 'forward')).toMatchObject({ from: expect.stringContaining('2873000065'), sb: ruleBoard });
      expect((await dial('101', '0912000778')).steps.find((s: { do: string }) => s.do === 'forward')).toMatchObject({ from: expect.stringContaining('2873000065'), sb: ruleBoard });
      // Minutes after "Gọi" the attempt is no longer fresh: as the rule says again.
      await t.db.withTenant(demo, (tx) => tx.query("update campaign_attempts set started_at = now() - interval '3 minutes'"));
      expect((await dial('101', '0912000777')).steps.find((s: { do: string }) => s.do === 'forward')).toMatchObject({ from: expect.stringContaining('2873000065'), sb: ruleBoard });
    } finally {
      await internal.close();
    }
  });
});
