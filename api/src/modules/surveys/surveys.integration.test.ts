import { MSG, NAME_TAKEN, SURVEY_MSG, asAsked, type SurveyQuestion } from '@tongdai/contracts';
import { demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { createSurveysService } from './surveys.service';

describe('survey categories and questions (tenant surface, PostgreSQL)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = (url: string, headers = admin) => t.app.inject({ url: `/t/demo/${url}`, headers });
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url: `/t/demo/${url}`, headers, payload });
  const tenantId = (maDn: string) => t.db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);
  /** Every survey row of both tenants: a refused request must leave it as it was. */
  const snapshot = () =>
    t.db.withSystem(async (tx) => JSON.stringify([
      (await tx.query('select * from survey_categories order by id')).rows,
      (await tx.query('select * from survey_questions order by id')).rows,
    ]));
  const category = async (name: string) => (await send('POST', 'survey-categories', { name })).json().data as { id: number };
  const ask = async (category_id: number, text: string, extra: object = {}) => {
    const res = await send('POST', 'survey-questions', { category_id, kind: 'text', text, ...extra });
    expect([text, res.statusCode]).toEqual([text, 201]);
    return res.json().data as SurveyQuestion;
  };
  const order = async (categoryId: number) =>
    ((await get(`survey-questions?category_id=${categoryId}`)).json().data as SurveyQuestion[]).map((q) => [q.position, q.text]);

  it('creates, lists, reads, updates and deletes a category', async () => {
    const created = await send('POST', 'survey-categories', { name: 'Chăm sóc sau bán hàng', description: 'Gọi lại sau 7 ngày' });
    expect(created.statusCode).toBe(201);
    const row = created.json().data;
    expect(row).toMatchObject({ id: expect.any(Number), name: 'Chăm sóc sau bán hàng', description: 'Gọi lại sau 7 ngày', active: true, question_count: 0 });
    expect((await get(`survey-categories/${row.id}`)).json().data).toEqual(row);
    const found = (await get(`survey-categories?search=${encodeURIComponent('cham soc')}`)).json();
    expect([found.meta, found.data.map((c: { name: string }) => c.name)]).toEqual([{ page: 1, per_page: 10, total: 1 }, ['Chăm sóc sau bán hàng']]);
    const updated = await send('PUT', `survey-categories/${row.id}`, { name: 'Chăm sóc khách hàng', active: false });
    expect([updated.statusCode, updated.json().data]).toEqual([200, expect.objectContaining({ name: 'Chăm sóc khách hàng', active: false, description: '' })]);
    expect((await get('survey-categories/all')).json().data).toEqual([{ id: row.id, name: 'Chăm sóc khách hàng', active: false }]);
    expect((await send('DELETE', `survey-categories/${row.id}`)).statusCode).toBe(204);
    expect((await get(`survey-categories/${row.id}`)).json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('refuses a bad category with a machine-readable body, a taken name with 409, and writes nothing', async () => {
    await category('Khảo sát giao hàng');
    const before = await snapshot();
    const empty = await send('POST', 'survey-categories', { name: '  ', active: 'có' });
    expect([empty.statusCode, empty.json()]).toEqual([400, {
      status: 400, code: 'VALIDATION_FAILED', message: expect.any(String),
      details: expect.arrayContaining([{ field: 'name', message: MSG.required }]),
    }]);
    const taken = await send('POST', 'survey-categories', { name: 'KHẢO SÁT GIAO HÀNG' });
    expect([taken.statusCode, taken.json()]).toEqual([409, expect.objectContaining({ code: 'CONFLICT', details: [{ field: 'name', message: NAME_TAKEN }] })]);
    expect(await snapshot()).toBe(before);
  });

  it('creates a question of every kind at the end of its category, with options only for the choice kinds', async () => {
    const c = await category('Mức độ hài lòng');
    const kinds = [
      { kind: 'single', text: 'Anh/chị biết đến chúng tôi qua đâu?', options: ['Facebook', 'Bạn bè', 'Quảng cáo'], required: true },
      { kind: 'multiple', text: 'Anh/chị quan tâm sản phẩm nào?', options: ['Internet', 'Truyền hình'] },
      { kind: 'rating', text: 'Chấm điểm nhân viên tư vấn', options: ['bị bỏ', ''] },
      { kind: 'number', text: 'Gia đình có mấy người?' },
      { kind: 'yes_no', text: 'Anh/chị có giới thiệu cho người quen không?' },
      { kind: 'text', text: 'Góp ý khác' },
    ];
    for (const [i, q] of kinds.entries()) {
      const made = await ask(c.id, q.text, q);
      expect(made).toMatchObject({
        category_id: c.id, category_name: 'Mức độ hài lòng', kind: q.kind, position: i + 1, version: 1,
        options: q.kind === 'single' || q.kind === 'multiple' ? q.options : [], required: q.required ?? false,
      });
    }
    expect((await get(`survey-categories/${c.id}`)).json().data.question_count).toBe(6);
    const refused = await send('DELETE', `survey-categories/${c.id}`);
    expect([refused.statusCode, refused.json().message]).toEqual([409, SURVEY_MSG.categoryHasQuestions(6)]);
  });

  it('refuses invalid questions field by field, and writes nothing', async () => {
    const c = await category('Kiểm tra dữ liệu');
    const abcCategory = (await t.app.inject({ method: 'POST', url: '/t/abc/survey-categories', headers: abcAdmin, payload: { name: 'Của abc' } })).json().data;
    const before = await snapshot();
    const cases: [object, { field: string; message: string }][] = [
      [{ category_id: c.id, kind: 'single', text: 'Một lựa chọn', options: ['Có'] }, { field: 'options', message: SURVEY_MSG.optionsMin }],
      [{ category_id: c.id, kind: 'multiple', text: 'Trùng', options: ['Xanh', 'xanh'] }, { field: 'options', message: SURVEY_MSG.optionsDuplicate }],
      [{ category_id: c.id, kind: 'single', text: 'Rỗng', options: ['A', ' '] }, { field: 'options', message: SURVEY_MSG.optionsBlank }],
      [{ category_id: c.id, kind: 'slider', text: 'Loại lạ' }, { field: 'kind', message: SURVEY_MSG.kind }],
      [{ category_id: c.id, kind: 'text', text: '' }, { field: 'text', message: MSG.required }],
      [{ kind: 'text', text: 'Không danh mục' }, { field: 'category_id', message: MSG.required }],
      [{ category_id: abcCategory.id, kind: 'text', text: 'Danh mục của tenant khác' }, { field: 'category_id', message: SURVEY_MSG.categoryUnknown }],
    ];
    for (const [input, detail] of cases) {
      const res = await send('POST', 'survey-questions', input);
      expect([JSON.stringify(input), res.statusCode, res.json().code, res.json().details]).toEqual([JSON.stringify(input), 400, 'VALIDATION_FAILED', expect.arrayContaining([detail])]);
    }
    const q = await ask(c.id, 'Câu hợp lệ');
    const mid = await snapshot();
    const bad = await send('PUT', `survey-questions/${q.id}`, { category_id: abcCategory.id, kind: 'text', text: 'Chuyển sang abc' });
    expect(bad.json().details).toEqual([{ field: 'category_id', message: SURVEY_MSG.categoryUnknown }]);
    expect((await send('POST', `survey-questions/${q.id}/move`, { direction: 'sideways' })).statusCode).toBe(400);
    expect(await snapshot()).toBe(mid);
    expect(before).not.toBe(mid);
  });

  it('moves questions up and down within their category, and closes the gap left by a delete or a move out', async () => {
    const c = await category('Thứ tự câu hỏi');
    const other = await category('Danh mục khác');
    const [a, b, d] = [await ask(c.id, 'A'), await ask(c.id, 'B'), await ask(c.id, 'C')];
    expect((await send('POST', `survey-questions/${d.id}/move`, { direction: 'up' })).json().data.position).toBe(2);
    expect(await order(c.id)).toEqual([[1, 'A'], [2, 'C'], [3, 'B']]);
    // Already first: stays.
    expect((await send('POST', `survey-questions/${a.id}/move`, { direction: 'up' })).json().data.position).toBe(1);
    await send('POST', `survey-questions/${a.id}/move`, { direction: 'down' });
    expect(await order(c.id)).toEqual([[1, 'C'], [2, 'A'], [3, 'B']]);
    await send('PUT', `survey-questions/${a.id}`, { category_id: other.id, kind: 'text', text: 'A' });
    expect([await order(c.id), await order(other.id)]).toEqual([[[1, 'C'], [2, 'B']], [[1, 'A']]]);
    expect((await send('DELETE', `survey-questions/${d.id}`)).statusCode).toBe(204);
    expect(await order(c.id)).toEqual([[1, 'B']]);
    expect(b.position).toBe(2);
  });

  it('an edit of what is asked makes a new version; an answer kept as asked does not change with it', async () => {
    const c = await category('Phiên bản');
    const q = await ask(c.id, 'Anh/chị dùng gói nào?', { kind: 'single', options: ['Gói A', 'Gói B'] });
    const saved = asAsked(q);
    const required = await send('PUT', `survey-questions/${q.id}`, { category_id: c.id, kind: 'single', text: 'Anh/chị dùng gói nào?', options: ['Gói A', 'Gói B'], required: true });
    expect(required.json().data).toMatchObject({ required: true, version: 1 });
    const edited = await send('PUT', `survey-questions/${q.id}`, { category_id: c.id, kind: 'single', text: 'Anh/chị đang dùng gói cước nào?', options: ['Gói A', 'Gói B', 'Gói C'] });
    expect(edited.json().data).toMatchObject({ version: 2, text: 'Anh/chị đang dùng gói cước nào?', options: ['Gói A', 'Gói B', 'Gói C'] });
    expect(saved).toEqual({ question_id: q.id, version: 1, kind: 'single', text: 'Anh/chị dùng gói nào?', options: ['Gói A', 'Gói B'] });
  });

  it('keeps a question a running campaign asks (409, the reason in Vietnamese)', async () => {
    const c = await category('Đang chạy');
    const q = await ask(c.id, 'Câu hỏi của chiến dịch');
    const demo = await tenantId('demo');
    const asking = createSurveysService(t.db, { runningCampaignsAsking: async (_tx, id) => (id === q.id ? 1 : 0) });
    await expect(asking.removeQuestion(demo, q.id)).rejects.toMatchObject({ statusCode: 409, code: 'CONFLICT', message: SURVEY_MSG.questionInUse });
    expect((await get(`survey-questions/${q.id}`)).statusCode).toBe(200);
  });

  it("shows a tenant only its own categories and questions, and never touches another tenant's", async () => {
    const c = await category('Riêng của demo');
    const q = await ask(c.id, 'Câu riêng của demo');
    const asAbc = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/t/abc/${url}`, headers: abcAdmin, payload });
    const before = await snapshot();
    expect((await asAbc('GET', `survey-categories/${c.id}`)).statusCode).toBe(404);
    expect((await asAbc('GET', `survey-questions/${q.id}`)).statusCode).toBe(404);
    expect((await asAbc('PUT', `survey-categories/${c.id}`, { name: 'Đổi tên' })).statusCode).toBe(404);
    expect((await asAbc('PUT', `survey-questions/${q.id}`, { category_id: c.id, kind: 'text', text: 'x' })).statusCode).toBe(404);
    expect((await asAbc('POST', `survey-questions/${q.id}/move`, { direction: 'down' })).statusCode).toBe(404);
    expect((await asAbc('DELETE', `survey-questions/${q.id}`)).statusCode).toBe(404);
    expect((await asAbc('DELETE', `survey-categories/${c.id}`)).statusCode).toBe(404);
    const abcLists = [(await asAbc('GET', 'survey-categories?per_page=100')).json().data, (await asAbc('GET', 'survey-questions?per_page=100')).json().data];
    expect(abcLists.flat().map((r: { id: number }) => r.id)).not.toEqual(expect.arrayContaining([c.id]));
    expect((await asAbc('GET', 'survey-questions?per_page=100')).json().data.map((r: { text: string }) => r.text)).not.toContain('Câu riêng của demo');
    // abc's admin at demo's URL: refused before anything runs.
    expect((await t.app.inject({ url: '/t/demo/survey-categories', headers: abcAdmin })).statusCode).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  it('needs survey.view to read and survey.edit to write, and the purchased survey feature', async () => {
    expect((await get('survey-categories', staff)).statusCode).toBe(403);
    expect((await send('POST', 'survey-categories', { name: 'Không được phép' }, staff)).json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await t.db.withSystem((tx) => tx.query(`update payment_checks set feature_name_data = array_remove(feature_name_data, 'survey') where tenant_id = (select id from tenants where ma_dn = 'demo')`));
    expect((await get('survey-questions')).json()).toMatchObject({ status: 403, code: 'FEATURE_NOT_PURCHASED' });
  });
});
