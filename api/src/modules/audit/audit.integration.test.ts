import {
  AUDIT_EXPORT_HEADERS, AUDIT_KINDS, campaignApi, campaignWorkApi, type AuditEntry, type AuditQuery, type Paged,
} from '@tongdai/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { runInActorScope } from '../../db/actor';
import type { Db } from '../../db/db';
import { buildServer } from '../../server';
import { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { DEMO, NO_DNS, TEST_JWT_SECRET, bearer, login, startTestApp } from '../../../test/helpers';
import { openPgliteFromImage } from '../../../test/pglite-image';

/**
 * The audit log of administrative changes (issue 42, ADR 0057) on both engines the API runs on: the
 * database's triggers write one line per object and transaction a logged-in user changes, with who,
 * from where, before and after (secrets hidden); nothing for a refused change, for system work, for an
 * agent's work on a campaign; per tenant, append-only; listed with filters and exported by audit.view
 * and audit.export holders only.
 */
const ENGINES: Record<'postgres' | 'pglite', () => Promise<{ app: FastifyInstance; db: Db; close(): Promise<void> }>> = {
  postgres: async () => {
    const t = await startTestApp();
    return { app: t.app, db: t.db, close: () => t.close() };
  },
  pglite: async () => {
    const db = await openPgliteFromImage('seeded');
    const app = await buildServer({ db, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS), otpWebhookMs: null, recordingSweepMs: null });
    return { app, db, close: async () => (await app.close(), await db.close()) };
  },
};

