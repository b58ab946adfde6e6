import { RECORDING_API } from '@tongdai/contracts';
import { insertHotline, insertOutboundRule, insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { openDb } from '../../db/open';
import { buildServer } from '../../server';
import { buildInternalServer } from '../sip/internal-server';
import { SwitchboardHosts } from '../trunks/switchboard-hosts';
import { bearer, demoHeaders, NO_DNS, startTestApp, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { createVoiceOtpService } from './voice-otp.service';

/**
 * Voice-OTP slice 1 (issue 35) on PostgreSQL: API keys managed by the tenant (hashed, shown once,
 * scopes, revoke, last used), and /otp/v1 start → get → check as an application calls it, with the
 * limits, the refusals and the isolation between tenants and between keys.
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
const ids: Record<string, number> = {};

const tenantId = async (maDn: string) =>
  t.db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);

/** A hotline of the tenant through a switchboard, enabled for OTP (or not). */
async function hotline(maDn: string, number: string, otp: boolean): Promise<void> {
  const tid = await tenantId(maDn);
  await t.db.withTenant(tid, async (tx) => {
    const sb = await insertSwitchboard(tx, tid, { name: `Tổng đài OTP ${number}`, host: '192.0.2.80', port: 5060 });
    await insertHotline(tx, tid, number, sb, '101');
    await tx.query('update pbx_numbers set otp_enabled = $2 where number = $1', [number, otp]);
  });
}

async function createKey(headers: Record<string, string>, maDn: string, body: Record<string, unknown> = { name: 'Ứng dụng ngân hàng' }) {
  const res = await t.app.inject({ method: 'POST', url: `/t/${maDn}/voice-otp/keys`, headers, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; secret: string; prefix: string; scopes: string[] };
}

const start = (key: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key), payload });
const get = (key: string, id: string) => t.app.inject({ method: 'GET', url: `/otp/v1/verifications/${id}`, headers: bearer(key) });
const check = (key: string, id: string, code: string) => t.app.inject({ method: 'POST', url: `/otp/v1/verifications/${id}/check`, headers: bearer(key), payload: { code } });

beforeAll(async () => {
  t = await startTestApp();
  h = await demoHeaders(t.app);
  ids.demo = await tenantId('demo');
  ids.abc = await tenantId('abc');
  await hotline('demo', '02873005201', true);
  await hotline('abc', '02473005201', true);
});
afterAll(() => t?.close());

describe('API keys', () => {
  it('answers the whole key once, stores only its SHA-256, lists it with its prefix and no secret', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Shop A', scopes: ['verify.start', 'verify.read'] });
    expect(key.secret).toMatch(/^tdo\.demo\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(`${key.secret.slice(0, key.secret.lastIndexOf('.') + 5)}…`);
    expect(key.scopes).toEqual(['verify.start', 'verify.read']);
    const stored = await t.db.withTenant(ids.demo, async (tx) => (await tx.query<{ secret_hash: Buffer }>('select secret_hash from otp_api_keys where id = $1', [key.id])).rows[0]);
    expect(stored.secret_hash).toHaveLength(32);
    expect(stored.secret_hash.toString('utf8')).not.toContain(key.secret.split('.')[3]);
    const list = await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.secret.split('.')[3]);
    expect(list.json().data.find((k: { id: number }) => k.id === key.id)).toEqual(expect.objectContaining({ name: 'Shop A', last_used_at: null, revoked_at: null }));
  });

  it('refuses a nameless key or an unknown scope with Vietnamese field errors; staff without otp.manage gets 403', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: h.admin, payload: { name: ' ', scopes: ['everything'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual(expect.arrayContaining([{ field: 'name', message: 'Tên khoá là bắt buộc' }, expect.objectContaining({ field: 'scopes.0' })]));
    expect((await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: h.staff, payload: { name: 'x' } })).statusCode).toBe(403);
  });

  it('a key opens only /otp/v1 (and sets last used); a user token does not open /otp/v1; a revoked key opens nothing', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Ví điện tử' });
    // A user's session token is no API key, and an API key is no session.
    expect((await start(h.admin.authorization.slice(7), { phone: '0912000101' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: bearer(key.secret) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/t/demo/customers', headers: bearer(key.secret) })).statusCode).toBe(401);
    // A key with one character changed is no key.
    const forged = key.secret.slice(0, -1) + (key.secret.endsWith('A') ? 'B' : 'A');
    expect((await start(forged, { phone: '0912000101' })).statusCode).toBe(401);

    const started = await start(key.secret, { phone: '0912000101' });
    expect(started.statusCode).toBe(201);
    const listed = (await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin })).json().data.find((k: { id: number }) => k.id === key.id);
    expect(listed.last_used_at).not.toBeNull();

    const revoked = await t.app.inject({ method: 'POST', url: `/t/demo/voice-otp/keys/${key.id}/revoke`, headers: h.admin });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revoked_at).not.toBeNull();
    expect((await get(key.secret, started.json().id)).statusCode).toBe(401);
    expect((await start(key.secret, { phone: '0912000102' })).statusCode).toBe(401);
  });

  it('a key answers only the scopes it holds (403 otherwise); a rename keeps the key working', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Chỉ đọc', scopes: ['verify.read'] });
    const res = await start(key.secret, { phone: '0912000103' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const tooLong = await t.app.inject({ method: 'PUT', url: `/t/demo/voice-otp/keys/${key.id}`, headers: h.admin, payload: { name: 'Đủ quyền', retry_after_s: 601 } });
    expect(tooLong.json().details).toEqual([{ field: 'retry_after_s', message: 'Thời gian gọi lại từ 0 đến 600 giây (0: không gọi lại)' }]);
    const renamed = await t.app.inject({ method: 'PUT', url: `/t/demo/voice-otp/keys/${key.id}`, headers: h.admin, payload: { name: 'Đủ quyền', scopes: ['verify.start', 'verify.read', 'verify.check'], retry_after_s: '45' } });
    expect(renamed.json().data).toEqual(expect.objectContaining({ name: 'Đủ quyền', scopes: ['verify.start', 'verify.read', 'verify.check'], retry_after_s: 45 }));
    expect((await start(key.secret, { phone: '0912000103' })).statusCode).toBe(201);
  });
});

