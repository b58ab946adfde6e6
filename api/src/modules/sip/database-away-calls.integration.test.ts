import type { FastifyInstance } from 'fastify';
import { SYSTEM_UNAVAILABLE_REASON } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { openDb } from '../../db/open';
import { seed } from '../../db/seed';
import { INTERNAL_HEADERS } from '../../../test/helpers';
import { until } from '../../../test/api-process';
import { evapiStandIn, locationTable, type EvapiStandIn } from '../../../test/evapi-stand-in';
import { startPgCluster, type PgCluster } from '../../../test/pg-cluster';
import type { CdrRow } from '../cdr/cdr';
import { buildInternalServer } from './internal-server';

/**
 * A call while PostgreSQL is away (issue 41, ADR 0046), at the API's end of Kamailio's two paths: the
 * plan request (HTTP) and the call events (evapi, here a stand-in that speaks Kamailio's side of the
 * handshake; sip/faults-api-restart runs the real one). The database is a throwaway cluster stopped
 * for real. A call the API cannot plan is refused for what it is (503 DATABASE_UNAVAILABLE, which
 * Kamailio turns into 503 + Retry-After and an `unplanned` event), never planned as "extension
 * offline" (480); the refused call is recorded with its honest reason once the database is back.
 */
const SECRET = process.env.INTERNAL_SECRET ?? '';
const DOMAIN = 'demo.tongdai.local';
describe('a call while the database is away', () => {
  let cluster: PgCluster;
  let db: Db;
  let events: EvapiStandIn;
  /** Planned calls before the outage: its caches (tenant, configuration, switchboards) are warm. */
  let warm: FastifyInstance;
  /** Never planned a call: everything a plan needs must come from the database. */
  let cold: FastifyInstance;

  const register = async (internal: FastifyInstance, user: string) =>
    (await internal.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user, domain: DOMAIN, expires: 600 } })).statusCode;
  /** 101 calls 102 through `internal`'s plan endpoint, as Kamailio asks. */
  const plan = async (internal: FastifyInstance, callId: string) => {
    const t0 = Date.now();
    const r = await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=${callId}&source=ext&from=101&from_domain=${DOMAIN}&to=102` });
    const body = r.json() as { code?: string; steps?: { do: string; code?: number; targets?: string[] }[] };
    return { status: r.statusCode, code: body.code, first: body.steps?.[0], ms: Date.now() - t0 };
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    db = await openDb({ databaseUrl: cluster.url });
    await seed(db);
    // Kamailio's location table, when asked: 201 of abc registered (a REGISTER the API could not record).
    events = await evapiStandIn(SECRET, (msg) => (msg.sync === 'registrations' ? locationTable(['201@abc.tongdai.local']) : undefined));
    warm = buildInternalServer(db, { secret: SECRET, calls: { evapi: `127.0.0.1:${events.port}`, lapseCheckMs: 100 } });
    cold = buildInternalServer(db, { secret: SECRET });
    for (const internal of [warm, cold]) for (const ext of ['101', '102']) expect(await register(internal, ext)).toBe(200);
    await until('the API connected to the events', async () => (await warm.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/calls' })).json().events_connected, (ok) => ok === true);
    expect((await plan(warm, 'before-outage')).first).toMatchObject({ do: 'ring', targets: ['102'] });
  }, 60_000);

  afterAll(async () => {
    await cold?.close();
    await warm?.close();
    events?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('is refused as unplannable (503 DATABASE_UNAVAILABLE within 3 s), never planned as "extension offline"; once the database is back its record says why, and a registration it missed is asked again from Kamailio', async () => {
    const at = Date.now() / 1000;
    cluster.down();
    try {
      // Nothing cached: the configuration cannot be read, and the answer says so.
      const refused = await plan(cold, 'outage-cold');
      expect({ status: refused.status, code: refused.code, bounded: refused.ms < 3000 }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE', bounded: true });
      // What was cached still plans the call (102 is registered and free), or it is refused the same way: never a 480.
      const cached = await plan(warm, 'outage-warm');
      expect(cached.status === 200 ? cached.first : cached.code).toEqual(cached.status === 200 ? expect.objectContaining({ do: 'ring', targets: ['102'] }) : 'DATABASE_UNAVAILABLE');
      // A phone of a tenant not looked up yet registers: its report cannot be recorded now (Kamailio keeps the registration).
      const registration = await warm.inject({ headers: INTERNAL_HEADERS, method: 'POST', url: '/internal/sip/registration', payload: { user: '201', domain: 'abc.tongdai.local', expires: 600 } });
      expect({ status: registration.statusCode, code: registration.json().code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      // Kamailio refused a call (503 + Retry-After) and keeps its event until the API has recorded it.
      events.send({ event: 'failed', id: '7.1', call_id: 'outage-refused', code: '503', unplanned: 'ext', from: '101', from_domain: DOMAIN, to: '102', src: '127.0.0.1:5060', at: at.toFixed(6) });
      // Not acknowledged while its record cannot be written (a window to show nothing is, not a wait for something).
      await new Promise((r) => setTimeout(r, 1000));
      expect(events.received).toEqual([]);
    } finally {
      cluster.up();
    }
    await until('the refused call acknowledged once recorded', () => events.received, (r) => r.some((m) => m.ack === '7.1'));
    const rows = (await db.withSystem((tx) => tx.query<CdrRow>("select * from cdrs where call_id = 'outage-refused'"))).rows;
    expect(rows.map((r) => ({ direction: r.direction, caller: r.caller, callee: r.callee, disposition: r.disposition, sip: r.sip_code, reason: r.reason }))).toEqual([
      { direction: 'internal', caller: '101', callee: '102', disposition: 'FAILED', sip: 503, reason: SYSTEM_UNAVAILABLE_REASON },
    ]);
    // At the moment it was refused, not when the database came back.
    expect(Math.abs(new Date(rows[0].started_at).getTime() - at * 1000)).toBeLessThan(1000);
    // The registration it missed comes back from Kamailio's location table, asked for once the database answers.
    await until('Kamailio asked for its registrations', () => events.received, (r) => r.some((m) => m.sync === 'registrations'));
    await until('201 of abc registered', async () => (await warm.inject({ headers: INTERNAL_HEADERS, url: '/internal/sip/registrations?domain=abc.tongdai.local' })).json().extensions, (e) => JSON.stringify(e) === '["201"]');
    // And the cold listener plans again by itself.
    expect((await plan(cold, 'after-outage')).first).toMatchObject({ do: 'ring', targets: ['102'] });
  }, 60_000);
});