const ADMIN_IP = '203.0.113.7';
const ADMIN_UA = 'Mozilla/5.0 (X11; Linux x86_64) Chromium/131 kiểm thử';
const SURVEY = campaignApi('survey');
const WORK = campaignWorkApi('survey');

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('the audit log on %s', (engine) => {
  let app: FastifyInstance;
  let db: Db;
  let close: () => Promise<void>;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let abcAdmin: Record<string, string>;
  let demo: number;
  let adminId: number;

  beforeAll(async () => {
    ({ app, db, close } = await ENGINES[engine]());
    [admin, staff, abcAdmin] = (await Promise.all([login(app, 'demo', DEMO.admin), login(app, 'demo', DEMO.staff), login(app, 'abc', DEMO.admin)])).map(bearer);
    demo = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    adminId = await db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id);
  }, 240_000); // the run's seeded PGlite image (test/pglite-image.ts): made by the first suite that asks (migrations and seed, 72 s in a loaded CI run), then a start from it
  afterAll(() => close());

  /** A request as the demo admin's browser makes it (its address and user agent), unless told otherwise. */
  const send = (method: InjectOptions['method'], url: string, payload?: object, headers = admin) =>
    app.inject({ method, url: url.startsWith('/') ? url : `/t/demo/${url}`, headers: { 'user-agent': ADMIN_UA, ...headers }, remoteAddress: ADMIN_IP, ...(payload && { payload }) });
  const log = async (query: Partial<Record<keyof AuditQuery, string | number>> = {}, headers = admin, maDn = 'demo') => {
    const res = await app.inject({ url: `/t/${maDn}/audit-log`, headers, query: Object.fromEntries(Object.entries({ per_page: 100, ...query }).map(([k, v]) => [k, String(v)])) });
    expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, expect.any(String)]);
    return res.json() as Paged<AuditEntry>;
  };
  /** The lines about one object, oldest first. */
  const linesOf = async (kind: string, id: number | string) => (await log({ kind, entity_id: String(id) })).data.reverse();
  const count = () => db.withSystem(async (tx) => (await tx.query<{ n: number }>('select count(*)::int as n from audit_log')).rows[0].n);

  it('a role: created, edited, saved unchanged, deleted — one line each with who, from where, before and after, its permissions folded in', async () => {
    const made = await send('POST', 'role', { name: 'giam-sat-ca', display_name: 'Giám sát ca', description: 'Ca sáng', permissions: ['customer.view', 'role.view'] });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id as number;
    const edited = await send('PUT', `role/${id}`, { name: 'giam-sat-ca', display_name: 'Giám sát ca tối', description: 'Ca sáng', permissions: ['customer.view', 'customer.edit', 'role.view'] });
    expect(edited.statusCode).toBe(200);
    // The same form saved again: its permissions deleted and inserted again, nothing changed, no line.
    expect((await send('PUT', `role/${id}`, { name: 'giam-sat-ca', display_name: 'Giám sát ca tối', description: 'Ca sáng', permissions: ['role.view', 'customer.edit', 'customer.view'] })).statusCode).toBe(200);
    expect((await send('DELETE', `role/${id}`)).statusCode).toBe(204);

    const lines = await linesOf('role', id);
    expect(lines.map((l) => [l.action, l.entity_name])).toEqual([['create', 'Giám sát ca'], ['update', 'Giám sát ca tối'], ['delete', 'Giám sát ca tối']]);
    for (const l of lines) {
      expect(l).toMatchObject({ actor_id: adminId, actor_username: 'admin', actor_name: 'Quản trị viên', ip: ADMIN_IP, user_agent: ADMIN_UA, kind: 'role', entity_id: String(id) });
      expect(Date.now() - Date.parse(l.at)).toBeLessThan(120_000);
    }
    expect(lines[0].before).toBeNull();
    expect(lines[0].after).toMatchObject({ name: 'giam-sat-ca', display_name: 'Giám sát ca', permissions: ['customer.view', 'role.view'] });
    expect(lines[1].changed).toEqual(['display_name', 'permissions']);
    expect([lines[1].before?.permissions, lines[1].after?.permissions]).toEqual([['customer.view', 'role.view'], ['customer.edit', 'customer.view', 'role.view']]);
    expect(lines[2]).toMatchObject({ after: null, before: { display_name: 'Giám sát ca tối' } });
  });

  it('an account: created and its password changed — the hash never in the log, only that it changed', async () => {
    const role = (await send('GET', 'roles?per_page=100')).json().data.find((r: { name: string }) => r.name !== 'super-admin').id as number;
    const made = await send('POST', 'accounts', { full_name: 'Trần Thị Nhật Ký', username: 'nhatky.tran', role_id: role, status: 'active', password: 'MatKhau@2026', password_confirmation: 'MatKhau@2026' });
    expect([made.statusCode, made.body.slice(0, 200)]).toEqual([201, expect.any(String)]);
    const id = made.json().data.id as number;
    expect((await send('PUT', `accounts/${id}/password`, { password: 'MatKhau@2027', password_confirmation: 'MatKhau@2027' })).statusCode).toBe(204);
    const [created, changed] = await linesOf('account', id);
    expect(created).toMatchObject({ action: 'create', entity_name: 'nhatky.tran', after: { username: 'nhatky.tran', full_name: 'Trần Thị Nhật Ký', password_hash: '***' } });
    expect((created.after?.roles as string[]).length).toBe(1);
    expect(changed).toMatchObject({ action: 'update', changed: ['password_hash'], before: { password_hash: '***' }, after: { password_hash: '***' } });
    expect(JSON.stringify([created, changed])).not.toMatch(/argon2|\$v=/);
  });

  it('an extension and a PBX object (an IVR with its keys): the SIP password hidden, the keys folded in', async () => {
    const ext = await send('POST', 'subscribers', { extension: '2901', display_name: 'Lễ tân nhật ký', voicemail_pin: '2468' });
    expect([ext.statusCode, ext.body.slice(0, 200)]).toEqual([201, expect.any(String)]);
    const extId = ext.json().data.id as number;
    expect((await send('POST', `subscribers/${extId}/reset-password`)).statusCode).toBe(200);
    const [made, reset] = await linesOf('extension', extId);
    expect(made).toMatchObject({ action: 'create', entity_name: '2901 – Lễ tân nhật ký', after: { extension: '2901', sip_password: '***', voicemail_pin: '***' } });
    expect(reset).toMatchObject({ action: 'update', changed: ['sip_password'] });

    const ivr = await send('POST', '/pbx/partner/ivr_detail', { name: 'Menu nhật ký', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }] });
    expect([ivr.statusCode, ivr.body.slice(0, 200)]).toEqual([201, expect.any(String)]);
    const ivrId = ivr.json().data.id as number;
    expect((await send('PUT', `/pbx/partner/ivr_detail/${ivrId}`, { name: 'Menu nhật ký', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }, { digit: '2', destination: { type: 'direct', target: '102' } }] })).statusCode).toBe(200);
    const [, edited] = await linesOf('ivr', ivrId);
    expect(edited.changed).toEqual(['entries']);
    expect(edited.after?.entries).toEqual([
      { digit: '1', destination_type: 'direct', destination_target: '101' },
      { digit: '2', destination_type: 'direct', destination_target: '102' },
    ]);
  });

  it("a switchboard: its password hidden; Kamailio's status written back and system work are not logged", async () => {
    const made = await send('POST', 'etelecom/switchboards', { name: 'Viettel nhật ký', host: '203.113.131.90', port: 5060, register: true, auth_user: 'tongdai01', auth_password: 'BiMat@123' });
    expect([made.statusCode, made.body.slice(0, 200)]).toEqual([201, expect.any(String)]);
    const id = made.json().data.id as number;
    expect((await send('PUT', `etelecom/switchboards/${id}`, { name: 'Viettel nhật ký', host: '203.113.131.91', port: 5060, register: true, auth_user: 'tongdai01', auth_password: 'BiMat@456' })).statusCode).toBe(200);
    const before = await count();
    // Kamailio's registration state (the internal listener: no user) and a sweep: not logged.
    await db.withSystem((tx) => tx.query("update telecom_switchboards set status = 'registered', status_at = now() where id = $1", [id]));
    await db.withTenant(demo, (tx) => tx.query("update telecom_switchboards set description = 'đổi bởi hệ thống' where id = $1", [id]));
    // The state columns are on the ignore list even when a user's transaction moves them alone.
    const actor = { user_id: adminId, tenant_id: demo, ip: ADMIN_IP, user_agent: ADMIN_UA, request_id: 'x' };
    await runInActorScope({ actor: () => actor }, () => db.withTenant(demo, (tx) => tx.query("update telecom_switchboards set status = 'failed', status_reason = '403' where id = $1", [id])));
    expect(await count()).toBe(before);
    // A user's write outside the tenant's RLS (withSystem: a platform operator's, later): logged in the tenant whose row it is.
    await runInActorScope({ actor: () => actor }, () => db.withSystem((tx) => tx.query("update telecom_switchboards set description = 'bởi nhà vận hành' where id = $1", [id])));
    expect(await count()).toBe(before + 1);

    const [created, edited, operated] = await linesOf('switchboard', id);
    expect(operated).toMatchObject({ action: 'update', changed: ['description'], actor_username: 'admin', after: { description: 'bởi nhà vận hành' } });
    expect(created.after).toMatchObject({ name: 'Viettel nhật ký', host: '203.113.131.90', auth_user: 'tongdai01', auth_password_sealed: '***' });
    expect(edited.changed).toEqual(['auth_password_sealed', 'host']);
    expect(JSON.stringify([created, edited])).not.toMatch(/BiMat|v1\./);
  });

  it('a setting and an API key: the system settings and recording settings, a key created (hash hidden) and revoked', async () => {
    const current = (await send('GET', 'get-system-setting')).json().data;
    expect((await send('PUT', 'update-system-setting', { ...current, hidden_phone_customer: current.hidden_phone_customer ? 0 : 1 })).statusCode).toBe(200);
    expect((await send('PUT', 'recording-settings', { recording_mode: 'inbound', retention_days: 90, monitor_calls: false })).statusCode).toBeLessThan(300);
    const settings = await linesOf('setting', demo);
    expect(settings.map((l) => l.changed)).toEqual([['hidden_phone_customer'], expect.arrayContaining(['recording_mode', 'recording_retention_days'])]);
    expect(settings[0]).toMatchObject({ action: 'update', entity_name: 'Cài đặt hệ thống', before: { hidden_phone_customer: current.hidden_phone_customer } });

    const key = await send('POST', 'voice-otp/keys', { name: 'Ứng dụng ngân hàng' });
    expect([key.statusCode, key.body.slice(0, 100)]).toEqual([201, expect.any(String)]);
    const { id, secret } = key.json().data as { id: number; secret: string };
    expect((await send('POST', `voice-otp/keys/${id}/revoke`)).statusCode).toBe(200);
    const [created, revoked] = await linesOf('otp_key', id);
    expect(created).toMatchObject({ action: 'create', after: { name: 'Ứng dụng ngân hàng', secret_hash: '***' } });
    expect(created.entity_name).toMatch(/^Ứng dụng ngân hàng \(tdo\..*…\)$/);
    expect(revoked.changed).toEqual(['revoked_at']);
    expect(JSON.stringify([created, revoked])).not.toContain(secret.slice(-20));
  });

  it("a campaign: created with its questions and agents, started; an agent's work on its contacts writes no line", async () => {
    const hotline = await db.withTenant(demo, async (tx) => (await tx.query<{ id: number }>("insert into pbx_numbers (tenant_id, number) values ($1, '842873009911') returning id", [demo])).rows[0].id);
    const category = (await send('POST', 'survey-categories', { name: 'Nhật ký khảo sát' })).json().data;
    const question = (await send('POST', 'survey-questions', { category_id: category.id, kind: 'text', text: 'Góp ý của anh/chị?' })).json().data;
    const made = await send('POST', SURVEY.base, { name: 'Khảo sát nhật ký', purpose: 'care', question_ids: [question.id], agent_ids: [adminId], hotline_id: hotline });
    expect([made.statusCode, made.body.slice(0, 200)]).toEqual([201, expect.any(String)]);
    const id = made.json().data.id as number;
    await db.withTenant(demo, (tx) => tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) values ($1, $2, '84912000111', 'Khách nhật ký', now() - interval '1 minute')", [demo, id]));
    expect((await send('POST', SURVEY.state(id), { to: 'running' })).statusCode).toBe(200);
    const before = await count();
    // The admin works the campaign as its agent: the hand-out and the result change contacts only.
    const next = await send('POST', WORK.next(id));
    expect([next.statusCode, next.json().data.contact?.name]).toEqual([200, 'Khách nhật ký']);
    const contact = next.json().data.contact.id as number;
    expect((await send('POST', WORK.result(id, contact), { result: 'agreed' })).statusCode).toBe(204);
    // The agent's own activity status (a column of the account on the ignore list).
    expect((await send('PUT', 'update-activity-status', { status: 2 })).statusCode).toBeLessThan(300);
    expect((await send('PUT', 'update-activity-status', { status: 1 })).statusCode).toBeLessThan(300);
    expect(await count()).toBe(before);

    const [created, started] = await linesOf('campaign', id);
    expect(created).toMatchObject({ action: 'create', entity_name: 'Khảo sát nhật ký', after: { state: 'draft', questions: [`#${question.id} Góp ý của anh/chị?`], agents: ['admin'] } });
    expect(started).toMatchObject({ action: 'update', before: { state: 'draft' }, after: { state: 'running' } });
    expect(started.changed).toContain('state');
  });

  it('a refused change writes nothing: a duplicate role, a switchboard on an internal address, a PBX loop', async () => {
    const before = await count();
    const dup = await send('POST', 'role', { name: 'super-admin', description: '', permissions: [] });
    expect(dup.statusCode).toBe(409);
    const internal = await send('POST', 'etelecom/switchboards', { name: 'Nội bộ', host: '127.0.0.1', port: 5060, register: false });
    expect([internal.statusCode, internal.json().code]).toEqual([422, 'SWITCHBOARD_HOST_REFUSED']);
    const a = (await send('POST', '/pbx/partner/ivr_detail', { name: 'Vòng A', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }] })).json().data.id as number;
    const b = (await send('POST', '/pbx/partner/ivr_detail', { name: 'Vòng B', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }], invalid_destination: { type: 'ivr', target: String(a) } })).json().data.id as number;
    const afterSetup = await count();
    expect(afterSetup).toBe(before + 2);
    // A → B → A with no key pressed: refused (the change is checked in its transaction, then rolled back).
    const loop = await send('PUT', `/pbx/partner/ivr_detail/${a}`, { name: 'Vòng A', entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }], invalid_destination: { type: 'ivr', target: String(b) } });
    expect([loop.statusCode, loop.json().code]).toEqual([422, 'PBX_LOOP']);
    // A user without the permission: refused before anything runs.
    expect((await send('POST', 'role', { name: 'khong-duoc', description: '', permissions: [] }, staff)).statusCode).toBe(403);
    expect(await count()).toBe(afterSetup);
    expect(await db.withSystem(async (tx) => (await tx.query<{ n: number }>('select count(*)::int as n from audit_pending')).rows[0].n)).toBe(0);
  });

  it("is per tenant: another tenant's admin sees none of it, and writes its own", async () => {
    const theirs = await send('POST', '/t/abc/role', { name: 'abc-nhat-ky', description: '', permissions: ['customer.view'] }, abcAdmin);
    expect(theirs.statusCode).toBe(201);
    const abc = await log({}, abcAdmin, 'abc');
    expect(abc.data.map((l) => [l.kind, l.entity_name, l.actor_username])).toEqual([['role', 'abc-nhat-ky', 'admin']]);
    expect((await log()).data.some((l) => l.entity_name === 'abc-nhat-ky')).toBe(false);
    // Naming the other tenant's code is refused, naming its object shows nothing.
    expect((await app.inject({ url: '/t/demo/audit-log', headers: abcAdmin })).statusCode).toBe(401);
    expect((await log({ entity_id: theirs.json().data.id, kind: 'role' })).data).toEqual([]);
  });

  it('is append-only: the app roles may not change or remove a line (permission denied), nor write one for another tenant', async () => {
    const [line] = (await log({ per_page: 1 })).data;
    const refused = async (run: Promise<unknown>) => expect(await run.then(() => null, (e: Error & { code?: string }) => e.code)).toBe('42501');
    await refused(db.withTenant(demo, (tx) => tx.query("update audit_log set actor_username = 'ke-gian' where id = $1", [line.id])));
    await refused(db.withTenant(demo, (tx) => tx.query('delete from audit_log where id = $1', [line.id])));
    await refused(db.withSystem((tx) => tx.query("update audit_log set actor_username = 'ke-gian' where id = $1", [line.id])));
    await refused(db.withSystem((tx) => tx.query('delete from audit_log where id = $1', [line.id])));
    const abcId = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'abc'")).rows[0].id);
    await expect(db.withTenant(demo, (tx) => tx.query("insert into audit_log (tenant_id, kind, entity_id, action) values ($1, 'role', '1', 'create')", [abcId]))).rejects.toThrow(/row-level security/);
    expect((await log({ per_page: 1 })).data[0]).toEqual(line);
  });

  it('filters by day, user, kind, action, object and a search that ignores accents; pages like every list', async () => {
    const all = await log();
    expect(all.meta.total).toBeGreaterThan(10);
    expect(all.data.map((l) => l.at)).toEqual([...all.data.map((l) => l.at)].sort().reverse());
    const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
    expect((await log({ from: today, to: today })).meta.total).toBe(all.meta.total);
    expect((await log({ from: '2020-01-01', to: '2020-01-31' })).meta.total).toBe(0);
    expect((await log({ user_id: adminId })).meta.total).toBe(all.meta.total);
    expect((await log({ user_id: 999_999 })).meta.total).toBe(0);
    const roles = await log({ kind: 'role' });
    expect(roles.data.every((l) => l.kind === 'role')).toBe(true);
    expect((await log({ kind: 'role', action: 'delete' })).data.map((l) => l.entity_name)).toEqual(['Giám sát ca tối']);
    // "giam sat ca toi" finds the role by its name; a value it had before ("Ca sáng") finds it too.
    expect((await log({ search: 'giam sat ca toi' })).data.map((l) => l.action)).toEqual(['delete', 'update']);
    expect((await log({ search: 'ca sang', kind: 'role' })).meta.total).toBe(3);
    expect((await log({ search: ADMIN_IP })).meta.total).toBe(all.meta.total);
    const page2 = await log({ per_page: 2, page: 2 });
    expect([page2.meta, page2.data.map((l) => l.id)]).toEqual([{ page: 2, per_page: 2, total: all.meta.total }, all.data.slice(2, 4).map((l) => l.id)]);
    const options = (await app.inject({ url: '/t/demo/audit-log/options', headers: admin })).json().data;
    expect(options).toEqual({ users: [{ id: adminId, name: 'Quản trị viên' }] });
    // Bad filters: 400 with the field's Vietnamese message.
    for (const query of ['kind=bogus', 'action=sua', 'from=2026-13-01', 'entity_id=abc', 'page=0']) {
      const bad = await app.inject({ url: `/t/demo/audit-log?${query}`, headers: admin });
      expect([query, bad.statusCode, bad.json().code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });

  it('exports what the filters match as CSV and XLSX (audit.export)', async () => {
    const csv = await app.inject({ url: '/t/demo/audit-log/export.csv?kind=role', headers: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="nhat-ky-thay-doi.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(AUDIT_EXPORT_HEADERS.join(','));
    expect(lines).toHaveLength(1 + (await log({ kind: 'role' })).meta.total);
    expect(lines.find((l) => l.includes('Giám sát ca tối') && l.includes(',Sửa,'))).toMatch(/Vai trò.*Tên hiển thị: Giám sát ca → Giám sát ca tối; Quyền: customer\.view, role\.view → customer\.edit, customer\.view, role\.view/);
    expect(lines[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2},Quản trị viên,admin,203\.0\.113\.7,/);
    const xlsx = await app.inject({ url: '/t/demo/audit-log/export.xlsx', headers: admin });
    expect([xlsx.statusCode, xlsx.headers['content-type']]).toEqual([200, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    const sheet = xlsx.rawPayload.toString('utf8');
    expect(sheet).toContain('Nhật ký thay đổi');
    expect((sheet.match(/<\/row>/g) ?? []).length).toBe(1 + (await log()).meta.total);
    expect((await app.inject({ url: '/t/demo/audit-log/export.pdf', headers: admin })).statusCode).toBe(404);
  });

  it('answers 403 to a user without audit.view / audit.export, 401 without a session', async () => {
    for (const url of ['audit-log', 'audit-log/options', 'audit-log/export.csv']) {
      const res = await app.inject({ url: `/t/demo/${url}`, headers: staff });
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'FORBIDDEN']);
      expect((await app.inject({ url: `/t/demo/${url}` })).statusCode).toBe(401);
    }
  });

  it('audits exactly the kinds the contracts name, each table with both triggers', async () => {
    const kinds = await db.withSystem(async (tx) => (await tx.query<{ kind: string }>('select kind from audit_kinds order by kind')).rows.map((r) => r.kind));
    expect(kinds).toEqual(Object.keys(AUDIT_KINDS).sort());
    const missing = await db.withSystem(async (tx) => (await tx.query<{ t: string }>(
      `select t from (select table_name as t from audit_kinds union select c->>'table' from audit_kinds, jsonb_array_elements(children) c) x
        where (select count(*) from pg_trigger g where g.tgrelid = x.t::regclass and g.tgname in ('audit_touch', 'audit_write')) <> 2`)).rows);
    expect(missing).toEqual([]);
  });
});
