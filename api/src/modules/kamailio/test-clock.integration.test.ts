import type { FastifyInstance } from 'fastify';
import { pbxClient } from '@tongdai/testkit/pbx-kit';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp, carrierSource } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';

/** Carriers call in from a switchboard of the tenant (ADR 0036): the plan request's src. */
let carrierSrc = '';

const DID = '02873000003';
const MONDAY_MORNING = encodeURIComponent('2024-06-10T09:00:00+07:00');
const SUNDAY_NIGHT = encodeURIComponent('2024-06-09T22:00:00+07:00');

/** The `at` of a plan request is a test clock: only a server built for tests with it obeys it. */
describe('test clock of the plan endpoint', () => {
  let t: TestApp;
  const servers: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await t?.close();
  });

  async function server(calls: { testClock?: boolean }) {
    const internal = buildInternalServer(t.db, { calls });
    servers.push(internal);
    for (const user of ['101', '102']) {
      const r = await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: 'demo.tongdai.local', expires: 60 } });
      expect(r.statusCode).toBe(200);
    }
    let n = 0;
    /** Who the call to DID rings at `at`. */
    return async (at: string) => {
      const r = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=clock-${calls.testClock}-${++n}&source=trunk&from=0901000001&from_domain=carrier.example&to=${DID}&at=${at}${carrierSrc}` });
      expect(r.statusCode).toBe(200);
      return JSON.stringify(r.json().steps);
    };
  }

  beforeAll(async () => {
    t = await startTestApp();
    carrierSrc = await carrierSource(t.db);
    const demo = pbxClient(t.app, (await demoHeaders(t.app)).admin);
    const group = (await demo.get('/partner/time-group?dataType=all')).json().data[0].id;
    const tc = await demo.post('/partner/time-condition', { name: 'Đồng hồ', time_group_id: group, matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'direct', target: '102' } });
    expect(tc.statusCode).toBe(201);
    const route = await demo.post('/partner/inbound', { did: DID, destination: { type: 'time', target: String(tc.json().data.id) } });
    expect(route.statusCode).toBe(201);
  });

  it('a server built with testClock routes by the time the request names (office hours → 101, Sunday night → 102)', async () => {
    const plan = await server({ testClock: true });
    const [monday, sunday] = [await plan(MONDAY_MORNING), await plan(SUNDAY_NIGHT)];
    expect(monday).toContain('"101"');
    expect(sunday).toContain('"102"');
  });

  it('a normal server (as npm start builds it) ignores `at` and routes by the real clock', async () => {
    const plan = await server({});
    expect(await plan(SUNDAY_NIGHT)).toBe(await plan(MONDAY_MORNING));
  });
});
