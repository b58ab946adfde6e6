import type { Queryable } from './db';

/** Vietnamese sample organisation for a demo tenant: what a small call centre would set up first. */

const DEPARTMENTS = [
  { name: 'Phòng Kinh doanh', code: 'KD', description: 'Tư vấn và bán gói tổng đài cho khách hàng mới', teams: ['Nhóm Kinh doanh 1', 'Nhóm Kinh doanh 2'] },
  { name: 'Phòng Chăm sóc khách hàng', code: 'CSKH', description: 'Tiếp nhận cuộc gọi đến và hỗ trợ sau bán hàng', teams: ['Nhóm Tổng đài viên', 'Nhóm Xử lý khiếu nại'] },
];
const BRANCHES = [
  { name: 'Chi nhánh Hà Nội', code: 'HN', address: '88 Cầu Giấy, Cầu Giấy, Hà Nội', phone: '02438123456' },
  { name: 'Chi nhánh TP.HCM', code: 'HCM', address: '120 Lê Lợi, Quận 1, TP.HCM', phone: '02838123456' },
];
const PROJECTS = ['Tổng đài ảo 2026', 'Chăm sóc khách hàng VIP', 'Telesale gói Internet'];
const DATA_SOURCES = ['Website', 'Facebook Ads', 'Hội chợ triển lãm'];
const PROFILE_STATUSES = [
  { name: 'Chưa liên hệ', color: '#8A8886' },
  { name: 'Đã liên hệ', color: '#0F6CBD' },
  { name: 'Hẹn gọi lại', color: '#F7630C' },
  { name: 'Chốt đơn', color: '#107C10' },
];
const GROUPS = [
  { name: 'Trực ca sáng', description: 'Nhận cuộc gọi 7:00 – 13:00' },
  { name: 'Trực ca chiều', description: 'Nhận cuộc gọi 13:00 – 21:00' },
];

async function ids(tx: Queryable, sql: string, params: unknown[]): Promise<number[]> {
  return (await tx.query<{ id: number }>(sql, params)).rows.map((r) => r.id);
}

/** Runs as app_system inside seed(); tags every customer of the tenant with deterministic labels. */
export async function seedOrg(tx: Queryable, tid: number): Promise<void> {
  const userIds = await ids(tx, 'select id from users where tenant_id = $1 order by id', [tid]);
  for (const [i, d] of DEPARTMENTS.entries()) {
    const [deptId] = await ids(tx, 'insert into departments (tenant_id, name, code, description, manager_id) values ($1, $2, $3, $4, $5) returning id', [
      tid, d.name, d.code, d.description, userIds[0] ?? null,
    ]);
    // No team leader: the staff member is the demo's plain agent, who sees only their own calls (ADR 0031).
    for (const team of d.teams) {
      await tx.query('insert into teams (tenant_id, department_id, name) values ($1, $2, $3)', [tid, deptId, team]);
    }
    // The admin sits in sales, the staff member in customer care.
    if (userIds[i]) await tx.query('update users set department_id = $1 where id = $2', [deptId, userIds[i]]);
  }
  for (const b of BRANCHES) {
    await tx.query('insert into branches (tenant_id, name, code, address, phone) values ($1, $2, $3, $4, $5)', [tid, b.name, b.code, b.address, b.phone]);
  }
  const projects = [];
  for (const p of PROJECTS) projects.push(...(await ids(tx, 'insert into projects (tenant_id, name) values ($1, $2) returning id', [tid, p])));
  const sources = [];
  for (const s of DATA_SOURCES) sources.push(...(await ids(tx, 'insert into data_sources (tenant_id, name) values ($1, $2) returning id', [tid, s])));
  const statuses = [];
  for (const s of PROFILE_STATUSES) {
    statuses.push(...(await ids(tx, 'insert into profile_statuses (tenant_id, name, color) values ($1, $2, $3) returning id', [tid, s.name, s.color])));
  }
  for (const g of GROUPS) {
    const [gid] = await ids(tx, 'insert into user_groups (tenant_id, name, description) values ($1, $2, $3) returning id', [tid, g.name, g.description]);
    await tx.query('insert into user_group_members (tenant_id, group_id, user_id) select $1, $2, unnest($3::int[])', [tid, gid, userIds]);
  }
  // Every customer gets a project (round robin), every second one a source, every third a profile status.
  const customers = await ids(tx, 'select id from customers where tenant_id = $1 order by id', [tid]);
  for (const [i, id] of customers.entries()) {
    await tx.query('update customers set is_project = $2, is_datasource = $3, is_status = $4 where id = $1', [
      id,
      projects[i % projects.length],
      i % 2 === 0 ? sources[(i / 2) % sources.length] : null,
      i % 3 === 0 ? statuses[(i / 3) % statuses.length] : null,
    ]);
  }
}