describe('verifications', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createKey(h.admin, 'demo', { name: 'Ngân hàng' })).secret;
  });

  it('start → 201 queued with its expiry; get shows status and timeline; the right code approves', async () => {
    const before = Date.now();
    const res = await start(key, { phone: '+84 912 000 201', code: '482913', ttl_s: 120 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued', expires_at: expect.any(String) });
    expect(Math.abs(new Date(body.expires_at).getTime() - before - 120_000)).toBeLessThan(5_000);
    expect(res.body).not.toContain('482913');

    const got = await get(key, body.id);
    expect(got.json()).toEqual(expect.objectContaining({ id: body.id, status: 'queued', phone: '84912000201', checks: 0, timeline: [expect.objectContaining({ status: 'queued' })] }));
    expect(got.body).not.toContain('482913');

    expect((await check(key, body.id, '000000')).json()).toEqual({ status: 'wrong_code' });
    expect((await check(key, body.id, '482913')).json()).toEqual({ status: 'approved' });
    // Checking again is told approved, and not counted.
    expect((await check(key, body.id, '482913')).json()).toEqual({ status: 'approved' });
    const after = (await get(key, body.id)).json();
    expect(after.status).toBe('approved');
    expect(after.checks).toBe(2);
    expect(after.timeline.map((e: { status: string; detail: string }) => `${e.status}:${e.detail}`)).toEqual(['queued:', 'check:wrong_code', 'check:approved', 'approved:']);
  });

  it('draws a code of the asked length (default 6) and accepts 0…, 84…, +84…, storing 84…', async () => {
    for (const [phone, length] of [['0912000202', 4], ['84912000203', 8], ['+84912000204', undefined]] as const) {
      const res = await start(key, { phone, ...(length && { code_length: length }) });
      expect(res.statusCode).toBe(201);
      const code = await t.db.withTenant(ids.demo, async (tx) => (await tx.query<{ code: string; phone: string }>('select code, phone from otp_verifications where id = $1', [res.json().id])).rows[0]);
      expect(code.code).toMatch(new RegExp(`^\\d{${length ?? 6}}$`));
      expect(code.phone).toBe(`84${phone.replace(/^(\+84|84|0)/, '')}`);
    }
  });

  it('refuses bad fields with 400 and Vietnamese messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ phone: '0912000205', code_length: 3 }, 'code_length', 'Độ dài mã từ 4 đến 8 chữ số'],
      [{ phone: '0912000205', code: '12ab' }, 'code', 'Mã chỉ gồm chữ số'],
      [{ phone: '0912000205', ttl_s: 30 }, 'ttl_s', 'Thời hạn từ 60 đến 900 giây'],
      [{ phone: '0912000205', template: 'Mã của bạn' }, 'template', 'Lời đọc phải chứa {code}'],
      [{ phone: '0912000205', code: '1234', code_length: 6 }, 'code_length', 'Độ dài mã từ 4 đến 8 chữ số'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await start(key, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(expect.objectContaining({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field, message })] }));
    }
  });

  it('expires: past its expiry a check answers expired and the status reads expired', async () => {
    const res = await start(key, { phone: '0912000206', code: '1111' });
    await t.db.withTenant(ids.demo, (tx) => tx.query("update otp_verifications set expires_at = now() - interval '1 second' where id = $1", [res.json().id]));
    expect((await check(key, res.json().id, '1111')).json()).toEqual({ status: 'expired' });
    expect((await get(key, res.json().id)).json().status).toBe('expired');
  });

  it('at most 5 checks: five wrong codes, then too_many_attempts even for the right one', async () => {
    const id = (await start(key, { phone: '0912000207', code: '2222' })).json().id;
    for (let i = 0; i < 5; i++) expect((await check(key, id, '9999')).json()).toEqual({ status: 'wrong_code' });
    expect((await check(key, id, '2222')).json()).toEqual({ status: 'too_many_attempts' });
    expect((await get(key, id)).json()).toEqual(expect.objectContaining({ status: 'expired', checks: 5 }));
  });

  it('refuses international, service, blocked-outgoing and DNC numbers with a rule and a Vietnamese message', async () => {
    await t.app.inject({ method: 'POST', url: '/pbx/partner/blocked-out', headers: h.admin, payload: { number: '0912000301' } });
    await t.app.inject({ method: 'POST', url: '/pbx/partner/blocked-out', headers: h.admin, payload: { number: '0977', match: 'prefix' } });
    await t.db.withTenant(ids.demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source) values ($1, '84912000302', 'tenant')", [ids.demo]));
    const cases: [string, number, string, string, string][] = [
      ['+14155550100', 422, 'OTP_REFUSED', 'international', 'Không gọi OTP tới số quốc tế'],
      ['0014155550100', 422, 'OTP_REFUSED', 'international', 'Không gọi OTP tới số quốc tế'],
      ['19001234', 422, 'OTP_REFUSED', 'not_callable', 'Không gọi OTP tới số dịch vụ 1800/1900'],
      ['abc', 422, 'OTP_REFUSED', 'invalid_number', 'Số điện thoại không hợp lệ'],
      ['0912000301', 422, 'OTP_REFUSED', 'blocked_out', 'Số nằm trong danh sách chặn gọi ra của doanh nghiệp'],
      ['+84977000303', 422, 'OTP_REFUSED', 'blocked_out', 'Số nằm trong danh sách chặn gọi ra của doanh nghiệp'],
      ['0912000302', 422, 'OTP_REFUSED', 'dnc', 'Số nằm trong danh sách không gọi của doanh nghiệp'],
    ];
    for (const [phone, status, code, rule, message] of cases) {
      const res = await start(key, { phone });
      expect({ phone, status: res.statusCode, body: res.json() }).toEqual({
        phone, status, body: { status, code, message: 'Không thể gọi OTP tới số này', details: [{ field: 'phone', rule, message }] },
      });
    }
    const n = await t.db.withTenant(ids.demo, async (tx) => (await tx.query<{ n: number }>("select count(*)::int as n from otp_verifications where phone in ('84912000301', '84912000302', '84977000303')")).rows[0].n);
    expect(n).toBe(0);
  });

  it('limits: 3 calls per number in 10 minutes (any key), then the key per day', async () => {
    const other = (await createKey(h.admin, 'demo', { name: 'Khoá thứ hai' })).secret;
    expect((await start(key, { phone: '0912000401' })).statusCode).toBe(201);
    expect((await start(other, { phone: '0912000401' })).statusCode).toBe(201);
    expect((await start(key, { phone: '0912000401' })).statusCode).toBe(201);
    const fourth = await start(other, { phone: '0912000401' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual(expect.objectContaining({ code: 'OTP_RATE_LIMITED', details: [expect.objectContaining({ rule: 'number_limit', message: 'Số này đã nhận 3 cuộc gọi OTP trong 10 phút qua' })] }));
    // Ten minutes later the number may be called again.
    await t.db.withTenant(ids.demo, (tx) => tx.query("update otp_verifications set created_at = now() - interval '11 minutes' where phone = '84912000401'"));
    expect((await start(other, { phone: '0912000401' })).statusCode).toBe(201);

    const day = await createKey(h.admin, 'demo', { name: 'Giới hạn ngày' });
    await t.db.withTenant(ids.demo, (tx) => tx.query('update otp_api_keys set daily_limit = 2 where id = $1', [day.id]));
    expect((await start(day.secret, { phone: '0912000402' })).statusCode).toBe(201);
    expect((await start(day.secret, { phone: '0912000403' })).statusCode).toBe(201);
    const third = await start(day.secret, { phone: '0912000404' });
    expect(third.statusCode).toBe(429);
    expect(third.json().details[0]).toEqual(expect.objectContaining({ rule: 'key_day_limit', message: 'Khoá API đã dùng hết số yêu cầu trong ngày' }));
  });

  // Issue 42: two API instances (one database, pools and servers of their own) take one number's starts at once;
  // the tenant's advisory lock makes the count and the insert one step, so the limit holds across them.
  it('two instances at once: six starts for one number, three through each, give three 201 and three 429', async () => {
    const db2 = await openDb({ databaseUrl: t.dbUrl });
    const app2 = await buildServer({ db: db2, jwtSecret: TEST_JWT_SECRET, switchboardHosts: SwitchboardHosts.fromEnv(process.env, NO_DNS), otpWebhookMs: null });
    try {
      const one = { method: 'POST' as const, url: '/otp/v1/verifications', headers: bearer(key), payload: { phone: '0912000409' } };
      const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => (i % 2 ? app2 : t.app).inject(one)));
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(3);
      expect(codes.filter((c) => c === 429)).toHaveLength(3);
      for (const r of answers.filter((a) => a.statusCode === 429)) expect(r.json().details[0]).toEqual(expect.objectContaining({ rule: 'number_limit' }));
      const stored = await t.db.withTenant(ids.demo, (tx) => tx.query<{ n: number }>("select count(*)::int as n from otp_verifications where phone = '84912000409'"));
      expect(stored.rows[0].n).toBe(3);
    } finally {
      await app2.close();
      await db2.close();
    }
  });

  it('isolation: another key of the tenant, and a key of another tenant, neither read nor check a verification (404), nor write', async () => {
    const id = (await start(key, { phone: '0912000501', code: '5555' })).json().id;
    const sibling = (await createKey(h.admin, 'demo', { name: 'Khoá bên cạnh' })).secret;
    const foreign = (await createKey(h.abcAdmin, 'abc', { name: 'Khoá ABC' })).secret;
    for (const k of [sibling, foreign]) {
      expect((await get(k, id)).statusCode).toBe(404);
      expect((await check(k, id, '5555')).statusCode).toBe(404);
    }
    expect((await get(key, 'not-a-uuid')).statusCode).toBe(404);
    expect((await get(key, id)).json()).toEqual(expect.objectContaining({ status: 'queued', checks: 0 }));
    // The abc key starts in abc, through abc's hotline, and demo's list does not show it.
    const abcStart = await start(foreign, { phone: '0912000502' });
    expect(abcStart.statusCode).toBe(201);
    const demoList = (await t.app.inject({ url: '/t/demo/voice-otp/verifications?per_page=100', headers: h.admin })).json();
    expect(demoList.data.map((r: { id: string }) => r.id)).not.toContain(abcStart.json().id);
    expect((await t.app.inject({ url: '/t/demo/voice-otp/verifications', headers: h.abcAdmin })).statusCode).toBe(401);
  });

  it('no hotline enabled for OTP: 409 OTP_NO_CALLER_NUMBER; enabling one on /voice-otp/number lets the start through', async () => {
    const numbers = (await t.app.inject({ url: '/t/demo/voice-otp/numbers', headers: h.admin })).json().data as { id: number; number: string; otp_enabled: boolean }[];
    const mine = numbers.find((n) => n.number === '02873005201')!;
    expect(mine.otp_enabled).toBe(true);
    const off = await t.app.inject({ method: 'PUT', url: `/t/demo/voice-otp/numbers/${mine.id}`, headers: h.admin, payload: { otp_enabled: false } });
    expect(off.json().data).toEqual(expect.objectContaining({ otp_enabled: false }));
    const refused = await start(key, { phone: '0912000601' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(expect.objectContaining({ code: 'OTP_NO_CALLER_NUMBER', message: 'Chưa có hotline nào được bật để gọi OTP' }));
    await t.app.inject({ method: 'PUT', url: `/t/demo/voice-otp/numbers/${mine.id}`, headers: h.admin, payload: { otp_enabled: true } });
    expect((await start(key, { phone: '0912000601' })).statusCode).toBe(201);
  });

  it('the list on the tenant surface: newest first with key name, status and checks; filters by status and key', async () => {
    const k = await createKey(h.admin, 'demo', { name: 'Khoá danh sách' });
    const a = (await start(k.secret, { phone: '0912000701', code: '7777' })).json().id;
    const b = (await start(k.secret, { phone: '0912000702', code: '7777' })).json().id;
    await check(k.secret, b, '7777');
    const list = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}`, headers: h.admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.total).toBe(2);
    expect(list.json().data).toEqual([
      expect.objectContaining({ id: b, phone: '0912000702', key_name: 'Khoá danh sách', status: 'approved', checks: 1 }),
      expect.objectContaining({ id: a, phone: '0912000701', status: 'queued', checks: 0 }),
    ]);
    expect(list.body).not.toContain('7777');
    const approved = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&status=approved`, headers: h.admin });
    expect(approved.json().data.map((r: { id: string }) => r.id)).toEqual([b]);
    const queued = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&status=queued`, headers: h.admin });
    expect(queued.json().data.map((r: { id: string }) => r.id)).toEqual([a]);
    const today = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&preset=today`, headers: h.admin });
    expect(today.json().meta.total).toBe(2);
    const yesterday = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&preset=yesterday`, headers: h.admin });
    expect(yesterday.json().meta.total).toBe(0);
    const byPhone = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&search=${encodeURIComponent('+84912000702')}`, headers: h.admin });
    expect(byPhone.json().data.map((r: { id: string }) => r.id)).toEqual([b]);
    const byDigits = await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}&search=2000701`, headers: h.admin });
    expect(byDigits.json().data.map((r: { id: string }) => r.id)).toEqual([a]);
    const keys = await t.app.inject({ url: `/t/demo/voice-otp/keys?search=${encodeURIComponent('KHOÁ DANH')}`, headers: h.admin });
    expect(keys.json().data.map((x: { id: number }) => x.id)).toEqual([k.id]);
    const bad = await t.app.inject({ url: '/t/demo/voice-otp/verifications?status=nope', headers: h.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Trạng thái không hợp lệ');
  });

  it('stats: per Vietnam day of the range, the calls placed and answered (the list’s chart); each hotline’s answered rate over 30 days', async () => {
    const k = await createKey(h.admin, 'demo', { name: 'Khoá thống kê', retry_after_s: 0 });
    const ids3: string[] = [];
    for (const phone of ['0912000951', '0912000952', '0912000953', '0912000954']) ids3.push((await start(k.secret, { phone })).json().id as string);
    const svc = createVoiceOtpService(t.db);
    const claimed = (await svc.claimCalls(100)).map((c) => c.id);
    for (const id of ids3.slice(0, 3)) expect(claimed).toContain(id);
    await svc.recordCallOutcome(ids.demo, ids3[0], 'answered', null, 1);
    await svc.recordCallOutcome(ids.demo, ids3[0], 'completed', 21, 1);
    await svc.recordCallOutcome(ids.demo, ids3[1], 'no_answer', null, 1);
    await svc.recordCallOutcome(ids.demo, ids3[2], 'busy', null, 1);
    // The fourth is still calling: not counted as placed until its call ends or is answered.
    const res = await t.app.inject({ url: `/t/demo/voice-otp/stats?key_id=${k.id}`, headers: h.admin });
    expect(res.statusCode).toBe(200);
    const stats = res.json().data;
    expect({ called: stats.called, answered: stats.answered }).toEqual({ called: 3, answered: 1 });
    expect(stats.days).toHaveLength(30);
    expect(stats.days.at(-1)).toEqual({ day: new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10), called: 3, answered: 1 });
    expect(stats.days.slice(0, -1).every((d: { called: number }) => d.called === 0)).toBe(true);
    const yesterday = (await t.app.inject({ url: `/t/demo/voice-otp/stats?key_id=${k.id}&preset=yesterday`, headers: h.admin })).json().data;
    expect([yesterday.days.length, yesterday.called]).toEqual([1, 0]);
    expect((await t.app.inject({ url: '/t/demo/voice-otp/stats?preset=nope', headers: h.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/t/demo/voice-otp/stats', headers: h.staff })).statusCode).toBe(403);
    // The hotline that placed them: its answered rate over the last 30 days counts them.
    const numbers = (await t.app.inject({ url: '/t/demo/voice-otp/numbers', headers: h.admin })).json().data;
    const hotline = numbers.find((n: { number: string }) => n.number === '02873005201');
    expect(hotline.called_30d).toBeGreaterThanOrEqual(3);
    expect(hotline.answered_30d).toBeGreaterThanOrEqual(1);
    expect(hotline.answered_30d).toBeLessThan(hotline.called_30d);
  });

  it('export: the rows the filters select as CSV and XLSX; numbers masked while the tenant hides them, in the list too', async () => {
    const k = await createKey(h.admin, 'demo', { name: 'Khoá xuất file' });
    const a = (await start(k.secret, { phone: '0912000801', code: '8888' })).json().id;
    await check(k.secret, a, '8888');
    await start(k.secret, { phone: '0912000802' });
    const csv = await t.app.inject({ url: `/t/demo/voice-otp/verifications/export.csv?key_id=${k.id}&status=approved`, headers: h.admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="yeu-cau-otp.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('Thời gian,Số điện thoại,Khoá API,Trạng thái,Thời lượng gọi (giây),Lần kiểm tra mã');
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},0912000801,Khoá xuất file,Đã xác thực,,1$/)]);
    expect(csv.body).not.toContain('8888');
    const xlsx = await t.app.inject({ url: `/t/demo/voice-otp/verifications/export.xlsx?key_id=${k.id}`, headers: h.admin });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await t.app.inject({ url: `/t/demo/voice-otp/verifications/export.pdf?key_id=${k.id}`, headers: h.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/t/demo/voice-otp/verifications/export.csv?status=nope', headers: h.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/t/demo/voice-otp/verifications/export.csv?key_id=${k.id}`, headers: h.staff })).statusCode).toBe(403);

    // The tenant hides customers' numbers: the list and the export both show them masked.
    const settings = (await t.app.inject({ url: '/t/demo/get-system-setting', headers: h.admin })).json().data;
    await t.app.inject({ method: 'PUT', url: '/t/demo/update-system-setting', headers: h.admin, payload: { ...settings, hidden_phone_customer: 1, position_hidden_phone_customer: 3 } });
    try {
      const listed = (await t.app.inject({ url: `/t/demo/voice-otp/verifications?key_id=${k.id}`, headers: h.admin })).json().data.map((r: { phone: string }) => r.phone);
      expect(listed).toHaveLength(2);
      for (const p of listed) expect(p).toMatch(/\*{3}/);
      const masked = await t.app.inject({ url: `/t/demo/voice-otp/verifications/export.csv?key_id=${k.id}`, headers: h.admin });
      expect(masked.body).not.toContain('0912000801');
      expect(masked.body).toMatch(/\*{3}/);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/t/demo/update-system-setting', headers: h.admin, payload: settings });
    }
  });

  it('"Gọi thử": a test call from the screen under no key — listed as such, read by no application; refusals and the per-number limit of a start', async () => {
    const test = (headers: Record<string, string>, phone: string) => t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/test-call', headers, payload: { phone } });
    const made = await test(h.admin, '0912 000 901');
    expect(made.statusCode).toBe(201);
    const { id, phone, code } = made.json().data;
    expect(phone).toBe('0912000901');
    expect(code).toMatch(/^\d{6}$/);
    const listed = (await t.app.inject({ url: `/t/demo/voice-otp/verifications?search=0912000901`, headers: h.admin })).json().data;
    expect(listed).toEqual([expect.objectContaining({ id, key_id: null, key_name: null, status: 'queued' })]);
    // Who started it is kept; its timeline says it is a test.
    const row = await t.db.withTenant(ids.demo, async (tx) => (await tx.query<{ started_by: number | null; detail: string }>(
      "select v.started_by, e.detail from otp_verifications v join otp_events e on e.verification_id = v.id where v.id = $1 and e.status = 'queued'", [id])).rows[0]);
    expect(row.started_by).not.toBeNull();
    expect(row.detail).toBe('test');
    // No application's key finds it.
    const k = await createKey(h.admin, 'demo', { name: 'Khoá bất kỳ' });
    expect((await get(k.secret, id)).statusCode).toBe(404);
    // Its call goes as any: claimed, answered, completed (a worker's reports find it without a key).
    const svc = createVoiceOtpService(t.db);
    expect((await svc.claimCalls(100)).map((c) => c.id)).toContain(id);
    expect(await svc.recordCallOutcome(ids.demo, id, 'answered', null, 1)).toBe(true);
    expect(await svc.recordCallOutcome(ids.demo, id, 'completed', 25, 1)).toBe(true);
    expect((await t.app.inject({ url: `/t/demo/voice-otp/verifications?search=0912000901`, headers: h.admin })).json().data[0]).toEqual(expect.objectContaining({ status: 'completed', call_duration_s: 25 }));
    // A staff member without otp.manage cannot; another tenant does not see it.
    expect((await test(h.staff, '0912000902')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/t/abc/voice-otp/verifications?search=0912000901', headers: h.abcAdmin })).json().data).toEqual([]);
    // The refusals of a start, with their Vietnamese message under the field.
    const bad = await test(h.admin, '12');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toEqual(expect.objectContaining({ field: 'phone', rule: 'invalid_number', message: 'Số điện thoại không hợp lệ' }));
    expect((await test(h.admin, '0912000901')).statusCode).toBe(201);
    expect((await test(h.admin, '0912000901')).statusCode).toBe(201);
    const fourth = await test(h.admin, '0912000901');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().details[0].rule).toBe('number_limit');
    // The tenant's do-not-call and blocked-outgoing lists bind a test call as they bind a start: nothing is written.
    await t.db.withTenant(ids.demo, (tx) => tx.query("insert into dnc_numbers (tenant_id, number, source) values ($1, '84912000903', 'tenant')", [ids.demo]));
    expect((await t.app.inject({ method: 'POST', url: '/pbx/partner/blocked-out', headers: h.admin, payload: { number: '0912000904' } })).statusCode).toBe(201);
    for (const [phone, rule, message] of [['0912000903', 'dnc', 'Số nằm trong danh sách không gọi của doanh nghiệp'], ['0912000904', 'blocked_out', 'Số nằm trong danh sách chặn gọi ra của doanh nghiệp']]) {
      const refused = await test(h.admin, phone);
      expect({ phone, status: refused.statusCode, detail: refused.json().details?.[0] }).toEqual({ phone, status: 422, detail: { field: 'phone', rule, message } });
    }
    const written = await t.db.withTenant(ids.demo, async (tx) => (await tx.query<{ n: number }>("select count(*)::int as n from otp_verifications where phone in ('84912000903', '84912000904')")).rows[0].n);
    expect(written).toBe(0);
  });
});

