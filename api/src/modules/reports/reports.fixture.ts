import type { RouteNode } from '../routing';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { bearer, demoHeaders, DEMO, login, type TestApp } from '../../../test/helpers';

/**
 * The calls and the organisation every reports test reads (call history, summaries, carrier view):
 * written once here, through the real CDR writer (so the rollups fill as calls end).
 *
 * Demo (DAY, Vietnam time): c1 inbound from a customer through IVR and queue, answered by 102;
 * c2 internal 101→102 not answered; c3 outbound from 101 busy; c4 inbound blocked; c5 inbound
 * answered by 101 at 23:59; c6 the same at 00:01 the next day. abc: a1 answered by 101, a2 internal busy.
 * People: the admin (101, report.view) in sales; the staff member (102) in customer care and its
 * first team; `manager` manages customer care, `leader` leads a sales team the admin is placed in,
 * `noExt` is a plain agent without an extension; none of those three holds report.view.
 */
export const REPORT_DAY = '2026-03-10';
export const vnAt = (local: string) => new Date(`${local}+07:00`);

/** A call record: an answered inbound call by default; `ring`/`talk` in seconds. */
export function reportCdr(tenantId: number, callId: string, o: Partial<CdrRow> & { started: string; talk?: number; ring?: number }): CdrRow {
  const started = vnAt(o.started);
  const answered = o.disposition === undefined || o.disposition === 'ANSWERED' ? new Date(started.getTime() + (o.ring ?? 5) * 1000) : null;
  const ended = new Date((answered ?? started).getTime() + (answered ? (o.talk ?? 30) : (o.ring ?? 20)) * 1000);
  return {
    tenant_id: tenantId, call_id: callId, caller: '0901000001', callee: '02873000001', did: null, direction: 'inbound', route: [],
    ring_group_id: null, queue_id: null, extension: null, trunk: null, started_at: started, answered_at: answered, ended_at: ended,
    duration: Math.round((ended.getTime() - started.getTime()) / 1000), billsec: answered ? Math.round((ended.getTime() - answered.getTime()) / 1000) : 0,
    disposition: 'ANSWERED', sip_code: answered ? 200 : 487, reason: '', ...o,
  };
}

export interface ReportFixture {
  ids: {
    demo: number; abc: number; queue: number; care: number; sales: number; team: number; salesTeam: number;
    staffId: number; adminId: number; managerId: number; leaderId: number; noExtId: number;
  };
  customer: { id: number; name: string; phone: string };
  h: Record<'admin' | 'staff' | 'abcAdmin' | 'manager' | 'leader' | 'noExt', Record<string, string>>;
}

