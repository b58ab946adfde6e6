import { ERROR_MESSAGES } from '@tongdai/contracts';
import { demoHeaders, type TestApp } from '../../../test/helpers';
import { startPbxTest } from '../../../test/pbx-app';
import { wav, type PbxClient } from '@tongdai/testkit/pbx-kit';

describe('tenant API GET /notifications (SPEC §7)', () => {
  let t: TestApp;
  let demo: PbxClient;
  let abc: PbxClient;
  let headers: Awaited<ReturnType<typeof demoHeaders>>;
  const get = (url: string, h: Record<string, string> | undefined) => t.app.inject({ url, headers: h });
  beforeAll(async () => {
    ({ t, demo, abc } = await startPbxTest());
    headers = await demoHeaders(t.app);
    const greeting = (await demo.upload('/partner/greeting', { name: 'Lời chào' }, { name: 'a.wav', type: 'audio/wav', bytes: wav(1) })).json().data;
    for (const name of ['Nghỉ lễ 2/9', 'Ngoài giờ làm việc', 'Bảo trì hệ thống']) {
      expect((await demo.post('/partner/message', { name, greeting_id: greeting.id, description: `Thông báo ${name}` })).statusCode).toBe(201);
    }
    const abcGreeting = (await abc.upload('/partner/greeting', { name: 'ABC' }, { name: 'b.wav', type: 'audio/wav', bytes: wav(1) })).json().data;
    expect((await abc.post('/partner/message', { name: 'Thông báo của ABC', greeting_id: abcGreeting.id })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it("lists the tenant's notifications, paged (page, per_page) and searchable", async () => {
    const all = await get('/t/demo/notifications', headers.admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().meta).toEqual({ page: 1, per_page: 10, total: 3 });
    expect(all.json().data.map((n: { name: string }) => n.name).sort()).toEqual(['Bảo trì hệ thống', 'Nghỉ lễ 2/9', 'Ngoài giờ làm việc']);
    expect(all.json().data[0]).toMatchObject({ id: expect.any(Number), greeting_id: expect.any(Number), destination: null });
    const page2 = (await get('/t/demo/notifications?page=2&per_page=2', headers.admin)).json();
    expect([page2.meta, page2.data.length]).toEqual([{ page: 2, per_page: 2, total: 3 }, 1]);
    const found = (await get(`/t/demo/notifications?search=${encodeURIComponent('bảo trì')}`, headers.admin)).json();
    expect(found.data.map((n: { name: string }) => n.name)).toEqual(['Bảo trì hệ thống']);
  });

  it("keeps each tenant to its own rows, and refuses another tenant's path, a role without notification.view and no token", async () => {
    expect((await get('/t/abc/notifications', headers.abcAdmin)).json().data.map((n: { name: string }) => n.name)).toEqual(['Thông báo của ABC']);
    const other = await get('/t/abc/notifications', headers.admin);
    expect([other.statusCode, other.json().code]).toEqual([401, 'UNAUTHORIZED_TENANT']);
    const staff = await get('/t/demo/notifications', headers.staff);
    expect([staff.statusCode, staff.json()]).toEqual([403, { status: 403, code: 'FORBIDDEN', message: ERROR_MESSAGES.FORBIDDEN }]);
    expect((await get('/t/demo/notifications', undefined)).statusCode).toBe(401);
    expect((await get('/t/demo/notifications?per_page=0', headers.admin)).statusCode).toBe(400);
  });
});
