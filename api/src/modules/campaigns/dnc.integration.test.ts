import { CONSENT_API, CONSENT_MSG, DECREE91_MESSAGES, DNC_API, DNC_IMPORT_MAX_ERRORS, DNC_MSG, MSG, campaignApi, campaignWorkApi } from '@tongdai/contracts';
import { multipart } from '@tongdai/testkit/pbx-kit';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';

const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');

/**
 * The do-not-call lists' API (issue 33, ADR 0049) on PostgreSQL: a national file of 200,000 numbers in
 * one request (batched inserts), repeats and bad rows with their line and a Vietnamese message, one
 * number added and removed by hand, masking, tenant isolation, permissions, and "Gọi" refused for a
 * number the screen put on the tenant's list.
 */
describe('do-not-call lists (PostgreSQL)', () => {
  let t: TestApp;
  let h: Awaited<ReturnType<typeof demoHeaders>>;
  beforeAll(async () => {
    t = await startTestApp();
    h = await demoHeaders(t.app);
  });
  afterAll(() => t.close());

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = h.admin, maDn = 'demo') =>
    t.app.inject({ method, url: `/t/${maDn}/${url}`, headers, ...(payload && { payload }) });
  const upload = (bytes: Buffer, fields: Record<string, string>, headers = h.admin, name = 'danh-sach.csv') => {
    const body = multipart(fields, { name, type: 'text/plain', bytes });
    return t.app.inject({ method: 'POST', url: `/t/demo/${DNC_API.file}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  /** 0… numbers 0390000000 + i, one a line. */
  const national = (n: number) => Array.from({ length: n }, (_, i) => `0${390_000_000 + i}`);

  it('imports a national list of 200,000 numbers in one request; a second file counts repeats and says which rows are not numbers', async () => {
    const started = Date.now();
    const big = await upload(Buffer.from(`Số điện thoại\n${national(200_000).join('\n')}\n`), { source: 'national' });
    expect([big.statusCode, big.json().data]).toEqual([200, { rows: 200_000, added: 200_000, already: 0, invalid: 0, errors: [] }]);
    console.log(`200,000 numbers imported through the API in ${Date.now() - started} ms`);
    expect((await req('GET', DNC_API.summary)).json().data).toEqual({ tenant: 0, national: 200_000 });

    const again = await upload(Buffer.from(['0390000001', '+84 390 000 002', '0390000001', 'abc', '', '12345', '0912000999'].join('\r\n')), { source: 'national' });
    expect(again.json().data).toEqual({
      rows: 6, added: 1, already: 3, invalid: 2,
      errors: [{ row: 4, value: 'abc', message: DNC_MSG.badNumber }, { row: 6, value: '12345', message: DNC_MSG.badNumber }],
    });
    // Stored 84…: the search finds it however it is typed; the list answers it as dialled.
    const found = (await req('GET', `${DNC_API.list}?search=${encodeURIComponent('+84912000')}`)).json();
    expect([found.meta.total, found.data[0]]).toEqual([1, expect.objectContaining({ number: '0912000999', source: 'national' })]);
    expect((await req('GET', `${DNC_API.list}?source=national&search=039000000`)).json().meta.total).toBe(10);
    // Replacing the national list: the new file is the whole list.
    const replaced = await upload(Buffer.from('0390000005\n'), { source: 'national', replace: 'true' });
    expect(replaced.json().data.added).toBe(1);
    expect((await req('GET', DNC_API.summary)).json().data).toEqual({ tenant: 0, national: 1 });
    // Errors are capped in the answer, counted in full.
    const bad = await upload(Buffer.from(Array.from({ length: DNC_IMPORT_MAX_ERRORS + 50 }, () => 'x1').join('\n')), { source: 'tenant' });
    expect([bad.json().data.invalid, bad.json().data.errors.length]).toEqual([DNC_IMPORT_MAX_ERRORS + 50, DNC_IMPORT_MAX_ERRORS]);
  }, 120_000);

  it('refuses an empty file, another file type and an unknown list in Vietnamese', async () => {
    const empty = await upload(Buffer.from('Số điện thoại\n\n'), { source: 'tenant' });
    expect([empty.statusCode, empty.json().details]).toEqual([400, [{ field: 'file', message: DNC_MSG.emptyFile }]]);
    const binary = await upload(Buffer.from([0, 1, 2, 3]), { source: 'tenant' }, h.admin, 'x.bin');
    expect(binary.statusCode).toBe(400);
    const source = await upload(Buffer.from('0912000111\n'), { source: 'khac' });
    expect([source.statusCode, source.json().details[0].field]).toEqual([400, 'source']);
  });

  it('adds one number with a note (twice is a 409), masks it as the tenant says, removes it; another tenant and staff cannot', async () => {
    const bad = await req('POST', DNC_API.list, { number: '12345', note: '' });
    expect([bad.statusCode, bad.json().details]).toEqual([400, [{ field: 'number', message: DNC_MSG.badNumber }]]);
    expect((await req('POST', DNC_API.list, { number: '' })).json().details).toEqual([{ field: 'number', message: MSG.required }]);
    const made = await req('POST', DNC_API.list, { number: '+84 912 000 111', note: 'Khách yêu cầu không gọi' });
    expect([made.statusCode, made.json().data]).toEqual([201, expect.objectContaining({ number: '0912000111', source: 'tenant', note: 'Khách yêu cầu không gọi' })]);
    const twice = await req('POST', DNC_API.list, { number: '0912000111' });
    expect([twice.statusCode, twice.json().details]).toEqual([409, [{ field: 'number', message: DNC_MSG.exists }]]);
    const stored = await t.db.withSystem(async (tx) => (await tx.query("select number from dnc_numbers where note = 'Khách yêu cầu không gọi'")).rows);
    expect(stored).toEqual([{ number: '84912000111' }]);

    const setting = (hidden: 0 | 1) => req('PUT', 'update-system-setting', { hidden_phone_customer: hidden, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 });
    expect((await setting(1)).statusCode).toBe(200);
    const masked = (await req('GET', `${DNC_API.list}?source=tenant`)).json().data.find((r: { id: number }) => r.id === made.json().data.id);
    expect(masked.number).not.toContain('0912000111');
    expect((await setting(0)).statusCode).toBe(200);

    const id = made.json().data.id as number;
    expect((await req('GET', DNC_API.list, undefined, h.abcAdmin, 'abc')).json().meta.total).toBe(0);
    expect((await req('GET', DNC_API.summary, undefined, h.abcAdmin, 'abc')).json().data).toEqual({ tenant: 0, national: 0 });
    expect((await req('DELETE', DNC_API.one(id), undefined, h.abcAdmin, 'abc')).statusCode).toBe(404);
    expect((await req('GET', DNC_API.list, undefined, h.staff)).statusCode).toBe(403);
    expect((await req('DELETE', DNC_API.one(id))).statusCode).toBe(204);
    expect((await req('DELETE', DNC_API.one(id))).statusCode).toBe(404);
  });

  it('"Gọi" for a number the screen put on the tenant list is refused, and says why', async () => {
    const demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const hotline = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873007771') returning id", [demo])).rows[0].id);
    const category = (await req('POST', 'survey-categories', { name: 'Không gọi' })).json().data;
    const question = (await req('POST', 'survey-questions', { category_id: category.id, kind: 'yes_no', text: 'Anh/chị hài lòng không?' })).json().data;
    const admin = (await req('GET', SURVEY.options)).json().data.agents.find((a: { name: string }) => /Quản trị viên/.test(a.name));
    const campaign = (await req('POST', SURVEY.base, { name: 'Khảo sát DNC', question_ids: [question.id], agent_ids: [admin.id], hotline_id: hotline })).json().data;
    const body = multipart({ commit: 'true' }, { name: 'danh-ba.csv', type: 'text/csv', bytes: Buffer.from('Họ tên,Số điện thoại\r\nBình,0912000222\r\n') });
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.importFile(campaign.id)}`, headers: { ...h.admin, ...body.headers }, payload: body.payload })).statusCode).toBe(200);
    expect((await req('POST', SURVEY.state(campaign.id), { to: 'running' })).statusCode).toBe(200);
    expect((await req('POST', DNC_API.list, { number: '0912000222', note: 'Đã khiếu nại' })).statusCode).toBe(201);

    const contact = (await req('POST', WORK.next(campaign.id))).json().data.contact;
    const call = await req('POST', WORK.call(campaign.id, contact.id));
    expect(call.json().data).toEqual({ allowed: false, reason: 'tenant_dnc', message: DECREE91_MESSAGES.tenant_dnc });
  });

  it('records a consent (source, day, what it lifts); bad input refused in Vietnamese; the working screen shows it and "Gọi" passes the DNC entry it overrides', async () => {
    const noSource = await req('POST', CONSENT_API.list, { number: '0912000333', source: ' ', agreed_on: '2999-01-01' });
    expect([noSource.statusCode, noSource.json().details]).toEqual([400, [
      { field: 'source', message: CONSENT_MSG.sourceRequired }, { field: 'agreed_on', message: CONSENT_MSG.badDay },
    ]]);
    expect((await req('POST', CONSENT_API.list, { number: 'abc', source: 'x', agreed_on: '2025-01-01' })).json().details).toEqual([{ field: 'number', message: DNC_MSG.badNumber }]);

    const demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const hotline = await t.db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873007772') returning id", [demo])).rows[0].id);
    const options = (await req('GET', SURVEY.options)).json().data;
    const admin = options.agents.find((a: { name: string }) => /Quản trị viên/.test(a.name));
    const campaign = (await req('POST', SURVEY.base, { name: 'Khảo sát đồng ý', question_ids: [options.questions[0].id], agent_ids: [admin.id], hotline_id: hotline })).json().data;
    const body = multipart({ commit: 'true' }, { name: 'danh-ba.csv', type: 'text/csv', bytes: Buffer.from('Họ tên,Số điện thoại\r\nCúc,0912000333\r\n') });
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/${SURVEY.importFile(campaign.id)}`, headers: { ...h.admin, ...body.headers }, payload: body.payload })).statusCode).toBe(200);
    expect((await req('POST', SURVEY.state(campaign.id), { to: 'running' })).statusCode).toBe(200);
    // Listed yesterday (by the database clock), agreed today: the consent is the newer.
    await t.db.withTenant(demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source, created_at) values ($1, '84912000333', 'tenant', now() - interval '1 day')", [demo]));

    const today = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
    const made = await req('POST', CONSENT_API.list, { number: '+84912000333', source: 'Cuộc gọi ghi âm 25/11', agreed_on: today, overrides_dnc: true, lifts_cap: true, note: 'Khách đồng ý nhận ưu đãi' });
    expect([made.statusCode, made.json().data]).toEqual([201, expect.objectContaining({
      number: '0912000333', source: 'Cuộc gọi ghi âm 25/11', lifts_window: false, lifts_cap: true, overrides_dnc: true, recorded_by: 'Quản trị viên',
    })]);
    const listed = (await req('GET', `${CONSENT_API.list}?search=0912000333`)).json();
    expect([listed.meta.total, listed.data[0].id]).toEqual([1, made.json().data.id]);
    expect((await req('GET', CONSENT_API.list, undefined, h.abcAdmin, 'abc')).json().meta.total).toBe(0);

    const contact = (await req('POST', WORK.next(campaign.id))).json().data.contact;
    expect(contact.consent).toEqual({ source: 'Cuộc gọi ghi âm 25/11', agreed_at: expect.any(String), lifts_window: false, lifts_cap: true, overrides_dnc: true });
    const call = await req('POST', WORK.call(campaign.id, contact.id));
    expect(call.json().data).toEqual({ allowed: true, attempt_id: expect.any(Number) });
  });
});
