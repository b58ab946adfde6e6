import { ERROR_MESSAGES, MSG, PBX_MSG, TELECOM_API, TELECOM_MSG, vnDay } from '@tongdai/contracts';
import type { CdrRow } from '../cdr/cdr';
import { CdrWriter } from '../cdr/cdr.service';
import { bearer, demoHeaders, NO_DNS, startTestApp, type TestApp } from '../../../test/helpers';
import { settingsFromEnv, SwitchboardHosts } from '../trunks/trunks.service';

/**
 * Issue 15 on the real database: switchboards and hotlines on the tenant surface (CRUD, Vietnamese
 * validation, 4xx codes, the password never answered, tenant isolation, a hotline in /numbers and
 * the inbound routes, delete-in-use refused), outbound rules choosing switchboards and a hotline as
 * caller id, and the shop-key partner API listing only its tenant's.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
const SECRET = 'Carrier-Secret-9x!';

type Headers = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
const demo = (path: string) => `/t/demo/${path}`;
const abc = (path: string) => `/t/abc/${path}`;
const board = (more: Record<string, unknown> = {}) => ({
  name: 'Viettel HCM', carrier: 'viettel', host: 'sip.viettel.example.vn', port: 5060, auth_user: 'tongdai_demo', auth_password: SECRET, ...more,
});

beforeAll(async () => {
  // FPT's leased-line trunk below is on a private network the operator lets tenants use (ADR 0043).
  t = await startTestApp({ switchboardHosts: new SwitchboardHosts(settingsFromEnv({ ...process.env, TRUNK_ALLOWED_NETWORKS: '10.20.0.0/16' }), NO_DNS) });
  h = await demoHeaders(t.app);
});
afterAll(() => t?.close());

describe('switchboards', () => {
  it('creates, lists (paged, searched), reads and edits a switchboard; the password is sealed and never answered', async () => {
    const created = await req('POST', demo(TELECOM_API.switchboards), h.admin, board());
    expect(created.statusCode).toBe(201);
    const sb = created.json().data;
    expect(sb).toMatchObject({ name: 'Viettel HCM', carrier: 'viettel', host: 'sip.viettel.example.vn', transport: 'udp', caller_id_format: 'national', register: true, has_password: true, status: 'pending', channels_in_use: 0, hotlines: 0, codecs: ['PCMA', 'PCMU'] });
    expect(sb).not.toHaveProperty('auth_password');
    expect(created.body).not.toContain(SECRET);
    // Stored sealed: not the password in clear.
    const stored = await t.db.withSystem((tx) => tx.query<{ s: string }>('select auth_password_sealed as s from telecom_switchboards where id = $1', [sb.id]));
    expect(stored.rows[0].s).toMatch(/^v\d?\./);
    expect(stored.rows[0].s).not.toContain(SECRET);

    await req('POST', demo(TELECOM_API.switchboards), h.admin, board({ name: 'FPT dự phòng', carrier: 'fpt', host: '10.20.30.40', register: false, auth_user: '', auth_password: '' }));
    const list = await req('GET', `${demo(TELECOM_API.switchboards)}?page=1&per_page=1`, h.admin);
    expect(list.json().meta).toEqual({ page: 1, per_page: 1, total: 2 });
    expect(list.json().data.map((s: { name: string }) => s.name)).toEqual(['FPT dự phòng']);
    const searched = (await req('GET', `${demo(TELECOM_API.switchboards)}?search=viettel`, h.admin)).json();
    expect(searched.data.map((s: { name: string }) => s.name)).toEqual(['Viettel HCM']);
    const ip = (await req('GET', `${demo(TELECOM_API.switchboards)}?search=FPT`, h.admin)).json().data[0];
    expect(ip).toMatchObject({ status: 'ip', has_password: false });
    for (const r of [list, await req('GET', demo(TELECOM_API.switchboard(sb.id)), h.admin)]) expect(r.body).not.toContain(SECRET);

    // An edit with an empty password keeps the stored one; turning it off says 'disabled'.
    const edited = await req('PUT', demo(TELECOM_API.switchboard(sb.id)), h.admin, board({ auth_password: '', enabled: false, max_channels: 10, caller_id_format: 'international' }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ has_password: true, status: 'disabled', max_channels: 10, caller_id_format: 'international' });
    const after = await t.db.withSystem((tx) => tx.query<{ s: string }>('select auth_password_sealed as s from telecom_switchboards where id = $1', [sb.id]));
    expect(after.rows[0].s).toBe(stored.rows[0].s);
    // A rename alone keeps the live status the call path wrote.
    await t.db.withSystem((tx) => tx.query("update telecom_switchboards set status = 'registered' where id = $1", [sb.id]));
    await req('PUT', demo(TELECOM_API.switchboard(sb.id)), h.admin, board({ auth_password: '', enabled: true }));
    await t.db.withSystem((tx) => tx.query("update telecom_switchboards set status = 'registered', status_reason = '' where id = $1", [sb.id]));
    const renamed = await req('PUT', demo(TELECOM_API.switchboard(sb.id)), h.admin, board({ name: 'Viettel Hồ Chí Minh', auth_password: '' }));
    expect(renamed.json().data).toMatchObject({ name: 'Viettel Hồ Chí Minh', status: 'registered' });
    await req('PUT', demo(TELECOM_API.switchboard(sb.id)), h.admin, board({ auth_password: '' }));
  });

  it('refuses bad input with Vietnamese messages and 4xx codes', async () => {
    const bad = async (body: Record<string, unknown>, field: string, message: string, status = 400) => {
      const res = await req('POST', demo(TELECOM_API.switchboards), h.admin, body);
      expect([res.statusCode, res.json().code]).toEqual([status, status === 400 ? 'VALIDATION_FAILED' : 'CONFLICT']);
      expect(res.json().details).toContainEqual({ field, message });
    };
    await bad(board({ host: 'not a host!' }), 'host', TELECOM_MSG.host);
    await bad(board({ caller_id_format: '+84' }), 'caller_id_format', 'Giá trị không hợp lệ');
    await bad(board({ port: 70000 }), 'port', 'Tối đa 65535');
    await bad(board({ codecs: [] }), 'codecs', TELECOM_MSG.codecs);
    await bad(board({ name: '' }), 'name', MSG.required);
    await bad(board({ auth_user: '' }), 'auth_user', MSG.required);
    await bad(board({ name: 'Không mật khẩu', auth_password: '' }), 'auth_password', TELECOM_MSG.passwordRequired);
    await bad(board({ name: 'viettel hcm' }), 'name', PBX_MSG.nameTaken, 409);
    const res = await req('POST', demo(TELECOM_API.switchboards), h.admin, board({ name: 'Không mật khẩu', auth_password: '' }));
    expect(res.json().message).toBe(TELECOM_MSG.passwordRequired);
  });

  it("another tenant can neither read, edit nor delete a switchboard; a user without telecom rights cannot", async () => {
    const sb = (await req('GET', `${demo(TELECOM_API.switchboards)}?search=viettel`, h.admin)).json().data[0];
    expect((await req('GET', abc(TELECOM_API.switchboard(sb.id)), h.abcAdmin)).statusCode).toBe(404);
    expect((await req('PUT', abc(TELECOM_API.switchboard(sb.id)), h.abcAdmin, board())).statusCode).toBe(404);
    expect((await req('DELETE', abc(TELECOM_API.switchboard(sb.id)), h.abcAdmin)).statusCode).toBe(404);
    expect((await req('GET', abc(TELECOM_API.switchboards), h.abcAdmin)).json().data).toEqual([]);
    // abc's admin at demo's address is refused before anything runs.
    expect((await req('GET', demo(TELECOM_API.switchboards), h.abcAdmin)).statusCode).toBe(401);
    const staff = await req('GET', demo(TELECOM_API.switchboards), h.staff);
    expect([staff.statusCode, staff.json().message]).toEqual([403, ERROR_MESSAGES.FORBIDDEN]);
    expect((await req('GET', demo(TELECOM_API.switchboard(sb.id)), h.admin)).json().data.name).toBe('Viettel HCM');
  });
});

describe('hotlines', () => {
  const boardId = async (search: string) => (await req('GET', `${demo(TELECOM_API.switchboards)}?search=${encodeURIComponent(search)}`, h.admin)).json().data[0].id as number;

  it('a hotline is a number of the tenant with its inbound route, made in one go; it shows in /numbers and the inbound routes', async () => {
    const sb = await boardId('Viettel');
    const res = await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '+84 28 7300 0077', switchboard_id: sb, destination: { type: 'direct', target: '101' }, description: 'Hotline CSKH' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      number: '842873000077', kind: 'landline', carrier: 'viettel', switchboard_id: sb, switchboard_name: 'Viettel HCM', switchboard_status: 'registered',
      destination: { type: 'direct', target: '101' }, active: true, description: 'Hotline CSKH', calls_today: 0, channels_in_use: 0,
    });
    const numbers = (await req('GET', '/pbx/partner/number', h.admin)).json().data;
    expect(numbers).toContainEqual(expect.objectContaining({ number: '02873000077', switchboard_id: sb }));
    const inbounds = (await req('GET', '/pbx/partner/inbound', h.admin)).json().data;
    expect(inbounds).toContainEqual(expect.objectContaining({ did: '02873000077', caller_pattern: '', destination: { type: 'direct', target: '101' } }));
    // A mobile hotline's carrier is its prefix's, whatever the switchboard.
    const mobile = await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '0912000077', switchboard_id: sb, destination: { type: 'direct', target: '102' } });
    expect(mobile.json().data).toMatchObject({ number: '84912000077', kind: 'mobile', carrier: 'vnpt' });
    const list = (await req('GET', `${demo(TELECOM_API.hotlines)}?search=0287`, h.admin)).json();
    expect(list.data.map((x: { number: string }) => x.number)).toEqual(['842873000077']);
    expect((await req('GET', demo(TELECOM_API.switchboard(sb)), h.admin)).json().data.hotlines).toBe(2);
  });

  it('bad numbers and destinations are refused in Vietnamese; nothing is written', async () => {
    const sb = await boardId('Viettel');
    const post = (body: Record<string, unknown>) => req('POST', demo(TELECOM_API.hotlines), h.admin, body);
    const count = async () => (await req('GET', '/pbx/partner/number', h.admin)).json().data.length;
    const before = await count();
    const badNumber = await post({ number: '12345', switchboard_id: sb, destination: { type: 'direct', target: '101' } });
    expect([badNumber.statusCode, badNumber.json().details]).toEqual([400, [{ field: 'number', message: TELECOM_MSG.hotlineNumber }]]);
    const noBoard = await post({ number: '0287300088', switchboard_id: '', destination: { type: 'direct', target: '101' } });
    expect(noBoard.json().details).toContainEqual({ field: 'switchboard_id', message: TELECOM_MSG.switchboardRequired });
    // A switchboard of another tenant (or none) is not a choice.
    const abcBoard = (await req('POST', abc(TELECOM_API.switchboards), h.abcAdmin, board({ name: 'ABC VNPT', carrier: 'vnpt' }))).json().data.id;
    const foreign = await post({ number: '02873000088', switchboard_id: abcBoard, destination: { type: 'direct', target: '101' } });
    expect([foreign.statusCode, foreign.json().message]).toEqual([400, TELECOM_MSG.switchboardRequired]);
    const noDest = await post({ number: '02873000088', switchboard_id: sb, destination: { type: 'direct', target: '999' } });
    expect(noDest.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it("a number belongs to one tenant: another tenant's is refused; one already a hotline too; a plain DID becomes a hotline", async () => {
    const sb = await boardId('Viettel');
    const abcBoard = (await req('GET', abc(TELECOM_API.switchboards), h.abcAdmin)).json().data[0].id;
    // 02473000001 is abc's DID (seed).
    const taken = await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '02473000001', switchboard_id: sb, destination: { type: 'direct', target: '101' } });
    expect([taken.statusCode, taken.json().code, taken.json().message]).toEqual([409, 'CONFLICT', TELECOM_MSG.numberTaken]);
    const again = await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '02873000077', switchboard_id: sb, destination: { type: 'direct', target: '101' } });
    expect([again.statusCode, again.json().message]).toEqual([409, TELECOM_MSG.numberExists]);
    const abcTakes = await req('POST', abc(TELECOM_API.hotlines), h.abcAdmin, { number: '842873000077', switchboard_id: abcBoard, destination: { type: 'direct', target: '101' } });
    expect([abcTakes.statusCode, abcTakes.json().message]).toEqual([409, TELECOM_MSG.numberTaken]);
    // 02873000002 is one of demo's plain DIDs: connecting it through a carrier binds it, its default route set.
    const bound = await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '02873000002', switchboard_id: sb, destination: { type: 'direct', target: '102' } });
    expect([bound.statusCode, bound.json().data.number, bound.json().data.destination]).toEqual([201, '842873000002', { type: 'direct', target: '102' }]);
    expect((await req('GET', '/pbx/partner/number', h.admin)).json().data.filter((n: { number: string }) => n.number === '02873000002')).toHaveLength(1);
  });

  it('edits a hotline (switchboard, destination, description, active); another tenant cannot see, edit or delete it', async () => {
    const sb = await boardId('Viettel');
    const fpt = await boardId('FPT');
    const hl = (await req('GET', `${demo(TELECOM_API.hotlines)}?search=02873000077`, h.admin)).json().data[0];
    // The route's own post-call CSAT (ADR 0056), set on the inbound route form: a hotline edit, which does not know it, keeps it.
    const route = (await req('GET', '/pbx/partner/inbound?search=02873000077', h.admin)).json().data[0];
    expect((await req('PUT', `/pbx/partner/inbound/${route.id}`, h.admin, { did: route.did, destination: route.destination, csat: true })).statusCode).toBe(200);
    const edited = await req('PUT', demo(TELECOM_API.hotline(hl.id)), h.admin, { switchboard_id: fpt, destination: { type: 'direct', target: '102' }, description: 'Đã chuyển', active: false });
    expect(edited.json().data).toMatchObject({ number: '842873000077', switchboard_id: fpt, switchboard_status: 'ip', destination: { type: 'direct', target: '102' }, description: 'Đã chuyển', active: false, carrier: 'fpt' });
    const inbounds = (await req('GET', '/pbx/partner/inbound?search=02873000077', h.admin)).json().data;
    expect(inbounds.map((r: { destination: unknown; csat: boolean }) => [r.destination, r.csat])).toEqual([[{ type: 'direct', target: '102' }, true]]);
    await req('PUT', demo(TELECOM_API.hotline(hl.id)), h.admin, { switchboard_id: sb, destination: { type: 'direct', target: '101' }, description: 'Hotline CSKH', active: true });

    expect((await req('GET', abc(TELECOM_API.hotline(hl.id)), h.abcAdmin)).statusCode).toBe(404);
    expect((await req('PUT', abc(TELECOM_API.hotline(hl.id)), h.abcAdmin, { switchboard_id: sb, destination: { type: 'direct', target: '101' } })).statusCode).toBe(404);
    expect((await req('DELETE', abc(TELECOM_API.hotline(hl.id)), h.abcAdmin)).statusCode).toBe(404);
    expect((await req('GET', abc(TELECOM_API.hotlines), h.abcAdmin)).json().data).toEqual([]);
    expect((await req('GET', demo(TELECOM_API.hotline(hl.id)), h.admin)).json().data.active).toBe(true);
  });

  it("a hotline's calls-per-minute cap for the campaign dialer: set, kept when absent, refused out of range with nothing written, cleared", async () => {
    const sb = await boardId('Viettel');
    const hl = (await req('GET', `${demo(TELECOM_API.hotlines)}?search=02873000077`, h.admin)).json().data[0];
    expect(hl.max_calls_per_minute).toBeNull();
    const edit = (more: Record<string, unknown>) => req('PUT', demo(TELECOM_API.hotline(hl.id)), h.admin, { switchboard_id: sb, destination: { type: 'direct', target: '101' }, description: 'Hotline CSKH', ...more });
    expect((await edit({ max_calls_per_minute: '30' })).json().data.max_calls_per_minute).toBe(30);
    // A partner's edit without it keeps it; the list and the partner API show it.
    expect((await edit({ description: 'Không đổi giới hạn' })).json().data.max_calls_per_minute).toBe(30);
    expect((await req('GET', `${demo(TELECOM_API.hotlines)}?search=02873000077`, h.admin)).json().data[0].max_calls_per_minute).toBe(30);
    for (const bad of [0, 601, '2,5']) {
      const refused = await edit({ max_calls_per_minute: bad, description: 'Không được ghi' });
      expect([refused.statusCode, refused.json().code, refused.json().details]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'max_calls_per_minute', message: TELECOM_MSG.dialRate }]]);
    }
    expect((await req('GET', demo(TELECOM_API.hotline(hl.id)), h.admin)).json().data).toMatchObject({ max_calls_per_minute: 30, description: 'Không đổi giới hạn' });
    expect((await edit({ max_calls_per_minute: '' })).json().data.max_calls_per_minute).toBeNull();
  });
});

describe('outbound rules choose switchboards and present a hotline', () => {
  const rule = (more: Record<string, unknown>) => ({ name: 'Di động', pattern: '09XXXXXXXX', ...more });

  it('needs at least one of the tenant\'s switchboards; the caller id must be one of its hotlines', async () => {
    const boards = (await req('GET', demo(TELECOM_API.switchboards), h.admin)).json().data as { id: number; name: string }[];
    const [fpt, viettel] = boards;
    const abcBoard = (await req('GET', abc(TELECOM_API.switchboards), h.abcAdmin)).json().data[0].id;
    const post = (body: Record<string, unknown>) => req('POST', '/pbx/partner/rule', h.admin, body);
    const none = await post(rule({ trunk: 'viettel' }));
    expect([none.statusCode, none.json().details]).toEqual([400, [{ field: 'switchboard_ids', message: TELECOM_MSG.switchboardsRequired }]]);
    const foreign = await post(rule({ switchboard_ids: [viettel.id, abcBoard] }));
    expect([foreign.statusCode, foreign.json().details]).toEqual([400, [{ field: 'switchboard_ids', message: TELECOM_MSG.switchboardsRequired }]]);
    const notHotline = await post(rule({ switchboard_ids: [viettel.id], caller_id: '02873000003' }));
    expect([notHotline.statusCode, notHotline.json().details]).toEqual([400, [{ field: 'caller_id', message: TELECOM_MSG.callerIdNotHotline }]]);
    const ok = await post(rule({ switchboard_ids: [viettel.id, fpt.id], caller_id_mode: 'carrier', caller_id: '+842873000077' }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({ switchboard_ids: [viettel.id, fpt.id], caller_id_mode: 'carrier', caller_id: '+842873000077', trunk: '' });
  });

  it('a switchboard or a hotline in use is not deleted (409); once free they are', async () => {
    const viettel = (await req('GET', `${demo(TELECOM_API.switchboards)}?search=Viettel`, h.admin)).json().data[0];
    const inUse = await req('DELETE', demo(TELECOM_API.switchboard(viettel.id)), h.admin);
    expect([inUse.statusCode, inUse.json().code, inUse.json().message]).toEqual([409, 'CONFLICT', TELECOM_MSG.switchboardInUse]);
    const hl = (await req('GET', `${demo(TELECOM_API.hotlines)}?search=02873000077`, h.admin)).json().data[0];
    const presented = await req('DELETE', demo(TELECOM_API.hotline(hl.id)), h.admin);
    expect([presented.statusCode, presented.json().message]).toEqual([409, TELECOM_MSG.hotlineInUse]);

    const rules = (await req('GET', '/pbx/partner/rule', h.admin)).json().data as { id: number }[];
    for (const r of rules) expect((await req('DELETE', `/pbx/partner/rule/${r.id}`, h.admin)).statusCode).toBe(204);
    expect((await req('DELETE', demo(TELECOM_API.switchboard(viettel.id)), h.admin)).statusCode).toBe(409); // still its hotlines'
    const mine = (await req('GET', `${demo(TELECOM_API.hotlines)}?switchboard_id=${viettel.id}`, h.admin)).json().data as { id: number; number: string }[];
    for (const x of mine) expect((await req('DELETE', demo(TELECOM_API.hotline(x.id)), h.admin)).statusCode).toBe(204);
    // The number went with its routes.
    expect((await req('GET', '/pbx/partner/number', h.admin)).json().data.map((n: { number: string }) => n.number)).not.toContain('02873000077');
    expect((await req('GET', '/pbx/partner/inbound?search=02873000077', h.admin)).json().data).toEqual([]);
    expect((await req('DELETE', demo(TELECOM_API.switchboard(viettel.id)), h.admin)).statusCode).toBe(204);
    expect((await req('GET', demo(TELECOM_API.switchboard(viettel.id)), h.admin)).statusCode).toBe(404);
  });
});

describe('telecom partner API (bearer: the shop key)', () => {
  it("lists the key's tenant's switchboards (no secret), hotlines and the calls through them", async () => {
    // Demo again has a Viettel switchboard and a hotline with calls today.
    const sb = (await req('POST', demo(TELECOM_API.switchboards), h.admin, board({ name: 'Viettel 2' }))).json().data;
    const hl = (await req('POST', demo(TELECOM_API.hotlines), h.admin, { number: '02873000066', switchboard_id: sb.id, destination: { type: 'direct', target: '101' } })).json().data;
    const tenants = Object.fromEntries((await t.db.withSystem((tx) => tx.query<{ id: number; ma_dn: string }>('select id, ma_dn from tenants'))).rows.map((r) => [r.ma_dn, r.id]));
    const writer = new CdrWriter(t.db, { onError: (err) => { throw err; } });
    const now = Date.now();
    const cdr = (tenant: number, id: string, o: Partial<CdrRow>): CdrRow => ({
      tenant_id: tenant, call_id: id, caller: '0987654321', callee: '02873000066', did: '842873000066', direction: 'inbound', route: [], ring_group_id: null,
      queue_id: null, extension: '101', trunk: null, started_at: new Date(now - 60_000), answered_at: new Date(now - 55_000), ended_at: new Date(now - 25_000),
      duration: 35, billsec: 30, disposition: 'ANSWERED', sip_code: 200, reason: '', ...o,
    });
    writer.add(cdr(tenants.demo, 'tel-1', {}));
    writer.add(cdr(tenants.demo, 'tel-2', { direction: 'outbound', caller: '101', callee: '0912345678', did: '02873000066', extension: '101' }));
    writer.add(cdr(tenants.demo, 'tel-3', { did: '842873000001' })); // another number
    writer.add(cdr(tenants.abc, 'tel-4', { did: '842873000066' })); // another tenant
    await writer.flush();

    const key = (await req('GET', '/telecom/etelecom/GetShopKey', h.staff)).json().data as string;
    const abcKey = (await req('GET', '/telecom/etelecom/GetShopKey', h.abcAdmin)).json().data as string;
    const boards = await req('GET', `/telecom/${TELECOM_API.partner.switchboards}`, bearer(key));
    expect(boards.statusCode).toBe(200);
    expect(boards.json().data.map((s: { name: string }) => s.name)).toEqual(['FPT dự phòng', 'Viettel 2']);
    expect(boards.json().data[1]).toMatchObject({ has_password: true, status: 'pending', hotlines: 1 });
    expect(boards.body).not.toContain(SECRET);
    expect(boards.body).not.toContain('auth_password');
    expect((await req('GET', `/telecom/${TELECOM_API.partner.switchboards}`, bearer(abcKey))).json().data.map((s: { name: string }) => s.name)).toEqual(['ABC VNPT']);

    const hotlines = (await req('GET', `/telecom/${TELECOM_API.partner.hotlines}`, bearer(key))).json().data;
    expect(hotlines).toContainEqual(expect.objectContaining({ id: hl.id, number: '842873000066', carrier: 'viettel', switchboard_name: 'Viettel 2', calls_today: 2 }));
    expect((await req('GET', `/telecom/${TELECOM_API.partner.hotlines}`, bearer(abcKey))).json().data).toEqual([]);
    // The tenant screen reads the same figure.
    expect((await req('GET', demo(TELECOM_API.hotline(hl.id)), h.admin)).json().data.calls_today).toBe(2);

    const today = vnDay(new Date());
    const logs = await req('GET', `/telecom/${TELECOM_API.partner.callLogs}?hotline_id=${hl.id}&from=${today}&to=${today}`, bearer(key));
    expect(logs.statusCode).toBe(200);
    expect(logs.json().meta).toEqual({ page: 1, per_page: 10, total: 2 });
    expect(logs.json().data.map((c: { direction: string; did: string }) => [c.direction, c.did]).sort()).toEqual([['inbound', '02873000066'], ['outbound', '02873000066']]);
    // abc's key cannot name demo's hotline; bad filters are 400s in Vietnamese.
    const foreign = await req('GET', `/telecom/${TELECOM_API.partner.callLogs}?hotline_id=${hl.id}`, bearer(abcKey));
    expect([foreign.statusCode, foreign.json().message]).toEqual([400, TELECOM_MSG.unknownHotline]);
    const badDay = await req('GET', `/telecom/${TELECOM_API.partner.callLogs}?from=2026-13-40`, bearer(key));
    expect([badDay.statusCode, badDay.json().message]).toEqual([400, 'Ngày không hợp lệ (định dạng YYYY-MM-DD)']);
    expect((await req('GET', `/telecom/${TELECOM_API.partner.callLogs}`, h.admin)).statusCode).toBe(401);
  });

  it('the partner routes are documented in OpenAPI under telecom, with the shop key as bearer and their answers', async () => {
    await t.app.ready();
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { tags: string[]; security: unknown; responses: Record<string, unknown>; summary?: string }>> };
    for (const path of Object.values(TELECOM_API.partner)) {
      const op = doc.paths[`/telecom/${path}`].get;
      expect(op).toMatchObject({ tags: ['telecom'], security: [{ bearer: [] }], summary: expect.any(String) });
      expect(JSON.stringify(op.responses['200'])).toContain('"data"');
    }
    expect(JSON.stringify(doc.paths[`/telecom/${TELECOM_API.partner.switchboards}`].get.responses)).not.toContain('auth_password');
  });
});
