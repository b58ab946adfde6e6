import { HOLIDAY_MSG, PBX_MSG, vnDay, type Holiday, type HolidayYear } from '@tongdai/contracts';
import type { TestApp } from '../../../test/helpers';
import { startPbxTest } from '../../../test/pbx-app';
import type { PbxClient } from '@tongdai/testkit/pbx-kit';
import { inboundCall, liveState, vn } from '@tongdai/testkit/routing-factory';
import { planCall } from '../routing';
import { loadPbxConfig } from './config';

type Json = Record<string, unknown>;

/** Issue 39: Vietnam's public holidays in time groups, through the /pbx partner API, on PostgreSQL. */
describe('PBX partner API: public holidays and their overrides', () => {
  let t: TestApp;
  let demo: PbxClient;
  let abc: PbxClient;
  let gioHanhChinh: number;
  beforeAll(async () => {
    ({ t, demo, abc, gioHanhChinh } = await startPbxTest());
  });
  afterAll(() => t.close());

  const year = async (client: PbxClient, y?: number): Promise<HolidayYear> => (await client.get(`/partner/holidays${y ? `?year=${y}` : ''}`)).json();
  const day = (list: Holiday[], date: string) => list.find((h) => h.date === date);
  const created = async (client: PbxClient, path: string, body: Json) => {
    const res = await client.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().data as Json & { id: number };
  };

  it("lists a year's holidays with solar and lunar dates; without a year, the coming one", async () => {
    const y2027 = await year(demo, 2027);
    expect(y2027.year).toBe(2027);
    expect(day(y2027.data, '2027-02-06')).toEqual({ date: '2027-02-06', name: 'Tết Nguyên Đán', key: 'tet', lunar: { day: 1, month: 1, leap: false }, source: 'computed', override_id: null });
    expect(y2027.data.filter((h) => h.key === 'tet').map((h) => h.date)).toEqual(['2027-02-05', '2027-02-06', '2027-02-07', '2027-02-08', '2027-02-09']);
    expect(day((await year(demo, 2026)).data, '2026-04-26')).toMatchObject({ name: 'Giỗ Tổ Hùng Vương', lunar: { day: 10, month: 3 } });
    // The coming year: this one while a holiday of it is ahead (the last computed one is 2/9), else the next.
    const today = vnDay(new Date());
    const coming = await year(demo);
    expect(coming.year).toBe(Number(today.slice(0, 4)) + (today > `${today.slice(0, 4)}-09-02` ? 1 : 0));
  });

  it('refuses a bad year, a bad day, a missing name, and an override the law does not allow (4xx, machine-readable, Vietnamese)', async () => {
    const bad = await demo.get('/partner/holidays?year=1999');
    expect([bad.statusCode, bad.json().code, bad.json().details]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'year', message: HOLIDAY_MSG.year }]]);
    const cases: [Json, { field: string; message: string }][] = [
      [{ date: '2027-02-30', action: 'add', name: 'Không có' }, { field: 'date', message: HOLIDAY_MSG.date }],
      [{ date: '10/02/2027', action: 'add', name: 'Sai dạng' }, { field: 'date', message: HOLIDAY_MSG.date }],
      [{ date: '2027-02-10', action: 'add', name: '  ' }, { field: 'name', message: HOLIDAY_MSG.nameRequired }],
      [{ date: '2027-02-06', action: 'add', name: 'Tết' }, { field: 'date', message: HOLIDAY_MSG.alreadyAHoliday }],
      [{ date: '2027-02-10', action: 'remove' }, { field: 'date', message: HOLIDAY_MSG.notAHoliday }],
      [{ date: '2027-02-10', action: 'rename', name: 'Không phải lễ' }, { field: 'date', message: HOLIDAY_MSG.notAHoliday }],
    ];
    for (const [body, detail] of cases) {
      const res = await demo.post('/partner/holiday-overrides', body);
      expect([body, res.statusCode, res.json().code, res.json().details]).toEqual([body, 400, 'VALIDATION_FAILED', [detail]]);
    }
    expect((await demo.post('/partner/holiday-overrides', { date: '2027-02-10', action: 'skip', name: 'x' })).json().details).toEqual([{ field: 'action', message: 'Giá trị không hợp lệ' }]);
  });

  it("adds, renames and removes days of a year; the year's list shows each with its source", async () => {
    const added = await created(demo, '/partner/holiday-overrides', { date: '2027-02-10', action: 'add', name: 'Nghỉ bù Tết' });
    expect(added).toMatchObject({ date: '2027-02-10', action: 'add', name: 'Nghỉ bù Tết' });
    const dup = await demo.post('/partner/holiday-overrides', { date: '2027-02-10', action: 'add', name: 'Lần nữa' });
    expect([dup.statusCode, dup.json().code, dup.json().message, dup.json().details]).toEqual([409, 'CONFLICT', HOLIDAY_MSG.dateTaken, [{ field: 'date', message: HOLIDAY_MSG.dateTaken }]]);
    const removed = await created(demo, '/partner/holiday-overrides', { date: '2027-09-01', action: 'remove', name: 'bỏ qua' });
    expect(removed.name).toBe('');
    const renamed = await created(demo, '/partner/holiday-overrides', { date: '2027-04-30', action: 'rename', name: 'Ngày Thống nhất' });
    const list = (await year(demo, 2027)).data;
    expect(day(list, '2027-02-10')).toEqual({ date: '2027-02-10', name: 'Nghỉ bù Tết', key: null, lunar: null, source: 'added', override_id: added.id });
    expect(day(list, '2027-09-01')).toMatchObject({ source: 'removed', override_id: removed.id, name: 'Quốc khánh' });
    expect(day(list, '2027-04-30')).toMatchObject({ source: 'renamed', name: 'Ngày Thống nhất', key: 'reunification' });
    // Another year is untouched.
    expect((await year(demo, 2026)).data.every((h) => h.source === 'computed')).toBe(true);

    const moved = await demo.put(`/partner/holiday-overrides/${renamed.id}`, { date: '2027-04-30', action: 'rename', name: 'Giải phóng miền Nam' });
    expect([moved.statusCode, moved.json().data.name]).toEqual([200, 'Giải phóng miền Nam']);
    const clash = await demo.put(`/partner/holiday-overrides/${renamed.id}`, { date: '2027-09-01', action: 'rename', name: 'Trùng' });
    expect([clash.statusCode, clash.json().code]).toEqual([409, 'CONFLICT']);
    expect((await demo.get(`/partner/holiday-overrides/${renamed.id}`)).json().data).toMatchObject({ date: '2027-04-30', name: 'Giải phóng miền Nam' });
    expect((await demo.get('/partner/holiday-overrides')).json().data.map((o: Json) => o.date)).toEqual(['2027-09-01', '2027-04-30', '2027-02-10']);

    expect((await demo.del(`/partner/holiday-overrides/${renamed.id}`)).statusCode).toBe(204);
    expect((await demo.get(`/partner/holiday-overrides/${renamed.id}`)).statusCode).toBe(404);
    expect(day((await year(demo, 2027)).data, '2027-04-30')).toMatchObject({ source: 'computed', name: 'Ngày Giải phóng miền Nam, thống nhất đất nước' });
  });

  it("keeps each tenant's overrides its own: another tenant neither sees nor changes them", async () => {
    const mine = await created(demo, '/partner/holiday-overrides', { date: '2027-05-03', action: 'add', name: 'Nghỉ bù 30/4' });
    expect((await abc.get('/partner/holiday-overrides')).json().data).toEqual([]);
    expect(day((await year(abc, 2027)).data, '2027-05-03')).toBeUndefined();
    expect((await abc.get(`/partner/holiday-overrides/${mine.id}`)).statusCode).toBe(404);
    expect((await abc.put(`/partner/holiday-overrides/${mine.id}`, { date: '2027-05-04', action: 'add', name: 'Chiếm' })).statusCode).toBe(404);
    expect((await abc.del(`/partner/holiday-overrides/${mine.id}`)).statusCode).toBe(404);
    // abc may override the same day for itself.
    await created(abc, '/partner/holiday-overrides', { date: '2027-05-03', action: 'add', name: 'Ngày của ABC' });
    expect(day((await year(demo, 2027)).data, '2027-05-03')).toMatchObject({ name: 'Nghỉ bù 30/4', override_id: mine.id });
  });

  it("a time group's holiday mode: kept by a PUT without it, a holidays-only group needs no range", async () => {
    const g = await created(demo, '/partner/time-group', { name: 'Giờ làm việc trừ lễ', holiday_mode: 'exclude', ranges: [{ time_start: '08:00', time_end: '17:00', dow_start: 1, dow_end: 5 }] });
    expect(g.holiday_mode).toBe('exclude');
    expect((await demo.put(`/partner/time-group/${g.id}`, { name: 'Giờ làm việc (trừ lễ)' })).json().data).toMatchObject({ name: 'Giờ làm việc (trừ lễ)', holiday_mode: 'exclude' });
    expect((await demo.put(`/partner/time-group/${g.id}`, { name: 'Giờ làm việc', holiday_mode: 'none' })).json().data.holiday_mode).toBe('none');
    const bad = await demo.put(`/partner/time-group/${g.id}`, { name: 'Giờ làm việc', holiday_mode: 'sometimes' });
    expect([bad.statusCode, bad.json().details[0].field]).toEqual([400, 'holiday_mode']);
    const holidaysOnly = await created(demo, '/partner/time-group', { name: 'Ngày lễ', holiday_mode: 'include' });
    expect(holidaysOnly.ranges).toEqual([]);
    const none = await demo.post('/partner/time-group', { name: 'Trống', holiday_mode: 'none' });
    expect([none.statusCode, none.json().details]).toEqual([400, [{ field: 'ranges', message: PBX_MSG.rangeRequired }]]);
    expect((await demo.get(`/partner/time-group/${gioHanhChinh}`)).json().data.holiday_mode).toBe('none');
  });

  it('the routing snapshot carries the holidays with the overrides: a call on Tết goes to the closed branch, the day after to the office', async () => {
    const g = await created(demo, '/partner/time-group', { name: 'Văn phòng', holiday_mode: 'exclude', ranges: [{ time_start: '08:00', time_end: '17:00', dow_start: 1, dow_end: 5 }] });
    const tc = await created(demo, '/partner/time-condition', { name: 'Văn phòng hay nghỉ', time_group_id: g.id, matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'direct', target: '102' } });
    const inbound = (await demo.get('/partner/inbound?dataType=all')).json().data[0];
    expect((await demo.put(`/partner/inbound/${inbound.id}`, { ...inbound, destination: { type: 'time', target: tc.id } })).statusCode).toBe(200);
    await created(demo, '/partner/holiday-overrides', { date: '2027-02-09', action: 'remove' });
    const demoId = (await t.db.withSystem((tx) => tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'"))).rows[0].id;
    const config = await t.db.withTenant(demoId, (tx) => loadPbxConfig(tx, demoId, 'demo'));
    const state = liveState({ registered: ['101', '102'] });
    const branch = (wall: string) => planCall(config, inboundCall('0912345678', inbound.did, vn(wall)), state).route.find((n) => n.type === 'time')?.branch;
    expect(branch('2027-02-08 10:00')).toBe('unmatched'); // Monday, mùng 3 Tết
    expect(branch('2027-02-09 10:00')).toBe('matched'); // mùng 4, removed by the override
    expect(branch('2027-02-11 10:00')).toBe('matched'); // Thursday after Tết
    expect(branch('2027-02-10 10:00')).toBe('unmatched'); // "Nghỉ bù Tết", the day the tenant added in a test above
  });

  it('a temporary override of a time condition ends later when a holiday is added on the day it would have ended', async () => {
    const g = await created(demo, '/partner/time-group', { name: 'Trực', holiday_mode: 'exclude', ranges: [{ time_start: '08:00', time_end: '17:00', dow_start: 1, dow_end: 5 }] });
    const tc = await created(demo, '/partner/time-condition', {
      name: 'Trực hay nghỉ', time_group_id: g.id, override: 'temp_unmatched', matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'direct', target: '102' },
    });
    const until = new Date(String(tc.override_until));
    const endDay = vnDay(until);
    await created(demo, '/partner/holiday-overrides', { date: endDay, action: 'add', name: 'Nghỉ đột xuất' });
    const after = (await demo.get(`/partner/time-condition/${tc.id}`)).json().data;
    expect(new Date(after.override_until).getTime()).toBeGreaterThan(until.getTime());
    expect(vnDay(new Date(after.override_until))).not.toBe(endDay);
  });
});
