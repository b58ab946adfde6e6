import { TELECOM_API } from '@tongdai/contracts';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

/**
 * Issue 15: an extension dialling one of its company's own numbers (a DID or a hotline, written
 * 028…, 8428… or +8428…) reaches that number's inbound route inside the exchange, with no carrier —
 * it used to answer 404 (no outbound rule) or leave through a trunk. Asked of the real call path's
 * planning endpoint, on the real database.
 */
describe('own numbers dialled from an extension', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it("follow the number's inbound route, in any written form, without a switchboard", async () => {
    t = await startTestApp();
    const { admin } = await demoHeaders(t.app);
    const internal = buildInternalServer(t.db, { calls: { testClock: true } });
    let n = 0;
    const dial = async (to: string) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=own-${++n}&source=ext&from=101&from_domain=demo.tongdai.local&to=${encodeURIComponent(to)}` })).json();
    try {
      const sb = (await t.app.inject({ method: 'POST', url: `/t/demo/${TELECOM_API.switchboards}`, headers: admin, payload: { name: 'Viettel', carrier: 'viettel', host: '192.0.2.1', register: false } })).json().data;
      const hotline = await t.app.inject({ method: 'POST', url: `/t/demo/${TELECOM_API.hotlines}`, headers: admin, payload: { number: '02873000055', switchboard_id: sb.id, destination: { type: 'direct', target: '102' } } });
      expect(hotline.statusCode).toBe(201);
      // A rule that would carry 028… numbers out: the tenant's own numbers must not take it.
      const rule = await t.app.inject({ method: 'POST', url: '/pbx/partner/rule', headers: admin, payload: { name: 'Cố định', pattern: '02XXXXXXXXX', switchboard_ids: [sb.id] } });
      expect(rule.statusCode).toBe(201);
      // Nobody is registered here: 102's direct route ends offline (480), the plan of the number, not a forward.
      for (const to of ['02873000055', '842873000055', '+842873000055']) {
        const plan = await dial(to);
        expect(plan.steps[0]).toMatchObject({ do: 'reject', code: 480 });
        expect(JSON.stringify(plan)).not.toContain('"forward"');
      }
      // The seeded DID 02873000001 (no switchboard) rings its ring group's members (none registered: hangup).
      expect((await dial('+84 28 7300 0001')).steps[0].do).toBe('hangup');
      // A number that is not the tenant's still goes out through the rule.
      expect(JSON.stringify(await dial('02873000099'))).not.toMatch(/"code":480/);
    } finally {
      await internal.close();
    }
  });
});
