import { MONITOR_API, vnDay, type ActivityDayRow, type Kpi, type MonitorEvent, type MonitorSnapshot, type Paged } from '@tongdai/contracts';
import { startTestApp, type TestApp } from '../../../test/helpers';
import type { Audience } from '../realtime/call-event-hub';
import { REPORT_DAY, seedReportCalls, vnAt, type ReportFixture } from './reports.fixture';

/**
 * One scope rule for every surface (ADR 0034): the monitor (monitor.view), user activity
 * (activity.view) and KPIs (kpi.view) answer "whose calls and people" with the reports'
 * viewerScope. The fixture's people: admin (101, every permission, in the sales team led by
 * `leader`), staff (102, in customer care managed by `manager`), `noExt` (no extension, no place).
 */
let t: TestApp;
let h: ReportFixture['h'];
let ids: ReportFixture['ids'];
type Who = keyof ReportFixture['h'];
type Socket = Awaited<ReturnType<TestApp['app']['injectWS']>>;
const sys = <T>(sql: string, params: unknown[] = []) => t.db.withSystem((tx) => tx.query<T>(sql, params)).then((r) => r.rows);
const get = (url: string, who: Who) => t.app.inject({ method: 'GET', url: `/t/${who === 'abcAdmin' ? 'abc' : 'demo'}/${url}`, headers: h[who] });

beforeAll(async () => {
  t = await startTestApp();
  ({ h, ids } = await seedReportCalls(t));
  // Everyone may export (report.export), so the export shows the scope, not a 403.
  const [role] = await sys<{ id: number }>(`insert into roles (tenant_id, name) values ($1, 'Xuất báo cáo') returning id`, [ids.demo]);
  await sys(`insert into role_permissions (tenant_id, role_id, permission_id) select $1, $2, id from permissions where name = 'report.export'`, [ids.demo, role.id]);
  await sys('insert into user_roles (tenant_id, user_id, role_id) select $1, unnest($2::int[]), $3', [ids.demo, [ids.staffId, ids.managerId, ids.leaderId, ids.noExtId], role.id]);
});
afterAll(async () => {
  await t?.close();
});

