import { PBX_MSG } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { DEMO } from '../../db/seed';
import { buildServer } from '../../server';
import { pbxClient, wav, type PbxClient } from '@tongdai/testkit/pbx-kit';
import { openPgliteFromImage } from '../../../test/pglite-image';

/** The default engine (embedded PGlite) runs the same PBX SQL: arrays, bytea, json, constraint names. */
describe('PBX partner API on PGlite', () => {
  let db: Db;
  let app: FastifyInstance;
  let demo: PbxClient;
  beforeAll(async () => {
    db = await openPgliteFromImage('seeded');
    app = await buildServer({ db, jwtSecret: 'pglite-pbx-secret-pglite-pbx-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    demo = pbxClient(app, { authorization: `Bearer ${login.json().data.token}` });
  }, 180_000); // the run's seeded PGlite image (test/pglite-image.ts): made by the first suite that asks (migrations and seed, 72 s in a loaded CI run), then a start from it
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('reads the seed, writes arrays and audio bytes, maps conflicts and loops', async () => {
    const [group] = (await demo.get('/partner/group-inbounds?dataType=all')).json().data;
    expect(group).toMatchObject({ name: 'Kinh doanh', extensions: ['101', '102'] });
    expect((await demo.get('/partner/inbound')).json().data[0]).toMatchObject({ destination: { type: 'group', target: String(group.id) }, destination_name: 'Kinh doanh' });
    const queue = await demo.post('/partner/queues', { name: 'Q', agents: ['102', '101'], timeout_destination: { type: 'group', target: group.id } });
    expect(queue.json().data.agents).toEqual(['102', '101']);
    const dup = await demo.post('/partner/queues', { name: 'q', agents: ['101'] });
    expect([dup.statusCode, dup.json().message]).toEqual([409, PBX_MSG.nameTaken]);
    const loop = await demo.put(`/partner/group-inbounds/${group.id}`, { name: 'Kinh doanh', extensions: ['101'], destination: { type: 'queue', target: queue.json().data.id } });
    expect([loop.statusCode, loop.json().code]).toEqual([422, 'PBX_LOOP']);
    const g = (await demo.upload('/partner/greeting', { name: 'Chào' }, { name: 'a.wav', type: 'audio/wav', bytes: wav(1) })).json().data;
    expect(g).toMatchObject({ duration_seconds: 1, size_bytes: 16044 });
    expect((await demo.get(`/partner/greeting/${g.id}/audio`)).rawPayload.equals(wav(1))).toBe(true);
    const tg = (await demo.get('/partner/time-group?dataType=all')).json().data[0];
    const tc = await demo.post('/partner/time-condition', { name: 'HC', time_group_id: tg.id, matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'direct', target: '102' }, override: 'temp_matched' });
    expect(tc.json().data.override_until).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });

  it('lists the holidays with an override, stores its day as a date, maps a second override of a day to 409 (issue 39)', async () => {
    const added = await demo.post('/partner/holiday-overrides', { date: '2027-02-10', action: 'add', name: 'Nghỉ bù Tết' });
    expect([added.statusCode, added.json().data]).toEqual([201, expect.objectContaining({ date: '2027-02-10', action: 'add', name: 'Nghỉ bù Tết' })]);
    const again = await demo.post('/partner/holiday-overrides', { date: '2027-02-10', action: 'add', name: 'Lần nữa' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'CONFLICT']);
    const list = (await demo.get('/partner/holidays?year=2027')).json().data as { date: string; source: string }[];
    expect(list.filter((h) => h.date >= '2027-02-05' && h.date <= '2027-02-10').map((h) => `${h.date} ${h.source}`)).toEqual([
      '2027-02-05 computed', '2027-02-06 computed', '2027-02-07 computed', '2027-02-08 computed', '2027-02-09 computed', '2027-02-10 added',
    ]);
    const tg = await demo.post('/partner/time-group', { name: 'Ngày lễ', holiday_mode: 'include' });
    expect([tg.statusCode, tg.json().data.holiday_mode, tg.json().data.ranges]).toEqual([201, 'include', []]);
  });
});