export async function seedReportCalls(t: TestApp): Promise<ReportFixture> {
  const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
  const tenants = Object.fromEntries((await sys<{ id: number; ma_dn: string }>('select id, ma_dn from tenants')).map((r) => [r.ma_dn, r.id]));
  const [demo, abc] = [tenants[DEMO.tenants.demo], tenants[DEMO.tenants.abc]];
  const user = (username: string) => sys<{ id: number; department_id: number; password_hash: string }>(
    'select id, department_id, password_hash from users where tenant_id = $1 and username = $2', [demo, username]).then((r) => r[0]);
  const [staff, admin] = [await user(DEMO.staff.username), await user(DEMO.admin.username)];
  const firstTeam = (dept: number) => sys<{ id: number }>('select id from teams where tenant_id = $1 and department_id = $2 order by id limit 1', [demo, dept]).then((r) => r[0].id);
  const [team, salesTeam] = [await firstTeam(staff.department_id), await firstTeam(admin.department_id)];
  const [queue] = await sys<{ id: number }>(`insert into pbx_queues (tenant_id, name, agents) values ($1, 'Hàng đợi CSKH', '{102}') returning id`, [demo]);
  const [customer] = await sys<{ id: number; name: string; phone: string }>('select id, name, phone from customers where tenant_id = $1 order by id limit 1', [demo]);
  await sys('update users set team_id = $1 where id = $2', [team, staff.id]);
  await sys('update users set team_id = $1 where id = $2', [salesTeam, admin.id]);

  // Three accounts without report.view (the staff role), with the staff member's password.
  const person = async (username: string, fullName: string) => {
    const [u] = await sys<{ id: number }>(
      `insert into users (tenant_id, username, password_hash, full_name, email) values ($1, $2, $3, $4, $5) returning id`,
      [demo, username, staff.password_hash, fullName, `${username}@demo.example.vn`],
    );
    await sys('insert into user_roles (tenant_id, user_id, role_id) select tenant_id, $1, role_id from user_roles where user_id = $2', [u.id, staff.id]);
    return u.id;
  };
  const manager = await person('truongphong', 'Trưởng phòng CSKH');
  const leader = await person('truongnhom', 'Trưởng nhóm Kinh doanh');
  const noExt = await person('khongmay', 'Nhân viên chưa có máy');
  await sys('update departments set manager_id = $1 where id = $2', [manager, staff.department_id]);
  await sys('update teams set leader_id = $1 where id = $2', [leader, salesTeam]);

  const route: RouteNode[] = [
    { type: 'inbound', id: '1', name: 'Tuyến chính' },
    { type: 'ivr', id: '3', name: 'IVR chào mừng' },
    { type: 'queue', id: String(queue.id), name: 'Hàng đợi CSKH' },
  ];
  const D = REPORT_DAY;
  const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
  writer.add(reportCdr(demo, 'c1', { started: `${D}T09:00:00`, caller: customer.phone, did: '02873000001', route, queue_id: queue.id, extension: '102', ring: 15, talk: 95 }));
  writer.add(reportCdr(demo, 'c2', { started: `${D}T10:00:00`, direction: 'internal', caller: '101', callee: '102', disposition: 'NO ANSWER', sip_code: 487 }));
  writer.add(reportCdr(demo, 'c3', { started: `${D}T11:00:00`, direction: 'outbound', caller: '101', callee: '0987000111', disposition: 'BUSY', sip_code: 486 }));
  writer.add(reportCdr(demo, 'c4', { started: `${D}T12:00:00`, caller: '0999888777', disposition: 'BLOCKED', sip_code: 603, reason: 'Số gọi đến nằm trong danh sách chặn', ring: 0 }));
  // Either side of midnight, Vietnam time (16:59 and 17:01 UTC).
  writer.add(reportCdr(demo, 'c5', { started: `${D}T23:59:00`, caller: '0902000005', extension: '101', talk: 40 }));
  writer.add(reportCdr(demo, 'c6', { started: '2026-03-11T00:01:00', caller: '0902000006', extension: '101' }));
  writer.add(reportCdr(abc, 'a1', { started: `${D}T09:30:00`, caller: '0903000001', extension: '101' }));
  writer.add(reportCdr(abc, 'a2', { started: `${D}T09:31:00`, direction: 'internal', caller: '101', callee: '102', disposition: 'BUSY', sip_code: 486 }));
  await writer.flush();

  const pass = DEMO.staff.password;
  const [base, m, l, n] = await Promise.all([
    demoHeaders(t.app),
    login(t.app, 'demo', { username: 'truongphong', password: pass }),
    login(t.app, 'demo', { username: 'truongnhom', password: pass }),
    login(t.app, 'demo', { username: 'khongmay', password: pass }),
  ]);
  return {
    ids: {
      demo, abc, queue: queue.id, care: staff.department_id, sales: admin.department_id, team, salesTeam,
      staffId: staff.id, adminId: admin.id, managerId: manager, leaderId: leader, noExtId: noExt,
    },
    customer,
    h: { ...base, manager: bearer(m), leader: bearer(l), noExt: bearer(n) },
  };
}
