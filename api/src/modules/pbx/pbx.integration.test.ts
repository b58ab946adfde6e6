import { ERROR_MESSAGES, MSG, PBX_MSG, PBX_RESOURCES } from '@tongdai/contracts';
import { DEMO_PBX } from '../../db/seed-pbx';
import type { TestApp } from '../../../test/helpers';
import { startPbxTest } from '../../../test/pbx-app';
import type { PbxClient } from '@tongdai/testkit/pbx-kit';

type Json = Record<string, unknown>;

describe('PBX partner API: generic resources and the SPEC §7 paths', () => {
  let t: TestApp;
  let demo: PbxClient;
  let staff: PbxClient;
  let abc: PbxClient;
  let kinhDoanh: number;
  let gioHanhChinh: number;
  let switchboard: number;
  beforeAll(async () => {
    ({ t, demo, staff, abc, kinhDoanh, gioHanhChinh, switchboard } = await startPbxTest());
  });
  afterAll(() => t.close());

  it('serves the seeded demo PBX: three DIDs, a ring group, office hours, one inbound route', async () => {
    const numbers = (await demo.get('/partner/number?CodeCompany=demo')).json();
    expect(numbers).toMatchObject({ total: 3, page: 1, page_size: 10 });
    expect(numbers.data.map((n: Json) => n.number)).toEqual([...DEMO_PBX.demo.numbers]);
    const groups = (await demo.get('/partner/group-inbounds?dataType=all')).json().data;
    expect(groups).toEqual([
      expect.objectContaining({ name: 'Kinh doanh', extensions: ['101', '102'], strategy: 'ringall', ring_time: 20, destination: null }),
    ]);
    const tg = (await demo.get(`/partner/time-group/${gioHanhChinh}`)).json().data;
    expect(tg).toMatchObject({ name: 'Giờ hành chính', ranges: [{ id: expect.any(Number), time_start: '08:00', time_end: '17:30', dow_start: 1, dow_end: 5, dom_start: null, month_end: null }] });
    const inbound = (await demo.get('/partner/inbound')).json();
    expect(inbound.data).toEqual([
      expect.objectContaining({ did: '02873000001', caller_pattern: '', destination: { type: 'group', target: String(kinhDoanh) }, destination_name: 'Kinh doanh' }),
    ]);
    expect((await abc.get('/partner/number?dataType=all')).json().data.map((n: Json) => n.number)).toEqual(['02473000001']);
  });

  const cases: { r: string; create: () => Json; update: () => Json; search: string; after: () => Json }[] = [
    { r: PBX_RESOURCES.number, create: () => ({ number: '02873000009', description: 'Số mới' }), update: () => ({ number: '02873000009', description: 'Đã đổi', active: false }), search: '0009', after: () => ({ description: 'Đã đổi', active: false }) },
    {
      r: PBX_RESOURCES.inbound,
      create: () => ({ did: '02873000002', destination: { type: 'direct', target: '101' }, description: 'Lễ tân' }),
      update: () => ({ did: '02873000002', caller_pattern: '09XXXXXXXX', destination: { type: 'fw', target: '0901234567' } }),
      search: 'Lễ tân',
      after: () => ({ caller_pattern: '09XXXXXXXX', destination: { type: 'fw', target: '0901234567' }, destination_name: '0901234567', description: '' }),
    },
    {
      r: PBX_RESOURCES.ringGroup,
      create: () => ({ name: 'Chăm sóc khách hàng', extensions: ['102', '101'], strategy: 'hunt', ring_time: '30' }),
      update: () => ({ name: 'CSKH', extensions: ['101'], destination: { type: 'voicmail', target: '101' } }),
      search: 'chăm sóc',
      after: () => ({ name: 'CSKH', extensions: ['101'], strategy: 'ringall', ring_time: 20, destination: { type: 'voicmail', target: '101' } }),
    },
    {
      r: PBX_RESOURCES.queue,
      create: () => ({ name: 'Hàng đợi hỗ trợ', agents: ['101', '102'], strategy: 'rrmemory' }),
      update: () => ({ name: 'Hàng đợi hỗ trợ', agents: ['102'], max_wait: 60, timeout_destination: { type: 'group', target: String(kinhDoanh) } }),
      search: 'hỗ trợ',
      after: () => ({ agents: ['102'], max_wait: 60, agent_timeout: 15, timeout_destination: { type: 'group', target: String(kinhDoanh) }, join_greeting_id: null }),
    },
    {
      r: PBX_RESOURCES.ivr,
      create: () => ({ name: 'Menu thử', entries: [{ digit: '1', destination: { type: 'group', target: kinhDoanh } }, { digit: '#', destination: { type: 'direct', target: '102' } }] }),
      update: () => ({ name: 'Menu thử', entries: [{ digit: '9', destination: { type: 'fw', target: '19001234' } }], direct_dial: true, invalid_destination: { type: 'direct', target: '101' } }),
      search: 'menu',
      after: () => ({ entries: [{ digit: '9', destination: { type: 'fw', target: '19001234' } }], direct_dial: true, timeout: 5, invalid_retries: 3, invalid_destination: { type: 'direct', target: '101' }, timeout_destination: null }),
    },
    {
      r: PBX_RESOURCES.timeGroup,
      create: () => ({ name: 'Cuối tuần', ranges: [{ dow_start: '6', dow_end: 7 }] }),
      update: () => ({ name: 'Cuối tuần (T7–CN)', description: 'Nghỉ', ranges: [] }),
      search: 'cuối',
      after: () => ({ name: 'Cuối tuần (T7–CN)', description: 'Nghỉ', ranges: [expect.objectContaining({ dow_start: 6, dow_end: 7, time_start: '' })] }),
    },
    {
      r: PBX_RESOURCES.timeCondition,
      create: () => ({ name: 'Trong giờ?', time_group_id: gioHanhChinh, matched_destination: { type: 'group', target: kinhDoanh }, unmatched_destination: { type: 'voicemaill', target: kinhDoanh } }),
      update: () => ({ name: 'Trong giờ?', time_group_id: gioHanhChinh, matched_destination: { type: 'direct', target: '101' }, unmatched_destination: { type: 'fw', target: '0901234567' }, override: 'perm_matched' }),
      search: 'giờ',
      after: () => ({ override: 'perm_matched', override_until: null, timezone: 'Asia/Ho_Chi_Minh', time_group_name: 'Giờ hành chính', matched_destination: { type: 'direct', target: '101' } }),
    },
    {
      r: PBX_RESOURCES.lastCall,
      create: () => ({ name: 'Gặp lại người cũ', fallback_destination: { type: 'group', target: kinhDoanh } }),
      update: () => ({ name: 'Gặp lại người cũ', days: 30, fallback_destination: { type: 'direct', target: '102' } }),
      search: 'người cũ',
      after: () => ({ days: 30, ring_time: 20, fallback_destination: { type: 'direct', target: '102' } }),
    },
    {
      r: PBX_RESOURCES.outbound,
      create: () => ({ name: 'Di động', pattern: '0[35789]XXXXXXXX', switchboard_ids: [switchboard] }),
      update: () => ({ name: 'Di động', pattern: '0[35789]XXXXXXXX', switchboard_ids: [switchboard], strip: 1, prepend: '84', priority: 10 }),
      search: 'động',
      after: () => ({ strip: 1, prepend: '84', priority: 10, allow_international: false, caller_id: '', switchboard_ids: [switchboard], caller_id_mode: 'fixed' }),
    },
    { r: PBX_RESOURCES.blockedIn, create: () => ({ number: '0900000001', note: 'Quấy rối' }), update: () => ({ number: '0900', match: 'prefix' }), search: 'quấy', after: () => ({ number: '0900', match: 'prefix', note: '', direction: 'in' }) },
    { r: PBX_RESOURCES.blockedOut, create: () => ({ number: '1900', match: 'prefix' }), update: () => ({ number: '1900', match: 'prefix', note: 'Đầu số giá cao' }), search: '1900', after: () => ({ note: 'Đầu số giá cao', direction: 'out' }) },
  ];

  it.each(cases.map((c) => [c.r, c]))('%s: create, list, search, get, update, delete', async (_r, c) => {
    const created = await demo.post(`/partner/${c.r}?CodeCompany=demo`, c.create());
    expect([created.statusCode, created.json().code]).toEqual([201, undefined]);
    const row = created.json().data;
    expect(row).toMatchObject({ id: expect.any(Number), created_at: expect.any(String), updated_at: expect.any(String) });

    const listed = (await demo.get(`/partner/${c.r}?page=1&page_size=100`)).json();
    expect(listed.data.map((x: Json) => x.id)).toContain(row.id);
    const found = (await demo.get(`/partner/${c.r}?search=${encodeURIComponent(c.search)}`)).json();
    expect(found.data.map((x: Json) => x.id)).toEqual([row.id]);
    expect(found.total).toBe(1);
    expect((await demo.get(`/partner/${c.r}?dataType=all`)).json()).toEqual({ data: listed.data });

    const detail = c.r === PBX_RESOURCES.number ? `/partner/number/${row.number}` : `/partner/${c.r}/${row.id}`;
    expect((await demo.get(`${detail}?CodeCompany=demo`)).json()).toEqual({ data: row });

    const updated = await demo.put(`/partner/${c.r}/${row.id}?CodeCompany=demo`, c.update());
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ ...c.after(), id: row.id, created_at: row.created_at });

    expect((await demo.del(`/partner/${c.r}/${row.id}?CodeCompany=demo`)).statusCode).toBe(204);
    expect((await demo.get(detail)).statusCode).toBe(404);
    expect((await demo.del(`/partner/${c.r}/${row.id}`)).json()).toEqual({ status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND });
  });

  it('pages 10 at a time and filters the inbound list by destination type (filter_action)', async () => {
    for (let i = 0; i < 11; i++) await demo.post('/partner/inbound', { did: '02873000003', caller_pattern: `0${i}X.`, destination: { type: i % 2 ? 'direct' : 'fw', target: i % 2 ? '101' : '0901234567' } });
    const p1 = (await demo.get('/partner/inbound')).json();
    expect([p1.data.length, p1.total, p1.page, p1.page_size]).toEqual([10, 12, 1, 10]);
    expect((await demo.get('/partner/inbound?page=2')).json().data).toHaveLength(2);
    const fw = (await demo.get('/partner/inbound/john/incoming/demo?page=1&page_size=10&search=&filter_action=fw')).json();
    expect([fw.total, new Set(fw.data.map((x: Json) => (x.destination as Json).type))]).toEqual([6, new Set(['fw'])]);
    expect((await demo.get('/partner/inbound/john/incoming/demo?filter_action=group')).json().total).toBe(1);
    expect((await demo.get('/partner/inbound/john/incoming/demo?filter_action=')).json().total).toBe(12);
    expect((await demo.get('/partner/inbound?filter_action=voicemail')).statusCode).toBe(400);
    expect((await demo.get('/partner/inbound/all/demo')).json().data).toHaveLength(12);
    const ids = (await demo.get('/partner/inbound?search=02873000003&page_size=100')).json().data.map((x: Json) => x.id);
    for (const id of ids) expect((await demo.del(`/partner/incoming/${id}`)).statusCode).toBe(204);
  });

  it('answers every SPEC §7 path of the partner API', async () => {
    const created = await demo.post('/partner/incoming', { did: '02873000002', destination: { type: 'group', target: kinhDoanh }, ma_dn: 'demo' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const viaInbound = await demo.post('/partner/inbound', { did: '02873000002', caller_pattern: '1900.', destination: { type: 'direct', target: '102' } });
    expect(viaInbound.statusCode).toBe(201);
    expect((await demo.get(`/inbound/john/incoming/detail/${id}/demo`)).json().data).toMatchObject({ id, did: '02873000002', destination_name: 'Kinh doanh' });
    const put1 = await demo.put(`/partner/inbound/${id}`, { did: '02873000002', destination: { type: 'direct', target: '101' } });
    expect(put1.json().data.destination_name).toBe('101 - Quản trị viên');
    const put2 = await demo.put(`/incoming/${id}`, { did: '02873000002', destination: { type: 'direct', target: '102' }, description: 'PUT /incoming' });
    expect(put2.json().data).toMatchObject({ description: 'PUT /incoming', destination_name: '102 - Nhân viên tổng đài' });
    expect((await demo.del(`/partner/incoming/${id}`)).statusCode).toBe(204);
    expect((await demo.del(`/partner/inbound/${viaInbound.json().data.id}`)).statusCode).toBe(204);

    const rule = (await demo.post('/partner/rule', { name: 'Cố định', pattern: '02XXXXXXXXX', switchboard_ids: [switchboard] })).json().data;
    expect((await demo.del(`/partner/rule/${rule.id}`)).statusCode).toBe(204);

    expect((await demo.get('/partner/inbound/all/demo')).json().data).toHaveLength(1);
    expect((await demo.get('/partner/ivr_detail/all/demo')).json()).toEqual({ data: [] });
    expect((await demo.get('/partner/number/all/demo')).json().data).toHaveLength(3);
    const groups = await demo.get('/partner/group-inbounds/demo?dataType=all');
    expect(groups.json().data.map((g: Json) => g.name)).toEqual(['Kinh doanh']);
    expect((await demo.get('/partner/group-inbounds/demo')).json()).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect((await demo.get('/partner/message/all/demo')).json()).toEqual({ data: [] });
    expect((await demo.get('/partner/time/condition/all/demo')).json()).toEqual({ data: [] });
    expect((await demo.get('/partner/queues?dataType=all&CodeCompany=demo')).json()).toEqual({ data: [] });
    expect((await demo.get('/partner/last-calls?dataType=all&CodeCompany=demo')).json()).toEqual({ data: [] });
    expect((await demo.get('/partner/number/02873000002')).json().data).toMatchObject({ number: '02873000002', active: true });
    expect((await demo.get('/partner/number/0999999999')).statusCode).toBe(404);
    expect((await demo.get('/partner/destinations?CodeCompany=demo')).json()).toEqual({
      data: {
        ivr: {},
        direct: { '101': '101 - Quản trị viên', '102': '102 - Nhân viên tổng đài' },
        group: { [kinhDoanh]: 'Kinh doanh' },
        msg: {},
        time: {},
        voicmail: { '101': '101 - Quản trị viên', '102': '102 - Nhân viên tổng đài' },
        queue: {},
        lastcall: {},
        voicemaill: { [kinhDoanh]: 'Kinh doanh' },
      },
    });
    expect((await demo.get('/health')).json()).toEqual({ status: 'ok' });
  });

  it('validates bodies with the contract messages', async () => {
    const bad = await demo.post('/partner/inbound', { did: 'abc', destination: { type: 'voicemail', target: '1' } });
    expect([bad.statusCode, bad.json().code, bad.json().details]).toEqual([
      400,
      'VALIDATION_FAILED',
      [
        { field: 'did', message: PBX_MSG.numberFormat },
        { field: 'destination.type', message: PBX_MSG.destinationType },
      ],
    ]);
    const group = await demo.post('/partner/group-inbounds', { name: ' ', extensions: [] });
    expect(group.json().details).toEqual([
      { field: 'name', message: MSG.required },
      { field: 'extensions', message: PBX_MSG.membersRequired },
    ]);
    const ivr = await demo.post('/partner/ivr_detail', { name: 'X', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }, { digit: '1', destination: { type: 'direct', target: '102' } }] });
    expect(ivr.json().details).toEqual([{ field: 'entries', message: PBX_MSG.duplicateDigit }]);
    const tc = await demo.post('/partner/time-condition', { name: 'X', time_group_id: gioHanhChinh, matched_destination: { type: 'fw', target: 'abc' }, unmatched_destination: { type: 'direct', target: '101' }, timezone: 'Mars/Base' });
    expect(tc.json().details).toEqual([
      { field: 'matched_destination', message: PBX_MSG.destinationTarget },
      { field: 'timezone', message: PBX_MSG.timezone },
    ]);
    const range = await demo.post(`/partner/time-group/${gioHanhChinh}/ranges`, { time_start: '25:00', dow_start: 8 });
    expect(range.json().details).toEqual([
      { field: 'time_start', message: PBX_MSG.timeFormat },
      { field: 'dow_start', message: 'Giá trị không hợp lệ' },
    ]);
    const tg = await demo.post('/partner/time-group', { name: 'Trống' });
    expect([tg.statusCode, tg.json().details]).toEqual([400, [{ field: 'ranges', message: PBX_MSG.rangeRequired }]]);
    const queue = await demo.post(`/partner/${PBX_RESOURCES.queue}`, { name: 'Ngưỡng ngược', agents: ['101'], amber_wait_seconds: 120, red_wait_seconds: 60 });
    expect([queue.statusCode, queue.json().code, queue.json().details]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'amber_wait_seconds', message: PBX_MSG.amberBelowRed }]]);
    const number = await demo.post('/partner/number', { number: '12' });
    expect(number.json().details).toEqual([{ field: 'number', message: PBX_MSG.numberFormat }]);
    const page = await demo.get('/partner/inbound?page=0&page_size=1000');
    expect(page.statusCode).toBe(400);
  });

  it('refuses duplicates: names, inbound DID + caller pattern, a DID of another tenant, blocked numbers', async () => {
    const dupName = await demo.post('/partner/group-inbounds', { name: 'KINH DOANH', extensions: ['101'] });
    expect([dupName.statusCode, dupName.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: PBX_MSG.nameTaken, details: [{ field: 'name', message: PBX_MSG.nameTaken }] }]);
    const dupRoute = await demo.post('/partner/inbound', { did: '02873000001', destination: { type: 'direct', target: '101' } });
    expect([dupRoute.statusCode, dupRoute.json().details]).toEqual([409, [{ field: 'did', message: PBX_MSG.inboundTaken }]]);
    // abc owns 02473000001: demo cannot have it, and learns only that it is taken.
    const taken = await demo.post('/partner/number', { number: '02473000001' });
    expect([taken.statusCode, taken.json().details]).toEqual([409, [{ field: 'number', message: PBX_MSG.numberTaken }]]);
    const blocked = await demo.post('/partner/blocked-in', { number: '0911111111' });
    const again = await demo.post('/partner/blocked-in', { number: '0911111111' });
    expect(again.statusCode).toBe(409);
    // The same number may be blocked outgoing too.
    expect((await demo.post('/partner/blocked-out', { number: '0911111111' })).statusCode).toBe(201);
    expect((await demo.get(`/partner/blocked-out/${blocked.json().data.id}`)).statusCode).toBe(404);
    await demo.del(`/partner/blocked-in/${blocked.json().data.id}`);
  });

  it('checks permissions, the purchased PBX and the token', async () => {
    expect((await staff.get('/partner/inbound')).json()).toEqual({ status: 403, code: 'FORBIDDEN', message: ERROR_MESSAGES.FORBIDDEN });
    expect((await staff.post('/partner/number', { number: '02873000100' })).statusCode).toBe(403);
    expect((await staff.del('/partner/subscriber/delete/all?ids=1')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/pbx/partner/inbound' })).statusCode).toBe(401);
    const tenantId = (await t.db.withSystem((tx) => tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'"))).rows[0].id;
    await t.db.withTenant(tenantId, (tx) => tx.query("update payment_checks set feature_name_data = array['customer']"));
    expect((await demo.get('/partner/inbound')).json().code).toBe('FEATURE_NOT_PURCHASED');
    await t.db.withTenant(tenantId, (tx) => tx.query("update payment_checks set feature_name_data = array['customer','pbx']"));
    expect((await demo.get('/partner/inbound')).statusCode).toBe(200);
  });
});
