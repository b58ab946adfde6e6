import { ERROR_MESSAGES, MSG, NAME_TAKEN } from '@tongdai/contracts';
import { startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';

describe('organisation (tenant surface)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    ({ admin, staff, abcAdmin } = await demoHeaders(t.app));
  });
  afterAll(() => t.close());
  const get = (url: string, headers = admin) => t.app.inject({ url, headers });
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) => t.app.inject({ method, url, headers, payload });

  it('lists the seeded departments 10 per page with team and user counts, and searches', async () => {
    const res = await get('/t/demo/departments');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, per_page: 10, total: 2 });
    const sales = body.data.find((d: { name: string }) => d.name === 'Phòng Kinh doanh');
    expect(sales).toMatchObject({ code: 'KD', active: true, team_count: 2, user_count: 1, manager_name: 'Quản trị viên' });
    const found = (await get(`/t/demo/departments?search=${encodeURIComponent('chăm sóc')}`)).json();
    expect(found.data.map((d: { name: string }) => d.name)).toEqual(['Phòng Chăm sóc khách hàng']);
  });

  it('creates, reads, updates and deletes every entity', async () => {
    const cases: [string, object, object][] = [
      ['departments', { name: 'Phòng Kỹ thuật', code: 'KT' }, { description: 'Hỗ trợ kỹ thuật tổng đài', active: false }],
      ['branches', { name: 'Chi nhánh Đà Nẵng', phone: '02363123456', address: '56 Bạch Đằng' }, { code: 'DN' }],
      ['projects', { name: 'Dự án thử nghiệm' }, { active: false }],
      ['data-sources', { name: 'Zalo OA' }, { description: 'Tin nhắn Zalo' }],
      ['profile-statuses', { name: 'Không nghe máy', color: '#C50F1F' }, { color: '#107C10' }],
      ['groups', { name: 'Trực cuối tuần', member_ids: [] }, { description: 'Thứ Bảy, Chủ Nhật' }],
    ];
    for (const [path, input, change] of cases) {
      const created = await send('POST', `/t/demo/${path}`, input);
      expect([path, created.statusCode]).toEqual([path, 201]);
      const row = created.json().data;
      expect(row).toMatchObject({ ...input, id: expect.any(Number) });
      expect((await get(`/t/demo/${path}/${row.id}`)).json().data).toEqual(row);
      const updated = await send('PUT', `/t/demo/${path}/${row.id}`, { ...input, ...change });
      expect([path, updated.statusCode]).toEqual([path, 200]);
      expect(updated.json().data).toMatchObject({ ...input, ...change, id: row.id });
      expect((await send('DELETE', `/t/demo/${path}/${row.id}`)).statusCode).toBe(204);
      expect((await get(`/t/demo/${path}/${row.id}`)).statusCode).toBe(404);
    }
  });

  it('keeps a team in a department of the same tenant, filters teams by department', async () => {
    const dept = (await send('POST', '/t/demo/departments', { name: 'Phòng Marketing' })).json().data;
    const team = await send('POST', '/t/demo/teams', { name: 'Nhóm Nội dung', department_id: String(dept.id) });
    expect(team.statusCode).toBe(201);
    expect(team.json().data).toMatchObject({ department_id: dept.id, department_name: 'Phòng Marketing', leader_id: null });
    const byDept = (await get(`/t/demo/teams?department_id=${dept.id}`)).json();
    expect(byDept.data.map((x: { name: string }) => x.name)).toEqual(['Nhóm Nội dung']);
    const abcDept = (await get('/t/abc/departments', abcAdmin)).json().data[0];
    const foreign = await send('POST', '/t/demo/teams', { name: 'Nhóm lạ', department_id: abcDept.id });
    expect([foreign.statusCode, foreign.json().details]).toEqual([400, [{ field: 'department_id', message: 'Phòng ban không tồn tại' }]]);
    const missing = await send('POST', '/t/demo/teams', { name: 'Nhóm thiếu' });
    expect(missing.json().details).toEqual([{ field: 'department_id', message: MSG.required }]);
  });

  it('refuses to delete a department that still has teams or users, with the reason', async () => {
    const dept = (await send('POST', '/t/demo/departments', { name: 'Phòng Tạm' })).json().data;
    const team = (await send('POST', '/t/demo/teams', { name: 'Nhóm Tạm', department_id: dept.id })).json().data;
    const refused = await send('DELETE', `/t/demo/departments/${dept.id}`);
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      { status: 409, code: 'CONFLICT', message: 'Không thể xoá phòng ban còn 1 nhóm. Hãy chuyển các nhóm sang phòng ban khác trước.' },
    ]);
    const seeded = (await get('/t/demo/all-department')).json().data.find((d: { name: string }) => d.name === 'Phòng Kinh doanh');
    expect((await send('DELETE', `/t/demo/departments/${seeded.id}`)).json().message).toBe(
      'Không thể xoá phòng ban còn 2 nhóm và 1 người dùng. Hãy chuyển các nhóm và người dùng sang phòng ban khác trước.',
    );
    expect((await send('DELETE', `/t/demo/teams/${team.id}`)).statusCode).toBe(204);
    expect((await send('DELETE', `/t/demo/departments/${dept.id}`)).statusCode).toBe(204);
  });

  it('answers 409 "Tên đã tồn tại" on a duplicate name, whatever the case', async () => {
    const dup = await send('POST', '/t/demo/departments', { name: 'phòng kinh doanh' });
    expect([dup.statusCode, dup.json()]).toEqual([409, { status: 409, code: 'CONFLICT', message: NAME_TAKEN, details: [{ field: 'name', message: NAME_TAKEN }] }]);
    const project = (await get('/t/demo/projects')).json().data[0];
    const other = (await get('/t/demo/projects')).json().data[1];
    expect((await send('PUT', `/t/demo/projects/${other.id}`, { name: project.name })).statusCode).toBe(409);
    expect((await send('PUT', `/t/demo/projects/${project.id}`, { name: project.name, description: 'giữ tên' })).statusCode).toBe(200);
    // Names are unique per tenant: abc has its own seeded copy; a new name is free in each tenant.
    expect((await send('POST', '/t/abc/projects', { name: project.name }, abcAdmin)).statusCode).toBe(409);
    expect((await send('POST', '/t/abc/projects', { name: 'Dự án riêng ABC' }, abcAdmin)).statusCode).toBe(201);
    expect((await send('POST', '/t/demo/projects', { name: 'Dự án riêng ABC' })).statusCode).toBe(201);
  });

  it('validates with Vietnamese messages per field', async () => {
    const res = await send('POST', '/t/demo/branches', { name: ' ', phone: '12ab' });
    expect(res.json()).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: ERROR_MESSAGES.VALIDATION_FAILED,
      details: [
        { field: 'name', message: MSG.required },
        { field: 'phone', message: MSG.phoneFormat },
      ],
    });
    const color = await send('POST', '/t/demo/profile-statuses', { name: 'Xanh', color: 'blue' });
    expect(color.json().details).toEqual([{ field: 'color', message: 'Màu phải có dạng #RRGGBB' }]);
    const members = await send('POST', '/t/demo/groups', { name: 'Nhóm ma', member_ids: [999999] });
    expect(members.json().details).toEqual([{ field: 'member_ids', message: 'Có thành viên không tồn tại' }]);
  });

  it('keeps group members', async () => {
    const users = (await get('/t/demo/get-data-filter')).json().data.users as { id: number; name: string }[];
    const created = (await send('POST', '/t/demo/groups', { name: 'Nhóm kiểm thử', member_ids: [users[0].id] })).json().data;
    expect(created.members).toEqual([{ id: users[0].id, full_name: users[0].name }]);
    const updated = (await send('PUT', `/t/demo/groups/${created.id}`, { name: 'Nhóm kiểm thử', member_ids: users.map((u) => u.id) })).json().data;
    expect(updated.member_ids.sort()).toEqual(users.map((u) => u.id).sort());
  });

  it('refuses the restricted role with 403, but lets it read the dropdown lists', async () => {
    for (const path of ['departments', 'teams', 'branches', 'projects', 'data-sources', 'profile-statuses', 'groups']) {
      const res = await get(`/t/demo/${path}`, staff);
      expect([path, res.statusCode, res.json().code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect((await send('POST', '/t/demo/projects', { name: 'Không được' }, staff)).statusCode).toBe(403);
    const depts = await get('/t/demo/all-department', staff);
    expect(depts.statusCode).toBe(200);
    expect(depts.json().data.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['Phòng Chăm sóc khách hàng', 'Phòng Kinh doanh']));
    const teams = (await get('/t/demo/all-team', staff)).json().data;
    expect(teams.length).toBeGreaterThanOrEqual(4);
    const sales = depts.json().data.find((d: { name: string }) => d.name === 'Phòng Kinh doanh');
    expect((await get(`/t/demo/all-team?department_id=${sales.id}`, staff)).json().data.map((x: { name: string }) => x.name)).toEqual(['Nhóm Kinh doanh 1', 'Nhóm Kinh doanh 2']);
    const filter = await get('/t/demo/get-data-filter', staff);
    expect(filter.statusCode).toBe(200);
    const f = filter.json().data;
    expect(Object.keys(f)).toEqual(expect.arrayContaining(['projects', 'data_sources', 'profile_statuses', 'departments', 'teams', 'branches']));
    expect(f.branches.map((b: { name: string }) => b.name).sort()).toEqual(['Chi nhánh Hà Nội', 'Chi nhánh TP.HCM']);
    expect(f.profile_statuses).toHaveLength(4);
    expect(f.data_sources).toHaveLength(3);
    expect(f.projects[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
  });

  it('keeps every organisation table under row-level security', async () => {
    for (const table of ['departments', 'teams', 'branches', 'projects', 'data_sources', 'profile_statuses', 'user_groups', 'user_group_members']) {
      const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect([table, rows[0].n]).toEqual([table, 0]);
    }
  });

  it("hides another tenant's rows (404)", async () => {
    const demoDept = (await get('/t/demo/departments')).json().data[0];
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/t/abc/departments/${demoDept.id}`, headers: abcAdmin, payload: method === 'PUT' ? { name: 'Chiếm' } : undefined });
      expect([method, res.statusCode, res.json()]).toEqual([method, 404, { status: 404, code: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }]);
    }
    expect((await get(`/t/demo/departments/${demoDept.id}`, abcAdmin)).statusCode).toBe(401);
    const abcNames = (await get('/t/abc/all-department', abcAdmin)).json().data.map((d: { id: number }) => d.id);
    expect(abcNames).not.toContain(demoDept.id);
  });

  it('filters customers by project, data source and profile status; saves labels on a customer', async () => {
    const f = (await get('/t/demo/get-data-filter')).json().data;
    const project = f.projects.find((p: { name: string }) => p.name === 'Tổng đài ảo 2026');
    const byProject = (await get(`/t/demo/customers?is_project=${project.id}&per_page=100`)).json();
    expect(byProject.meta.total).toBe(12);
    expect(byProject.data.every((c: { is_project: number }) => c.is_project === project.id)).toBe(true);
    const both = (await get(`/t/demo/customers?is_project=${project.id}&is_status=${f.profile_statuses[0].id}`)).json();
    expect(both.meta.total).toBeLessThan(12);
    expect((await get('/t/demo/customers?is_project=abc')).statusCode).toBe(400);
    const created = await send('POST', '/t/demo/customers', { name: 'Khách có nhãn', phone: '0912000111', status: 'new', is_project: String(project.id), is_datasource: '', is_status: f.profile_statuses[1].id });
    expect(created.json().data).toMatchObject({ is_project: project.id, is_datasource: null, is_status: f.profile_statuses[1].id });
    // A PUT without labels keeps them.
    const kept = await send('PUT', `/t/demo/customers/${created.json().data.id}`, { name: 'Khách có nhãn', phone: '0912000111', status: 'contacting' });
    expect(kept.json().data).toMatchObject({ is_project: project.id, is_status: f.profile_statuses[1].id });
    const abcProject = (await get('/t/abc/projects', abcAdmin)).json().data[0];
    const foreign = await send('POST', '/t/demo/customers', { name: 'Khách lạ', phone: '0912000222', status: 'new', is_project: abcProject.id });
    expect([foreign.statusCode, foreign.json().details]).toEqual([400, [{ field: 'is_project', message: 'Dự án không tồn tại' }]]);
    // Deleting a project leaves its customers unlabelled.
    const temp = (await send('POST', '/t/demo/projects', { name: 'Dự án xoá' })).json().data;
    await send('PUT', `/t/demo/customers/${created.json().data.id}`, { name: 'Khách có nhãn', phone: '0912000111', status: 'new', is_project: temp.id });
    expect((await send('DELETE', `/t/demo/projects/${temp.id}`)).statusCode).toBe(204);
    expect((await get(`/t/demo/customers/${created.json().data.id}`)).json().data.is_project).toBeNull();
  });
});
