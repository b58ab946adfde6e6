import { ERROR_MESSAGES, PBX_MSG } from '@tongdai/contracts';
import type { TestApp } from '../../../test/helpers';
import { PBX_API_MSG } from './pbx.errors';
import { startPbxTest } from '../../../test/pbx-app';
import type { PbxClient } from '@tongdai/testkit/pbx-kit';

type Json = Record<string, unknown>;

describe('PBX partner API: references, loops, overrides and tenants', () => {
  let t: TestApp;
  let demo: PbxClient;
  let abc: PbxClient;
  let kinhDoanh: number;
  let gioHanhChinh: number;
  let seededRoute: number;
  let admin: Record<string, string>;
  beforeAll(async () => {
    ({ t, demo, abc, kinhDoanh, gioHanhChinh, seededRoute, admin } = await startPbxTest());
  });
  afterAll(() => t.close());

  const created = async (path: string, body: Json): Promise<Json & { id: number }> => {
    const res = await demo.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  it('refuses destinations, members and references the tenant does not have (400 with the field)', async () => {
    const cases: [string, Json, { field: string; message: string }[]][] = [
      ['/partner/inbound', { did: '02473000001', destination: { type: 'direct', target: '101' } }, [{ field: 'did', message: PBX_MSG.didUnknown }]],
      ['/partner/inbound', { did: '02873000002', destination: { type: 'ivr', target: '999' } }, [{ field: 'destination', message: PBX_MSG.destinationMissing }]],
      ['/partner/inbound', { did: '02873000002', destination: { type: 'direct', target: '555' } }, [{ field: 'destination', message: PBX_MSG.destinationMissing }]],
      ['/partner/group-inbounds', { name: 'Ma', extensions: ['101', '999'] }, [{ field: 'extensions', message: PBX_MSG.extensionUnknown('999') }]],
      ['/partner/queues', { name: 'Q', agents: ['777'], join_greeting_id: 999, moh_class: 'jazz' }, [
        { field: 'agents', message: PBX_MSG.extensionUnknown('777') },
        { field: 'join_greeting_id', message: PBX_API_MSG.greetingMissing },
        { field: 'moh_class', message: PBX_API_MSG.mohMissing },
      ]],
      ['/partner/ivr_detail', { name: 'M', entries: [{ digit: '1', destination: { type: 'queue', target: '42' } }], invalid_destination: { type: 'voicemaill', target: '42' } }, [
        { field: 'entries.0.destination', message: PBX_MSG.destinationMissing },
        { field: 'invalid_destination', message: PBX_MSG.destinationMissing },
      ]],
      ['/partner/message', { name: 'TB', greeting_id: 999 }, [{ field: 'greeting_id', message: PBX_API_MSG.greetingMissing }]],
      ['/partner/time-condition', { name: 'TC', time_group_id: 999, matched_destination: { type: 'msg', target: '1' }, unmatched_destination: { type: 'fw', target: '0901234567' } }, [
        { field: 'time_group_id', message: PBX_API_MSG.timeGroupMissing },
        { field: 'matched_destination', message: PBX_MSG.destinationMissing },
      ]],
      ['/partner/last-calls', { name: 'LC', fallback_destination: { type: 'lastcall', target: '1' } }, [{ field: 'fallback_destination', message: PBX_MSG.destinationMissing }]],
    ];
    for (const [path, body, details] of cases) {
      const res = await demo.post(path, body);
      expect([path, res.statusCode, res.json().code, res.json().details]).toEqual([path, 400, 'VALIDATION_FAILED', details]);
    }
    // abc's own ring group id is just as unknown to demo as a made-up one.
    const abcGroup = (await abc.post('/partner/group-inbounds', { name: 'Nhóm ABC', extensions: ['101'] })).json().data;
    const foreign = await demo.post('/partner/inbound', { did: '02873000002', destination: { type: 'group', target: abcGroup.id } });
    expect(foreign.json().details).toEqual([{ field: 'destination', message: PBX_MSG.destinationMissing }]);
    expect((await demo.get('/partner/inbound?dataType=all')).json().data).toHaveLength(1);
  });

  it('refuses to delete what something else points at (409 naming the user), then allows it', async () => {
    const group = await demo.del(`/partner/group-inbounds/${kinhDoanh}`);
    expect([group.statusCode, group.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: PBX_MSG.inUse('Tuyến gọi vào "02873000001"') }]);
    const number = await demo.del(`/partner/number/${(await demo.get('/partner/number/02873000001')).json().data.id}`);
    expect([number.statusCode, number.json().message]).toEqual([409, PBX_MSG.inUse('Tuyến gọi vào "02873000001"')]);
    const tc = await created('/partner/time-condition', { name: 'Giờ HC', time_group_id: gioHanhChinh, matched_destination: { type: 'group', target: kinhDoanh }, unmatched_destination: { type: 'voicemaill', target: kinhDoanh } });
    expect((await demo.del(`/partner/time-group/${gioHanhChinh}`)).json().message).toBe(PBX_MSG.inUse('Điều kiện thời gian "Giờ HC"'));
    const lc = await created('/partner/last-calls', { name: 'Khách quen', fallback_destination: { type: 'time', target: tc.id } });
    expect((await demo.del(`/partner/time-condition/${tc.id}`)).json().message).toBe(PBX_MSG.inUse('Gọi lại người nghe gần nhất "Khách quen"'));
    // A group pointing at its own mailbox is not "used" by itself.
    const selfish = await created('/partner/group-inbounds', { name: 'Tự trỏ', extensions: ['102'] });
    expect((await demo.put(`/partner/group-inbounds/${selfish.id}`, { name: 'Tự trỏ', extensions: ['102'], destination: { type: 'voicemaill', target: selfish.id } })).statusCode).toBe(200);
    expect((await demo.del(`/partner/group-inbounds/${selfish.id}`)).statusCode).toBe(204);

    expect((await demo.del(`/partner/last-calls/${lc.id}`)).statusCode).toBe(204);
    expect((await demo.del(`/partner/time-condition/${tc.id}`)).statusCode).toBe(204);
    // Renumbering a DID carries its routes along.
    const n1 = (await demo.get('/partner/number/02873000001')).json().data;
    expect((await demo.put(`/partner/number/${n1.id}`, { number: '02873000011' })).statusCode).toBe(200);
    expect((await demo.get(`/partner/inbound/${seededRoute}`)).json().data.did).toBe('02873000011');
    await demo.put(`/partner/number/${n1.id}`, { number: '02873000001' });
    expect((await demo.get(`/partner/inbound/${seededRoute}`)).json().data.did).toBe('02873000001');
  });

  it('refuses a loop of automatic edges (422 PBX_LOOP naming it) and leaves the data as it was', async () => {
    const ivr = await created('/partner/ivr_detail', { name: 'Menu chính', timeout_destination: { type: 'direct', target: '101' } });
    const tc = await created('/partner/time-condition', { name: 'Giờ HC 2', time_group_id: gioHanhChinh, matched_destination: { type: 'ivr', target: ivr.id }, unmatched_destination: { type: 'ivr', target: ivr.id } });
    const body = { name: 'Menu chính', timeout_destination: { type: 'time', target: tc.id } };
    const loop = await demo.put(`/partner/ivr_detail/${ivr.id}`, body);
    expect([loop.statusCode, loop.json()]).toEqual([
      422,
      { status: 422, code: 'PBX_LOOP', message: PBX_MSG.loop('IVR "Menu chính" → Điều kiện thời gian "Giờ HC 2" → IVR "Menu chính"') },
    ]);
    expect((await demo.get(`/partner/ivr_detail/${ivr.id}`)).json().data.timeout_destination).toEqual({ type: 'direct', target: '101' });
    // Digits are the caller's choice: "press 9 for the main menu" is no loop.
    const menu = await demo.put(`/partner/ivr_detail/${ivr.id}`, { name: 'Menu chính', entries: [{ digit: '9', destination: { type: 'time', target: tc.id } }], timeout_destination: { type: 'direct', target: '101' } });
    expect(menu.statusCode).toBe(200);
    // A loop closed from the other side, and a self-loop on create of a second object.
    const self = await demo.post('/partner/ivr_detail', { name: 'Vòng', invalid_destination: { type: 'time', target: tc.id } });
    expect(self.statusCode).toBe(201);
    const tcLoop = await demo.put(`/partner/time-condition/${tc.id}`, { name: 'Giờ HC 2', time_group_id: gioHanhChinh, matched_destination: { type: 'ivr', target: self.json().data.id }, unmatched_destination: { type: 'direct', target: '101' } });
    expect([tcLoop.statusCode, tcLoop.json().message]).toEqual([422, PBX_MSG.loop('Điều kiện thời gian "Giờ HC 2" → IVR "Vòng" → Điều kiện thời gian "Giờ HC 2"')]);
    expect((await demo.get(`/partner/time-condition/${tc.id}`)).json().data.matched_destination).toEqual({ type: 'ivr', target: String(ivr.id) });
    expect((await demo.get('/partner/ivr_detail?dataType=all')).json().data).toHaveLength(2);
  });

  it('stores a temporary override until the time group next changes state; other overrides clear it', async () => {
    const tg = (await demo.post('/partner/time-group', { name: 'Mọi ngày 8–17', ranges: [{ time_start: '08:00', time_end: '17:00' }] })).json().data;
    const base = { name: 'Tạm', time_group_id: tg.id, matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'direct', target: '102' } };
    const before = Date.now();
    const temp = (await demo.post('/partner/time-condition', { ...base, override: 'temp_unmatched' })).json().data;
    expect(Date.parse(temp.override_set_at)).toBeGreaterThanOrEqual(before - 1000);
    // Next change is 08:00 or 17:00 in Ho Chi Minh City (UTC+7): 01:00Z or 10:00Z, within a day.
    const until = new Date(temp.override_until);
    expect([1, 10]).toContain(until.getUTCHours());
    expect(until.getUTCMinutes()).toBe(0);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const perm = (await demo.put(`/partner/time-condition/${temp.id}`, { ...base, override: 'perm_matched' })).json().data;
    expect([perm.override, perm.override_set_at, perm.override_until]).toEqual(['perm_matched', null, null]);
    const tokyo = (await demo.put(`/partner/time-condition/${temp.id}`, { ...base, override: 'temp_matched', timezone: 'Asia/Tokyo' })).json().data;
    expect([23, 8]).toContain(new Date(tokyo.override_until).getUTCHours()); // 08:00 or 17:00 JST (UTC+9)
    // Editing the ranges moves the end of the override along with the group.
    const rangeId = tg.ranges[0].id;
    const edited = await demo.put(`/partner/time-group/${tg.id}/ranges/${rangeId}`, { time_start: '09:30', time_end: '18:00' });
    expect(edited.json().data.ranges).toEqual([expect.objectContaining({ id: rangeId, time_start: '09:30', time_end: '18:00' })]);
    const moved = new Date((await demo.get(`/partner/time-condition/${temp.id}`)).json().data.override_until);
    expect([[0, 30], [9, 0]]).toContainEqual([moved.getUTCHours(), moved.getUTCMinutes()]);
    const cleared = (await demo.put(`/partner/time-condition/${temp.id}`, { ...base, override: 'none' })).json().data;
    expect([cleared.override_set_at, cleared.override_until]).toEqual([null, null]);
  });

  it('refuses a range or a time condition sent as null instead of reading it as "always" (issue 12 §6)', async () => {
    const tg = (await demo.post('/partner/time-group', { name: 'Giờ làm 8–17', ranges: [{ time_start: '08:00', time_end: '17:00' }] })).json().data;
    const send = (method: 'POST' | 'PUT', url: string) =>
      t.app.inject({ method, url: `/pbx${url}`, headers: { ...admin, 'content-type': 'application/json' }, payload: 'null' });
    for (const [method, url] of [
      ['POST', `/partner/time-group/${tg.id}/ranges`],
      ['PUT', `/partner/time-group/${tg.id}/ranges/${tg.ranges[0].id}`],
      ['POST', '/partner/time-group'],
      ['POST', '/partner/time-condition'],
    ] as const) {
      const res = await send(method, url);
      expect([method, url, res.statusCode, res.json().code]).toEqual([method, url, 400, 'VALIDATION_FAILED']);
    }
    expect((await demo.post('/partner/time-group', { name: 'Null', ranges: [null] })).statusCode).toBe(400);
    expect((await demo.get(`/partner/time-group/${tg.id}`)).json().data.ranges).toEqual([expect.objectContaining({ time_start: '08:00', time_end: '17:00', dow_start: null })]);
  });

  it('edits the ranges of a time group one by one (detailId), keeping at least one', async () => {
    const tg = (await demo.post('/partner/time-group', { name: 'Ca đêm', ranges: [{ time_start: '22:00', time_end: '06:00' }] })).json().data;
    const added = await demo.post(`/partner/time-group/${tg.id}/ranges?CodeCompany=demo`, { dow_start: 6, dow_end: 7, month_start: 11, month_end: 2 });
    expect(added.statusCode).toBe(201);
    const [first, second] = added.json().data.ranges;
    expect(second).toMatchObject({ time_start: '', dow_start: 6, dow_end: 7, month_start: 11, month_end: 2, dom_start: null });
    expect((await demo.get(`/partner/time-group/${tg.id}/ranges/${second.id}`)).json().data).toEqual(second);
    expect((await demo.put(`/partner/time-group/${tg.id}`, { name: 'Ca đêm (sửa)' })).json().data.ranges).toHaveLength(2);
    expect((await demo.del(`/partner/time-group/${tg.id}/ranges/${first.id}`)).statusCode).toBe(204);
    const last = await demo.del(`/partner/time-group/${tg.id}/ranges/${second.id}`);
    expect([last.statusCode, last.json().message]).toEqual([409, PBX_MSG.rangeRequired]);
    expect((await demo.get(`/partner/time-group/${gioHanhChinh}/ranges/${second.id}`)).statusCode).toBe(404);
    expect((await demo.put(`/partner/time-group/${tg.id}/ranges/999999`, {})).statusCode).toBe(404);
  });

  describe('another tenant', () => {
    const denied = { status: 403, code: 'UNAUTHORIZED_TENANT', message: ERROR_MESSAGES.UNAUTHORIZED_TENANT };
    const demoState = async () => ({
      inbound: (await demo.get('/partner/inbound?dataType=all')).json().data,
      groups: (await demo.get('/partner/group-inbounds?dataType=all')).json().data,
      numbers: (await demo.get('/partner/number?dataType=all')).json().data,
    });

    it("naming demo's code with abc's token is 403 everywhere, and nothing changes", async () => {
      const before = await demoState();
      const attempts = [
        abc.get('/partner/inbound?CodeCompany=demo'),
        abc.get('/partner/inbound/john/incoming/demo?page=1&page_size=10'),
        abc.get(`/inbound/john/incoming/detail/${seededRoute}/demo`),
        abc.get('/partner/inbound/all/demo'),
        abc.get('/partner/ivr_detail/all/demo'),
        abc.get('/partner/number/all/demo'),
        abc.get('/partner/group-inbounds/demo?dataType=all'),
        abc.get('/partner/message/all/demo'),
        abc.get('/partner/time/condition/all/demo'),
        abc.get('/partner/queues?dataType=all&CodeCompany=demo'),
        abc.get('/partner/last-calls?dataType=all&CodeCompany=demo'),
        abc.get('/partner/destinations?CodeCompany=demo'),
        abc.post('/partner/inbound?CodeCompany=demo', { did: '02473000001', destination: { type: 'direct', target: '101' } }),
        abc.post('/partner/incoming', { ma_dn: 'demo', did: '02473000001', destination: { type: 'direct', target: '101' } }),
        abc.put(`/partner/inbound/${seededRoute}?CodeCompany=demo`, { did: '02473000001', destination: { type: 'direct', target: '101' } }),
        abc.put(`/incoming/${seededRoute}`, { CodeCompany: 'demo', did: '02473000001', destination: { type: 'direct', target: '101' } }),
        abc.del(`/partner/incoming/${seededRoute}?ma_dn=demo`),
        abc.del(`/partner/group-inbounds/${kinhDoanh}?CodeCompany=demo`),
        abc.del('/partner/subscriber/delete/all?ma_dn=demo&ids=1,2'),
        abc.upload('/importInbound', { CodeCompany: 'demo' }, { name: 'a.csv', type: 'text/csv', bytes: Buffer.from('did,destination_type,destination_target\n02473000001,direct,101\n') }),
      ];
      for (const res of await Promise.all(attempts)) expect([res.raw.req.url, res.json()]).toEqual([res.raw.req.url, denied]);
      expect(await demoState()).toEqual(before);
    });

    it("demo's rows read as not found with abc's own code", async () => {
      const before = await demoState();
      expect((await abc.get(`/partner/inbound/${seededRoute}`)).statusCode).toBe(404);
      expect((await abc.get(`/inbound/john/incoming/detail/${seededRoute}/abc`)).statusCode).toBe(404);
      expect((await abc.get(`/partner/group-inbounds/${kinhDoanh}?CodeCompany=abc`)).statusCode).toBe(404);
      expect((await abc.get('/partner/number/02873000001')).statusCode).toBe(404);
      expect((await abc.put(`/partner/group-inbounds/${kinhDoanh}`, { name: 'Chiếm', extensions: ['101'] })).statusCode).toBe(404);
      expect((await abc.del(`/partner/incoming/${seededRoute}`)).statusCode).toBe(404);
      expect((await abc.get('/partner/inbound')).json().total).toBe(0);
      expect(await demoState()).toEqual(before);
    });
  });
});