describe('the call job (slice 2 groundwork, ADR 0052)', () => {
  it('claims each due verification once (two claimers at once), with the hotline; no answer → one retry 30 s later → no_answer; busy → busy', async () => {
    let now = new Date(Date.now() + 3_600_000);
    const svc = createVoiceOtpService(t.db, () => now);
    const key = await svc.keys.create(ids.demo, 'demo', null, { name: 'Khoá gọi', scopes: ['verify.start', 'verify.read', 'verify.check'], retry_after_s: 30, webhook_url: '' });
    const caller = { tenantId: ids.demo, keyId: key.id, scopes: key.scopes };
    // Everything started earlier in this file is due too: claim it away first.
    while ((await svc.claimCalls(100)).length) { /* drain */ }
    const a = await svc.start(caller, { phone: '0912000801', ttl_s: 300, template: 'Mã xác thực của bạn là {code}' });
    const b = await svc.start(caller, { phone: '0912000802', ttl_s: 300, template: 'Mã xác thực của bạn là {code}' });

    const [one, two] = await Promise.all([svc.claimCalls(1), svc.claimCalls(1)]);
    const claimed = [...one, ...two];
    expect(claimed.map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(claimed.every((c) => c.hotline === '02873005201' && c.call_attempts === 1 && /^\d{6}$/.test(c.code))).toBe(true);
    expect(await svc.claimCalls(10)).toEqual([]);
    expect((await svc.get(caller, a.id)).status).toBe('calling');

    await svc.recordCallOutcome(ids.demo, a.id, 'no_answer');
    expect((await svc.get(caller, a.id)).status).toBe('no_answer');
    now = new Date(now.getTime() + 29_000);
    expect(await svc.claimCalls(10)).toEqual([]);
    now = new Date(now.getTime() + 1_000);
    expect((await svc.claimCalls(10)).map((c) => [c.id, c.call_attempts])).toEqual([[a.id, 2]]);
    await svc.recordCallOutcome(ids.demo, a.id, 'no_answer');
    now = new Date(now.getTime() + 60_000);
    expect(await svc.claimCalls(10)).toEqual([]);
    const final = await svc.get(caller, a.id);
    expect(final.status).toBe('no_answer');
    expect(final.timeline.map((e) => e.status)).toEqual(['queued', 'calling', 'no_answer', 'calling', 'no_answer']);

    // A key that says 0 never calls again.
    const once = await svc.keys.create(ids.demo, 'demo', null, { name: 'Không gọi lại', scopes: ['verify.start'], retry_after_s: 0, webhook_url: '' });
    const c = await svc.start({ tenantId: ids.demo, keyId: once.id, scopes: once.scopes }, { phone: '0912000803', ttl_s: 300, template: 'Mã xác thực của bạn là {code}' });
    expect((await svc.claimCalls(10)).map((x) => x.id)).toEqual([c.id]);
    await svc.recordCallOutcome(ids.demo, c.id, 'no_answer');
    now = new Date(now.getTime() + 60_000);
    expect(await svc.claimCalls(10)).toEqual([]);

    await svc.recordCallOutcome(ids.demo, b.id, 'busy');
    now = new Date(now.getTime() + 60_000);
    expect(await svc.claimCalls(10)).toEqual([]);
    expect((await svc.get(caller, b.id)).status).toBe('busy');
  });

  it('a media worker\'s ask for a call is held while none is due and answered the moment one starts (a long poll); closing answers it at once', async () => {
    const internal = buildInternalServer(t.db, { calls: { switchboardsTtlMs: 100 } });
    await internal.ready();
    try {
      const svc = createVoiceOtpService(t.db);
      while ((await svc.claimCalls(100)).length) { /* what earlier tests started, claimed away */ }
      // A rule that lets the number out through the OTP hotline's switchboard (the job carries its plan).
      await t.db.withTenant(ids.demo, async (tx) => {
        const sb = (await tx.query<{ switchboard_id: number }>('select switchboard_id from pbx_numbers where number = $1', ['02873005201'])).rows[0].switchboard_id;
        await insertOutboundRule(tx, ids.demo, { name: 'OTP chờ', pattern: '0912000XXX', switchboardIds: [sb], callerId: '02873005201', priority: 0 });
      });
      const key = await createKey(h.admin, 'demo', { name: 'Khoá chờ' });
      const ask = (waitMs: number) => internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! }, payload: { worker: '127.0.0.1:1', wait_ms: waitMs } });

      // Nothing due: a short hold ends with 204.
      expect((await ask(150)).statusCode).toBe(204);

      const t0 = Date.now();
      let answered = false;
      const held = ask(60_000).then((r) => ((answered = true), r));
      await new Promise((r) => setTimeout(r, 400));
      expect(answered).toBe(false);
      const started = await start(key.secret, { phone: '0912000811', code: '5791' });
      expect(started.statusCode).toBe(201);
      const job = await held;
      expect(job.statusCode).toBe(200);
      expect(job.json()).toMatchObject({ id: started.json().id, attempt: 1, code: '5791', caller: '02873005201' });
      // Answered by the start, not by the hold's end.
      expect(Date.now() - t0).toBeLessThan(30_000);
      expect((await get(key.secret, started.json().id)).json().status).toBe('calling');

      // A burst is handed out in one answer: up to `max` jobs (a worker's ask), the rest at the next ask.
      const burst = [];
      for (const phone of ['0912000812', '0912000813', '0912000814']) burst.push((await start(key.secret, { phone })).json().id);
      const two = await internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! }, payload: { worker: '127.0.0.1:1', wait_ms: 0, max: 2 } });
      expect(two.statusCode).toBe(200);
      const rest = await internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! }, payload: { worker: '127.0.0.1:1', wait_ms: 0, max: 2 } });
      const handed = [...two.json().jobs, ...rest.json().jobs] as { id: string; token: string }[];
      expect(two.json().jobs).toHaveLength(2);
      expect(handed.map((j) => j.id).sort()).toEqual([...burst].sort());
      expect(new Set(handed.map((j) => j.token)).size).toBe(3);

      // Closing the listener answers a held ask at once (it does not wait out the minute).
      const pending = ask(60_000);
      await new Promise((r) => setTimeout(r, 200));
      const c0 = Date.now();
      await internal.close();
      expect((await pending).statusCode).toBe(204);
      expect(Date.now() - c0).toBeLessThan(30_000);
    } finally {
      await internal.close();
    }
  });
  it('a tenant that records every call still gets its OTP calls placed: the plan is the call out, not the recording\'s bridge', async () => {
    const internal = buildInternalServer(t.db, { calls: { switchboardsTtlMs: 100 } });
    await internal.ready();
    const mode = (m: string) => t.app.inject({ method: 'PUT', url: `/t/demo/${RECORDING_API.settings}`, headers: h.admin, payload: { recording_mode: m } });
    try {
      const svc = createVoiceOtpService(t.db);
      while ((await svc.claimCalls(100)).length) { /* what earlier tests started, claimed away */ }
      await t.db.withTenant(ids.demo, async (tx) => {
        const sb = (await tx.query<{ switchboard_id: number }>('select switchboard_id from pbx_numbers where number = $1', ['02873005201'])).rows[0].switchboard_id;
        await insertOutboundRule(tx, ids.demo, { name: 'OTP ghi âm', pattern: '0912000XXX', switchboardIds: [sb], callerId: '02873005201', priority: 0 });
      });
      expect((await mode('all')).statusCode).toBe(200);
      const key = await createKey(h.admin, 'demo', { name: 'Khoá ghi âm' });
      const started = await start(key.secret, { phone: '0912000821', code: '2468' });
      expect(started.statusCode).toBe(201);
      // Before planPlacedCall the plan began with a bridge step and the ask answered 204: the call failed unplaced.
      const job = await internal.inject({ method: 'POST', url: '/internal/sip/media/originate', headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! }, payload: { worker: '127.0.0.1:1', wait_ms: 0 } });
      expect(job.statusCode).toBe(200);
      expect(job.json()).toMatchObject({ id: started.json().id, code: '2468', caller: '02873005201' });
      expect((await get(key.secret, started.json().id)).json().status).toBe('calling');
    } finally {
      await mode('none');
      await internal.close();
    }
  });
});