describe('the monitor: snapshot and socket events', () => {
  const snapshot = async (who: Who): Promise<MonitorSnapshot> => {
    const res = await get(MONITOR_API.snapshot, who);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('a manager watches their department, a leader their team, an agent their extension, an agent without one nothing', async () => {
    const wall = async (who: Who) => {
      const s = await snapshot(who);
      return { scope: s.scope, agents: s.agents.map((a) => a.extension), queues: s.queues.map((q) => q.queue_id) };
    };
    const all = await wall('admin');
    expect(all.scope).toBe('tenant');
    expect(all.agents).toEqual(expect.arrayContaining(['101', '102']));
    expect(await wall('manager')).toEqual({ scope: 'department', agents: ['102'], queues: [ids.queue] });
    expect(await wall('leader')).toEqual({ scope: 'team', agents: ['101'], queues: [] });
    expect(await wall('staff')).toEqual({ scope: 'own', agents: ['102'], queues: [ids.queue] });
    expect(await wall('noExt')).toEqual({ scope: 'own', agents: [], queues: [] });
    expect((await snapshot('abcAdmin')).queues.map((q) => q.queue_id)).not.toContain(ids.queue);
  });

  it("each socket hears the events of its viewer's scope, and only its tenant's", async () => {
    const who: Who[] = ['admin', 'manager', 'leader', 'staff', 'noExt', 'abcAdmin'];
    const sockets: Socket[] = await Promise.all(who.map((w) =>
      t.app.injectWS(`/t/${w === 'abcAdmin' ? 'abc' : 'demo'}/events`, { headers: { 'sec-websocket-protocol': `tongdai.v1, ${h[w].authorization.slice(7)}` } })));
    const heard = sockets.map((ws) => {
      const got: string[] = [];
      ws.on('message', (m: Buffer) => {
        const e = JSON.parse(m.toString()) as MonitorEvent;
        got.push(e.type === 'registration' ? e.extension : e.type === 'queued' ? `queued:${e.callId}` : e.type);
      });
      return got;
    });
    try {
      const base = { kind: 'tongdai.monitor', version: 1, at: Date.now() } as const;
      const send = (event: MonitorEvent, audience: Audience) => t.app.deps.hub.publish(ids.demo, event, audience);
      send({ ...base, type: 'registration', extension: '101', registered: true }, { extensions: ['101'] });
      send({ ...base, type: 'registration', extension: '102', registered: true }, { extensions: ['102'] });
      // A caller waiting in the queue of 102: its manager sees it, the agent does not until it rings.
      send({ ...base, type: 'queued', callId: 'scope-q1', queueId: ids.queue, caller: '0909000001' }, { extensions: [], queueAgents: ['102'] });
      const until = async (check: () => boolean) => {
        for (const end = Date.now() + 3000; !check(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error('not heard in time');
      };
      await until(() => heard[0].length === 3 && heard[1].length === 2 && heard[2].length === 1 && heard[3].length === 1);
      expect(heard.slice(0, 5)).toEqual([['101', '102', 'queued:scope-q1'], ['102', 'queued:scope-q1'], ['101'], ['102'], []]);
      expect(heard[5]).toEqual([]);
    } finally {
      sockets.forEach((ws) => ws.terminate());
    }
  });
});

describe('user activity: list, options, timeline, export', () => {
  const people = (): Record<Who, number> => ({ admin: ids.adminId, staff: ids.staffId, manager: ids.managerId, leader: ids.leaderId, noExt: ids.noExtId, abcAdmin: 0 });
  beforeAll(async () => {
    let n = 0;
    for (const userId of Object.values(people()).filter(Boolean)) {
      const session = `00000000-0000-4000-8000-0000000034${String(++n).padStart(2, '0')}`;
      await t.db.withTenant(ids.demo, (tx) => tx.query(
        `insert into user_activity_events (tenant_id, user_id, kind, at, status, session_id) values ($1, $2, 'login', $3, 1, $5), ($1, $2, 'logout', $4, null, $5)`,
        [ids.demo, userId, vnAt(`${REPORT_DAY}T08:00:00`), vnAt(`${REPORT_DAY}T17:00:00`), session],
      ));
    }
  });
  const range = `from=${REPORT_DAY}&to=${REPORT_DAY}&per_page=100`;
  const listed = async (who: Who, query = range) => {
    const res = await get(`activity/users?${query}`, who);
    expect(res.statusCode).toBe(200);
    return (res.json() as Paged<ActivityDayRow>).data;
  };
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const expected = (): Record<Who, number[]> => {
    const p = people();
    return {
      admin: [p.admin, p.staff, p.manager, p.leader, p.noExt], manager: [p.staff, p.manager], leader: [p.admin, p.leader],
      staff: [p.staff], noExt: [p.noExt], abcAdmin: [],
    };
  };

  it('the list and the user filter show each viewer the people of their scope', async () => {
    for (const [who, users] of Object.entries(expected()) as [Who, number[]][]) {
      if (who === 'abcAdmin') continue;
      expect([who, sorted((await listed(who)).map((r) => r.user_id))]).toEqual([who, sorted(users)]);
      const options = (await get('activity/options', who)).json().data.users.map((u: { id: number }) => u.id);
      if (who !== 'admin') expect([who, sorted(options)]).toEqual([who, sorted(users)]);
    }
    // abc's own people only (its 101 answered a call that day).
    const abcRows = (await listed('abcAdmin')).map((r) => r.user_id);
    expect(abcRows.length).toBeGreaterThan(0);
    expect(abcRows.filter((id) => Object.values(people()).includes(id))).toEqual([]);
    expect((await listed('manager', `${range}&user_id=${ids.staffId}`)).map((r) => r.user_id)).toEqual([ids.staffId]);
    expect((await get(`activity/users?${range}&user_id=${ids.adminId}`, 'manager')).statusCode).toBe(400);
    expect((await get(`activity/users?${range}&user_id=${ids.adminId}`, 'abcAdmin')).statusCode).toBe(400);
  });

  it("the timeline opens for someone in scope and is forbidden for anyone else", async () => {
    const status = async (who: Who, userId: number) => (await get(`activity/timeline?user_id=${userId}&day=${REPORT_DAY}`, who)).statusCode;
    const p = people();
    const cases: [Who, number, number][] = [
      ['admin', p.noExt, 200], ['manager', p.staff, 200], ['manager', p.admin, 403], ['leader', p.admin, 200], ['leader', p.staff, 403],
      ['staff', p.staff, 200], ['staff', p.manager, 403], ['noExt', p.noExt, 200], ['noExt', p.staff, 403], ['abcAdmin', p.staff, 400],
    ];
    expect(await Promise.all(cases.map(async ([who, id]) => [who, id, await status(who, id)]))).toEqual(cases);
  });

  it('the export holds the same people as the list', async () => {
    for (const who of ['admin', 'manager', 'leader', 'staff', 'noExt'] as Who[]) {
      const res = await get(`activity/users/export.csv?from=${REPORT_DAY}&to=${REPORT_DAY}`, who);
      expect(res.statusCode).toBe(200);
      const names = res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => l.split(',')[1]);
      expect([who, names]).toEqual([who, (await listed(who)).map((r) => r.full_name)]);
    }
  });
});

describe('KPIs', () => {
  it('besides their own, a manager sees the KPIs of their department, its teams and people; a leader those of their team and its people', async () => {
    const made: Record<number, string> = {};
    const assignees = {
      staff: { type: 'user', id: ids.staffId }, admin: { type: 'user', id: ids.adminId }, noExt: { type: 'user', id: ids.noExtId },
      careTeam: { type: 'team', id: ids.team }, salesTeam: { type: 'team', id: ids.salesTeam },
      care: { type: 'department', id: ids.care }, sales: { type: 'department', id: ids.sales },
    };
    for (const [name, assignee] of Object.entries(assignees)) {
      const res = await t.app.inject({
        method: 'POST', url: '/t/demo/kpis', headers: h.admin,
        payload: { name: `KPI ${name}`, measure: 'calls_made', target: 10, period: 'day', start_date: vnDay(new Date()), assignee },
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      made[res.json().data.id] = name;
    }
    const seen = async (who: Who) => {
      const res = await get('kpis?per_page=100', who);
      expect(res.statusCode).toBe(200);
      return (res.json() as Paged<Kpi>).data.map((k) => made[k.id]).filter(Boolean).sort();
    };
    expect(await seen('admin')).toEqual(Object.keys(assignees).sort());
    expect(await seen('manager')).toEqual(['care', 'careTeam', 'staff']);
    expect(await seen('leader')).toEqual(['admin', 'salesTeam']);
    expect(await seen('staff')).toEqual(['care', 'careTeam', 'staff']);
    expect(await seen('noExt')).toEqual(['noExt']);
    expect(await seen('abcAdmin')).toEqual([]);
    const byDept = (await get('kpis/by-department', 'manager')).json().data.map((d: { department_id: number }) => d.department_id);
    expect(byDept).toEqual([ids.care]);
  });
});
