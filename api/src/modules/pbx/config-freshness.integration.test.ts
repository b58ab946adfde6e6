import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp, carrierSource } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

/** Carriers call in from a switchboard of the tenant (ADR 0036): the plan request's src. */
let carrierSrc = '';

/** What an admin saves routes the very next call: no snapshot of the configuration outlives a write. */
describe('routing follows PBX writes at once', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('a new number and its inbound route are used by the next call, even with the configuration cached', async () => {
    t = await startTestApp();
    carrierSrc = await carrierSource(t.db);
    const { admin } = await demoHeaders(t.app);
    const internal = buildInternalServer(t.db, { calls: { testClock: true } });
    const plan = async (callId: string, did: string) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=trunk&from=0901000001&from_domain=carrier.example&to=${did}${carrierSrc}` })).json();
    const post = async (path: string, payload: object) => {
      const r = await t.app.inject({ method: 'POST', url: `/pbx/partner/${path}?CodeCompany=demo`, headers: admin, payload });
      expect(r.statusCode).toBe(201);
    };
    try {
      // The tenant's configuration is loaded (and cached), and the unknown number remembered.
      // (Nobody is registered here: the seeded ring group has no one to ring, the plan hangs up.)
      expect((await plan('f-1', '02873000001')).steps[0].do).toBe('hangup');
      expect((await plan('f-2', '02873006001')).steps[0]).toMatchObject({ do: 'reject', code: 404 });
      await post('number', { number: '02873006001' });
      await post('inbound', { did: '02873006001', destination: { type: 'direct', target: '102' } });
      const next = await plan('f-3', '02873006001');
      // 102 is not registered here: the direct call ends offline (480) — but it is 102's plan, not 404.
      expect(next.steps[0]).toMatchObject({ do: 'reject', code: 480 });
    } finally {
      await internal.close();
    }
  });
});
