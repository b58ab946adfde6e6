import { CAMPAIGN_MSG, TELECOM_API, TELECOM_MSG, campaignApi, vnDay } from '@tongdai/contracts';
import { multipart } from '@tongdai/testkit/pbx-kit';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';

const MARKETING = campaignApi('marketing');

/**
 * Decree 91's "tên định danh" from the screens (issue 33): the hotline's edit marks it registered
 * for advertising with its registered name and day; the marketing form then offers it, and an
 * advertising campaign with it is created and started. PostgreSQL.
 */
describe('a hotline registered as an advertising identity (PostgreSQL)', () => {
  let t: TestApp;
  let h: Awaited<ReturnType<typeof demoHeaders>>;
  let hotlineId: number;
  let agentId: number;
  beforeAll(async () => {
    t = await startTestApp();
    h = await demoHeaders(t.app);
    hotlineId = await t.db.withSystem(async (tx) => {
      const tenant = (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id;
      const sb = (await tx.query<{ id: number }>(
        "insert into telecom_switchboards (tenant_id, name, carrier, host, port, transport, auth_user, auth_password_sealed) values ($1, 'Viettel QC', 'viettel', '203.113.1.1', 5060, 'udp', '', '') returning id",
        [tenant],
      )).rows[0].id;
      return (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number, switchboard_id) values ($1, '842873005555', $2) returning id", [tenant, sb])).rows[0].id;
    });
    agentId = (await req('GET', MARKETING.options)).json().data.agents[0].id;
  });
  afterAll(() => t.close());

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = h.admin) =>
    t.app.inject({ method, url: `/t/demo/${url}`, headers, ...(payload && { payload }) });
  const hotline = async () => (await req('GET', TELECOM_API.hotline(hotlineId))).json().data;
  const edit = async (more: object, headers = h.admin) => {
    const now = await hotline();
    return req('PUT', TELECOM_API.hotline(hotlineId), { switchboard_id: now.switchboard_id, destination: { type: 'direct', target: '101' }, description: now.description, active: true, ...more }, headers);
  };

  it('marks a hotline with its registered name and day; bad input is refused in Vietnamese and nothing is written', async () => {
    expect(await hotline()).toMatchObject({ advertising_identity: false, advertising_name: '', advertising_registered_on: null });
    const noName = await edit({ advertising_identity: true, advertising_name: ' ', advertising_registered_on: '' });
    expect([noName.statusCode, noName.json().details]).toEqual([400, [
      { field: 'advertising_name', message: TELECOM_MSG.identityNameRequired }, { field: 'advertising_registered_on', message: TELECOM_MSG.identityDateRequired },
    ]]);
    const future = await edit({ advertising_identity: true, advertising_name: 'TONGDAI', advertising_registered_on: '2999-01-01' });
    expect(future.json().details).toEqual([{ field: 'advertising_registered_on', message: TELECOM_MSG.identityDateBad }]);
    const notADay = await edit({ advertising_identity: true, advertising_name: 'TONGDAI', advertising_registered_on: '2025-02-30' });
    expect(notADay.json().details).toEqual([{ field: 'advertising_registered_on', message: TELECOM_MSG.identityDateBad }]);
    // Staff may not edit hotlines; another tenant does not see it.
    expect((await edit({ advertising_identity: true, advertising_name: 'TONGDAI', advertising_registered_on: '2025-01-15' }, h.staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/t/abc/${TELECOM_API.hotline(hotlineId)}`, headers: h.abcAdmin, payload: { switchboard_id: 1, destination: { type: 'direct', target: '101' }, advertising_identity: true, advertising_name: 'X', advertising_registered_on: '2025-01-15' } })).statusCode).toBe(404);
    expect(await hotline()).toMatchObject({ advertising_identity: false, advertising_name: '' });

    const ok = await edit({ advertising_identity: true, advertising_name: '  TONGDAI  ', advertising_registered_on: vnDay(new Date()) });
    expect([ok.statusCode, ok.json().data]).toEqual([200, expect.objectContaining({ advertising_identity: true, advertising_name: 'TONGDAI', advertising_registered_on: vnDay(new Date()) })]);
    // An edit that does not mention it keeps it (an API client that predates it).
    await edit({ description: 'Hotline quảng cáo' });
    expect(await hotline()).toMatchObject({ description: 'Hotline quảng cáo', advertising_identity: true, advertising_name: 'TONGDAI' });
    expect((await req('GET', MARKETING.options)).json().data.hotlines).toContainEqual({ id: hotlineId, number: '842873005555', advertising_identity: true });
  });

  it('an advertising campaign is created with the marked hotline and started; unmarked, it can no longer start', async () => {
    const made = await req('POST', MARKETING.base, { name: 'Khuyến mãi cuối năm', purpose: 'advertising', script: 'Chào {{name}}', agent_ids: [agentId], hotline_id: hotlineId });
    expect([made.statusCode, made.json().data.hotline_id]).toEqual([201, hotlineId]);
    const id = made.json().data.id as number;
    const body = multipart({ commit: 'true' }, { name: 'danh-ba.csv', type: 'text/csv', bytes: Buffer.from('Họ tên,Số điện thoại\r\nAn,0912345671\r\n') });
    const imported = await t.app.inject({ method: 'POST', url: `/t/demo/${MARKETING.importFile(id)}`, headers: { ...h.admin, ...body.headers }, payload: body.payload });
    expect(imported.statusCode).toBe(200);

    await edit({ advertising_identity: false, advertising_name: 'TONGDAI', advertising_registered_on: '2025-01-15' });
    expect(await hotline()).toMatchObject({ advertising_identity: false, advertising_name: '', advertising_registered_on: null });
    const refused = await req('POST', MARKETING.state(id), { to: 'running' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, CAMPAIGN_MSG.hotlineNotAdvertising]);

    await edit({ advertising_identity: true, advertising_name: 'TONGDAI', advertising_registered_on: '2025-01-15' });
    const started = await req('POST', MARKETING.state(id), { to: 'running' });
    expect([started.statusCode, started.json().data.state]).toEqual([200, 'running']);
  });
});
