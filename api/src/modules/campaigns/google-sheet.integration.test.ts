import { CAMPAIGN_MSG, GOOGLE_CREDENTIALS_API, MSG, campaignApi, type Campaign, type ContactImportResult } from '@tongdai/contracts';
import { SHEET_PRIVATE, newServiceAccount, startSheetsStandIn } from '@tongdai/testkit/google-sheets';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { GOOGLE_SHEET_MSG } from './google-sheet';

const SURVEY = campaignApi('survey');
const MARKETING = campaignApi('marketing');

/**
 * The Google Sheet contact source on PostgreSQL (issue 33): the tenant's service account sealed
 * (never answered back, only its e-mail), then POST …/contacts/sheet reading through the real client
 * from the local stand-in of Google (testkit google-sheets, GOOGLE_SHEETS_ENDPOINT) into the same
 * preview, mapping, per-row errors and "bỏ qua dòng lỗi" as a file.
 */
describe('a Google Sheet as a contact source (tenant surface, PostgreSQL)', () => {
  const file = newServiceAccount('khao-sat@du-an.iam.gserviceaccount.com');
  const SHEETS = {
    'sheet-ok': {
      'Danh sách': [['Họ tên', 'Số điện thoại', 'Gói'], ['Nguyễn Văn An', '0912 345 611', 'Cơ bản'], ['Trần Thị Bình', '+84912345612', 'Nâng cao']],
      'Lỗi': [['Họ tên', 'SĐT'], ['Lê Văn Cường', '0912345613'], ['Phạm Thị Dung', '12ab'], ['Hoàng Văn Em', '0912345613'], ['Đỗ Văn Phong', '']],
    },
  };
  let t: TestApp;
  let standIn: Awaited<ReturnType<typeof startSheetsStandIn>>;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  let questionId: number;
  let agentId: number;
  let hotline: number;
  beforeAll(async () => {
    standIn = await startSheetsStandIn([file], SHEETS);
    process.env.GOOGLE_SHEETS_ENDPOINT = standIn.endpoint;
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
    const demo = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    hotline = await t.db.withTenant(demo, async (tx) =>
      (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '02873009191') returning id", [demo])).rows[0].id);
    const category = (await send('POST', 'survey-categories', { name: 'Google Sheet' })).json().data;
    questionId = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'rating', text: 'Hài lòng?' })).json().data.id;
    agentId = (await t.app.inject({ url: `/t/demo/${SURVEY.options}`, headers: admin })).json().data.agents[0].id;
  });
  afterAll(async () => {
    delete process.env.GOOGLE_SHEETS_ENDPOINT;
    await t.close();
    await standIn.close();
  });

  const send = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, headers = admin, maDn = 'demo') =>
    t.app.inject({ method, url: `/t/${maDn}/${url}`, headers, payload });
  const contactRows = () =>
    t.db.withSystem(async (tx) => JSON.stringify((await tx.query('select campaign_id, number, name, fields from campaign_contacts order by id')).rows));
  const survey = async () => {
    const res = await send('POST', SURVEY.base, { name: `Khảo sát ${Math.random()}`, purpose: 'care', question_ids: [questionId], agent_ids: [agentId], hotline_id: hotline });
    expect(res.statusCode).toBe(201);
    return res.json().data as Campaign;
  };
  const sheet = (id: number, extra: object = {}, base = SURVEY) =>
    send('POST', base.importSheet(id), { name: 'Danh sách khách hàng', sheet_id: 'sheet-ok', sheet_name: 'Danh sách', user_id: agentId, ...extra });

  it('keeps the service account sealed: only its e-mail is answered, a blank key keeps it, a bad file is refused', async () => {
    expect((await send('GET', GOOGLE_CREDENTIALS_API)).json().data).toEqual({ client_email: null, updated_at: null });
    // Nothing stored yet: the import says where to set it.
    const c = await survey();
    expect((await sheet(c.id)).json()).toMatchObject({ status: 422, code: 'GOOGLE_SHEET_REFUSED', details: [{ field: 'google', message: CAMPAIGN_MSG.noGoogleAccount }] });
    expect((await send('PUT', GOOGLE_CREDENTIALS_API, { key_json: '' })).json().details).toEqual([{ field: 'key_json', message: MSG.required }]);
    expect((await send('PUT', GOOGLE_CREDENTIALS_API, { key_json: '{"client_email":"a@b"}' })).json().details).toEqual([{ field: 'key_json', message: GOOGLE_SHEET_MSG.badCredentials }]);
    const saved = await send('PUT', GOOGLE_CREDENTIALS_API, { key_json: file.json });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.client_email).toBe(file.email);
    expect(saved.body).not.toContain('PRIVATE KEY');
    const stored = await t.db.withSystem(async (tx) => (await tx.query<{ tenant_id: number; client_email: string; key_sealed: string }>('select * from google_credentials')).rows);
    expect(stored).toHaveLength(1);
    expect(stored[0].client_email).toBe(file.email);
    expect(stored[0].key_sealed).toMatch(/^v1\./);
    expect(stored[0].key_sealed).not.toContain('PRIVATE');
    // Blank keeps it; another tenant sees none; staff without campaign.edit may not read or set it.
    expect((await send('PUT', GOOGLE_CREDENTIALS_API, { key_json: '' })).json().data.client_email).toBe(file.email);
    expect((await send('GET', GOOGLE_CREDENTIALS_API, undefined, abcAdmin, 'abc')).json().data.client_email).toBeNull();
    expect((await send('GET', GOOGLE_CREDENTIALS_API, undefined, staff)).statusCode).toBe(403);
    expect((await send('PUT', GOOGLE_CREDENTIALS_API, { key_json: file.json }, staff)).statusCode).toBe(403);
  });

  it('previews a good sheet with its columns guessed, then imports it; the other columns become fields', async () => {
    const c = await survey();
    const preview = (await sheet(c.id)).json().data as ContactImportResult;
    expect(preview).toMatchObject({ columns: ['Họ tên', 'Số điện thoại', 'Gói'], mapping: { name_column: 0, phone_column: 1 }, rows: 2, valid: 2, errors: [], imported: 0, committed: false });
    expect(preview.sample.map((x) => [x.name, x.number, x.fields])).toEqual([['Nguyễn Văn An', '84912345611', { 'Gói': 'Cơ bản' }], ['Trần Thị Bình', '84912345612', { 'Gói': 'Nâng cao' }]]);
    expect(standIn.seen).toContain('POST /token');
    const done = (await sheet(c.id, { commit: true })).json().data as ContactImportResult;
    expect(done).toMatchObject({ imported: 2, committed: true });
    const listed = (await send('GET', SURVEY.contacts(c.id))).json().data as { name: string; number: string }[];
    expect(listed.map((x) => [x.name, x.number]).sort()).toEqual([['Nguyễn Văn An', '84912345611'], ['Trần Thị Bình', '84912345612']]);
    // The marketing family has the same route.
    const m = await send('POST', MARKETING.base, { name: 'Ưu đãi', purpose: 'care', script: 'Chào {{name}}', agent_ids: [agentId], hotline_id: hotline });
    expect((await sheet(m.json().data.id, {}, MARKETING)).json().data.valid).toBe(2);
  });

  it('shows bad rows with their reasons, writes nothing until "bỏ qua dòng lỗi", then only the good ones', async () => {
    const c = await survey();
    const preview = (await sheet(c.id, { sheet_name: 'Lỗi' })).json().data as ContactImportResult;
    expect(preview).toMatchObject({ rows: 4, valid: 1 });
    expect(preview.errors.map((e) => [e.row, e.message])).toEqual([
      [3, MSG.phoneFormat], [4, CAMPAIGN_MSG.duplicateInFile(2)], [5, MSG.required],
    ]);
    const before = await contactRows();
    expect((await sheet(c.id, { sheet_name: 'Lỗi', commit: true })).json().data).toMatchObject({ imported: 0, committed: false });
    expect(await contactRows()).toBe(before);
    expect((await sheet(c.id, { sheet_name: 'Lỗi', commit: true, skip_invalid: true })).json().data).toMatchObject({ imported: 1, committed: true });
  });

  it('says in Vietnamese when Google refuses: not shared (403), no such sheet or tab (404)', async () => {
    const c = await survey();
    for (const [extra, message] of [
      [{ sheet_id: SHEET_PRIVATE }, GOOGLE_SHEET_MSG.refused],
      [{ sheet_id: 'sheet-missing' }, GOOGLE_SHEET_MSG.notFound],
      [{ sheet_name: 'Không có' }, GOOGLE_SHEET_MSG.notFound],
    ] as const) {
      expect((await sheet(c.id, extra)).json()).toEqual({ status: 422, code: 'GOOGLE_SHEET_REFUSED', message: expect.any(String), details: [{ field: 'sheet_id', message }] });
    }
  });

  it('needs name, sheet_id, sheet_name and user_id ("Thông tin không được để trống"), a user of the tenant', async () => {
    const c = await survey();
    const res = await send('POST', SURVEY.importSheet(c.id), { name: ' ', sheet_id: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(expect.arrayContaining(['name', 'sheet_id', 'sheet_name', 'user_id'].map((field) => ({ field, message: MSG.required }))));
    expect((await sheet(c.id, { user_id: 999999 })).json().details).toEqual([{ field: 'user_id', message: CAMPAIGN_MSG.unknownUser }]);
  });

  it("another tenant's campaign is a 404, and staff without campaign.edit a 403: nothing read, nothing written", async () => {
    const c = await survey();
    const before = await contactRows();
    const reads = standIn.seen.length;
    const body = { name: 'x', sheet_id: 'sheet-ok', sheet_name: 'Danh sách', user_id: 1, commit: true };
    expect((await send('POST', SURVEY.importSheet(c.id), body, abcAdmin, 'abc')).json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await send('POST', SURVEY.importSheet(c.id), { ...body, user_id: agentId }, staff)).statusCode).toBe(403);
    expect(standIn.seen.length).toBe(reads);
    expect(await contactRows()).toBe(before);
  });
});
