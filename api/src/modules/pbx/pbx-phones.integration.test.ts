import type { PbxClient } from '@tongdai/testkit/pbx-kit';
import { liveState } from '@tongdai/testkit/routing-factory';
import type { TestApp } from '../../../test/helpers';
import { startPbxTest } from '../../../test/pbx-app';
import { planCall } from '../routing';
import { loadPbxConfig } from './config';

type Json = Record<string, unknown>;

/** One phone rule (ADR 0016) on the PBX: DIDs and exact blocked numbers stored 84…, answered 0…. */
describe('PBX phone numbers: stored 84…, accepted 0…/+84…, answered 0…', () => {
  let t: TestApp;
  let demo: PbxClient;
  let kinhDoanh: number;
  beforeAll(async () => {
    ({ t, demo, kinhDoanh } = await startPbxTest());
  });
  afterAll(() => t.close());

  const stored = async (sql: string, id: number) => (await t.db.withSystem((tx) => tx.query<{ v: string }>(sql, [id]))).rows[0].v;
  const created = async (path: string, body: Json): Promise<Json & { id: number }> => {
    const res = await demo.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  it('a DID typed +84… is stored 84…, answered, read and searched as 0…; an inbound route names it in any form and routes calls to it', async () => {
    const num = await created('/partner/number', { number: '+84 28 7300 0077'.replace(/ /g, ''), description: 'Số mới' });
    expect(num.number).toBe('02873000077');
    expect(await stored('select number as v from pbx_numbers where id = $1', num.id)).toBe('842873000077');
    for (const form of ['02873000077', '842873000077', '+842873000077']) {
      expect([form, (await demo.get(`/partner/number/${encodeURIComponent(form)}?CodeCompany=demo`)).json().data?.id]).toEqual([form, num.id]);
    }
    for (const q of ['0287300007', '+84287300007', '2873000077']) {
      expect([q, (await demo.get(`/partner/number?search=${encodeURIComponent(q)}`)).json().data.map((n: Json) => n.number)]).toEqual([q, ['02873000077']]);
    }

    // The route names the DID as 84…: it still points at the number (stored 0… before, this was 400 didUnknown).
    const route = await created('/partner/inbound', { did: '842873000077', destination: { type: 'group', target: String(kinhDoanh) } });
    expect(route.did).toBe('02873000077');
    expect(await stored('select did as v from pbx_inbounds where id = $1', route.id)).toBe('842873000077');
    expect((await demo.get('/partner/inbound?search=02873000077')).json().data.map((r: Json) => r.id)).toEqual([route.id]);
    // Deleting the number the route uses is refused, naming it as screens show it.
    const del = await demo.del(`/partner/number/${num.id}`);
    expect([del.statusCode, del.json().message]).toEqual([409, expect.stringContaining('"02873000077"')]);

    const config = await t.db.withTenant(1, (tx) => loadPbxConfig(tx, 1, 'demo'));
    const at = new Date('2026-11-23T03:00:00Z');
    for (const to of ['02873000077', '+842873000077']) {
      const plan = planCall(config, { from: '0912345678', to, direction: 'inbound', at }, liveState({ registered: ['101', '102'] }));
      expect([to, plan.steps[0]?.kind]).toEqual([to, 'ring']);
    }
  });

  it('an exact blocked number is stored 84… and still blocks the caller in every form; a prefix stays as typed', async () => {
    const exact = await created('/partner/blocked-in', { number: '+84912000111', match: 'exact', note: 'Quấy rối' });
    expect(exact.number).toBe('0912000111');
    expect(await stored('select number as v from pbx_blocked_numbers where id = $1', exact.id)).toBe('84912000111');
    const prefix = await created('/partner/blocked-in', { number: '+8424', match: 'prefix' });
    expect([prefix.number, await stored('select number as v from pbx_blocked_numbers where id = $1', prefix.id)]).toEqual(['+8424', '+8424']);
    expect((await demo.get('/partner/blocked-in?search=0912000')).json().data.map((b: Json) => b.id)).toEqual([exact.id]);

    const config = await t.db.withTenant(1, (tx) => loadPbxConfig(tx, 1, 'demo'));
    const at = new Date('2026-11-23T03:00:00Z');
    for (const from of ['0912000111', '84912000111', '+84912000111', '02438251234']) {
      const plan = planCall(config, { from, to: '02873000001', direction: 'inbound', at }, liveState({ registered: ['101', '102'] }));
      expect([from, plan.steps[0]]).toEqual([from, expect.objectContaining({ kind: 'reject', reason: 'blocked_in' })]);
    }
  });
});
