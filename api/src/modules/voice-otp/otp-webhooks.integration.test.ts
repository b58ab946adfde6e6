import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { insertHotline, insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { OTP_WEBHOOK_RETRY_S } from '@tongdai/contracts';
import { bearer, demoHeaders, loopbackCarrierHosts, startTestApp, type TestApp } from '../../../test/helpers';
import Fastify from 'fastify';
import { pruneDeliveries, scheduleOtpJobs, sendDueWebhooks } from './otp-webhooks';
import { createVoiceOtpService } from './voice-otp.service';

/**
 * Voice-OTP webhooks (issue 35, ADR 0052) on PostgreSQL: a key's URL gets each status change of the
 * verifications it started, POSTed as JSON and signed with the key's signing secret (shown once);
 * a refusal or no answer is tried again on the schedule, the same event id each time; a URL at the
 * PBX's own internals is refused at save; another tenant's or key's changes never reach it.
 * The sender's rounds are run by the test with its own clock (the server's own timer is off).
 */
let t: TestApp;
let h: Awaited<ReturnType<typeof demoHeaders>>;
let server: Server;
let url = '';
/** What the application's endpoint answers next (a queue; 200 when empty). */
const answers: number[] = [];
const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let now = new Date();
const clock = () => now;
/** What the name hooks.example resolves to (the application's DNS, as the test says). */
let dnsAnswer = '127.0.0.1';
const hosts = loopbackCarrierHosts(async (name) => (name === 'hooks.example' ? [dnsAnswer] : []));
const round = () => sendDueWebhooks(t.db, hosts, { clock });

const tenantId = async (maDn: string) =>
  t.db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/otp`;
  // Loopback allowed as a carrier network would be (the operator's TRUNK_ALLOWED_NETWORKS), the timer off.
  t = await startTestApp({ switchboardHosts: hosts, otpWebhookMs: null });
  h = await demoHeaders(t.app);
  for (const [maDn, number] of [['demo', '02873005301'], ['abc', '02473005301']] as const) {
    const tid = await tenantId(maDn);
    await t.db.withTenant(tid, async (tx) => {
      const sb = await insertSwitchboard(tx, tid, { name: `Tổng đài OTP ${number}`, host: '192.0.2.81', port: 5060 });
      await insertHotline(tx, tid, number, sb, '101');
      await tx.query('update pbx_numbers set otp_enabled = true where number = $1', [number]);
    });
  }
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server?.close(r));
});

const createKey = async (headers: Record<string, string>, maDn: string, body: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'POST', url: `/t/${maDn}/voice-otp/keys`, headers, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; secret: string; webhook_secret: string; webhook_url: string | null };
};
const verify = (signature: string, body: string, secret: string) => {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  return !!m && createHmac('sha256', secret).update(`${m[1]}.${body}`).digest('hex') === m[2];
};
const events = (maDn = 'demo') =>
  received.map((r) => JSON.parse(r.body) as { event_id: number; verification_id: string; status: string; phone: string }).filter((e) => e.phone.startsWith(maDn === 'demo' ? '8491' : '8498'));

describe('voice-OTP webhooks', () => {
  it('POSTs each status change signed with the key’s secret; a refusal is tried again later with the same event id; delivered once', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Ngân hàng có webhook', webhook_url: url });
    expect(key.webhook_url).toBe(url);
    expect(key.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    // The signing secret is never answered again, and not stored in clear.
    const list = await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin });
    expect(list.body).not.toContain(key.webhook_secret);
    const sealed = await t.db.withTenant(await tenantId('demo'), async (tx) => (await tx.query<{ s: string }>('select webhook_secret_sealed as s from otp_api_keys where id = $1', [key.id])).rows[0].s);
    expect(sealed).not.toContain(key.webhook_secret.slice(6));

    const started = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005301', code: '5301' } });
    expect(started.statusCode).toBe(201);
    const { id } = started.json();
    // The call's progress as the media worker reports it (the server's clock a second on).
    now = new Date(Date.now() + 1000);
    const svc = createVoiceOtpService(t.db, clock);
    const [claimed] = (await svc.claimCalls(10)).filter((c) => c.id === id);
    expect(claimed).toBeTruthy();
    await svc.recordCallOutcome(claimed.tenant_id, id, 'answered', null, 1);
    await svc.recordCallOutcome(claimed.tenant_id, id, 'completed', 19, 1);
    await t.app.inject({ method: 'POST', url: `/otp/v1/verifications/${id}/check`, headers: bearer(key.secret), payload: { code: '5301' } });

    // The endpoint is down for the first try: 503, nothing counted as delivered.
    answers.push(503);
    received.length = 0;
    now = new Date(Date.now() + 2000);
    expect(await round()).toBe(5);
    // Sent side by side: in the order of the events (their ids), every status once (the check itself is no status).
    const firstTry = received.map((r) => JSON.parse(r.body) as { event_id: number; status: string }).sort((a, b) => a.event_id - b.event_id);
    expect(firstTry.map((e) => e.status)).toEqual(['queued', 'calling', 'answered', 'completed', 'approved']);
    for (const r of received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(verify(String(r.headers['x-tongdai-signature']), r.body, key.webhook_secret)).toBe(true);
      expect(verify(String(r.headers['x-tongdai-signature']), r.body, 'whsec_another')).toBe(false);
      expect(Number(r.headers['x-tongdai-event-id'])).toBe(JSON.parse(r.body).event_id);
    }
    // The first to arrive was refused (503).
    const refused = received[0];
    expect(JSON.parse(refused.body)).toEqual(expect.objectContaining({ type: 'verification.status', verification_id: id, phone: '84912005301' }));

    // Not due again before its time; at the first retry's time, only the refused one, same event.
    received.length = 0;
    expect(await round()).toBe(0);
    now = new Date(now.getTime() + OTP_WEBHOOK_RETRY_S[0] * 1000);
    expect(await round()).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0].body).toBe(refused.body);
    now = new Date(now.getTime() + 3_600_000);
    expect(await round()).toBe(0);

    // The key's list says how the last delivery went.
    const row = (await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin })).json().data.find((k: { id: number }) => k.id === key.id);
    expect(row.webhook_last).toEqual(expect.objectContaining({ status: 200, delivered: true }));
  });

  it('an endpoint that never takes it: tried on the schedule, then given up', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Webhook hỏng', webhook_url: url });
    now = new Date(Date.now() + 7_200_000);
    const svc = createVoiceOtpService(t.db, clock);
    const started = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005302' } });
    const { id } = started.json();
    const tid = await tenantId('demo');
    const tries = async () => (await t.db.withTenant(tid, async (tx) => (await tx.query<{ attempts: number; next_at: Date | null; gave_up_at: Date | null; last_status: number }>(
      'select attempts, next_at, gave_up_at, last_status from otp_webhook_deliveries where verification_id = $1 order by id limit 1', [id])).rows[0]));
    for (let i = 0; i <= OTP_WEBHOOK_RETRY_S.length; i++) {
      answers.push(...Array(10).fill(500));
      await round();
      answers.length = 0;
      now = new Date(now.getTime() + (OTP_WEBHOOK_RETRY_S[i] ?? 0) * 1000 + 1000);
    }
    const last = await tries();
    expect(last).toEqual(expect.objectContaining({ attempts: OTP_WEBHOOK_RETRY_S.length + 1, next_at: null, last_status: 500 }));
    expect(last.gave_up_at).not.toBeNull();
    void svc;
  });

  it('a URL at the PBX’s own internals is refused at save (422 WEBHOOK_HOST_REFUSED under its field); a bad URL is a 400', async () => {
    // The API's own port on loopback: a service port even where loopback is allowed.
    const own = await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: h.admin, payload: { name: 'Vào trong', webhook_url: 'http://127.0.0.1:5432/x' } });
    expect(own.statusCode).toBe(422);
    expect(own.json()).toEqual(expect.objectContaining({ code: 'WEBHOOK_HOST_REFUSED', details: [expect.objectContaining({ field: 'webhook_url', message: 'Địa chỉ webhook trỏ vào mạng nội bộ hoặc cổng dịch vụ của tổng đài: không được phép' })] }));
    const link = await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: h.admin, payload: { name: 'Metadata', webhook_url: 'http://169.254.169.254/latest' } });
    expect(link.statusCode).toBe(422);
    const bad = await t.app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers: h.admin, payload: { name: 'Sai', webhook_url: 'ftp://example.com/x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual(expect.objectContaining({ field: 'webhook_url', message: 'Địa chỉ webhook phải là URL http:// hoặc https:// (tối đa 500 ký tự)' }));
    const names = (await t.app.inject({ url: '/t/demo/voice-otp/keys', headers: h.admin })).json().data.map((k: { name: string }) => k.name);
    expect(names).not.toContain('Vào trong');
  });

  it('a name is judged at every try and the connection goes to the address judged; a name that turns private is not sent to', async () => {
    const port = (server.address() as { port: number }).port;
    const key = await createKey(h.admin, 'demo', { name: 'Webhook theo tên', webhook_url: `http://hooks.example:${port}/otp` });
    now = new Date(Date.now() + 14_400_000);
    await round();
    received.length = 0;
    const first = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005304' } });
    await round();
    // No system resolver knows hooks.example: it arrived because the judged address was used.
    expect(received.map((r) => JSON.parse(r.body).verification_id)).toEqual([first.json().id]);
    expect(received[0].headers.host).toBe(`hooks.example:${port}`);

    // The name now answers a private address: refused at the try, kept for a retry, nothing sent.
    dnsAnswer = '10.20.30.40';
    received.length = 0;
    const second = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005305' } });
    await round();
    expect(received).toEqual([]);
    const row = await t.db.withTenant(await tenantId('demo'), async (tx) => (await tx.query<{ last_error: string; next_at: Date | null }>(
      'select last_error, next_at from otp_webhook_deliveries where verification_id = $1', [second.json().id])).rows[0]);
    expect(row.last_error).toBe('host refused (private 10.20.30.40)');
    expect(row.next_at).not.toBeNull();
    dnsAnswer = '127.0.0.1';
  });

  it('a call no media worker reports on any more is failed after 3 minutes, and the app is told; a late report changes nothing', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Cuộc gọi mất', webhook_url: url });
    const svc = createVoiceOtpService(t.db, clock);
    const tid = await tenantId('demo');
    const started = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005306', ttl_s: 900 } });
    const { id } = started.json();
    // Within its 15 minutes: due, claimed, answered.
    now = new Date(Date.now() + 1000);
    while ((await svc.claimCalls(100)).length) { /* every due one claimed at `now` */ }
    await svc.recordCallOutcome(tid, id, 'answered', null, 1);
    // Its worker dies here: no "completed" ever comes.
    now = new Date(now.getTime() + 120_000);
    expect(await svc.sweepLostCalls()).toBe(0);
    now = new Date(now.getTime() + 61_000);
    expect(await svc.sweepLostCalls()).toBeGreaterThanOrEqual(1);
    const v = (await t.app.inject({ url: `/otp/v1/verifications/${id}`, headers: bearer(key.secret) })).json();
    expect(v.status).toBe('failed');
    expect(v.timeline.map((e: { status: string; detail: string }) => `${e.status}${e.detail ? ` ${e.detail}` : ''}`).slice(-2)).toEqual(['answered', 'failed lost']);
    received.length = 0;
    await round();
    expect(events().filter((e) => e.verification_id === id).map((e) => e.status)).toEqual(expect.arrayContaining(['failed']));
    // The worker's report arriving after all: nothing changes.
    expect(await svc.recordCallOutcome(tid, id, 'completed', 20, 1)).toBe(false);
    expect((await t.app.inject({ url: `/otp/v1/verifications/${id}`, headers: bearer(key.secret) })).json().status).toBe('failed');
  });

  it('a new signing secret is answered once and signs from then on; another tenant’s changes never reach this URL', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Đổi khoá ký', webhook_url: url });
    const rotated = await t.app.inject({ method: 'POST', url: `/t/demo/voice-otp/keys/${key.id}/webhook-secret`, headers: h.admin });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data.webhook_secret as string;
    expect(fresh).not.toBe(key.webhook_secret);
    // Another tenant cannot rotate it (404), nor see it.
    expect((await t.app.inject({ method: 'POST', url: `/t/abc/voice-otp/keys/${key.id}/webhook-secret`, headers: h.abcAdmin })).statusCode).toBe(404);
    // abc's key without a webhook starts a verification: nothing is sent anywhere for it.
    const abcKey = await createKey(h.abcAdmin, 'abc', { name: 'abc không webhook' });
    now = new Date(Date.now() + 10_800_000);
    await round();
    received.length = 0;
    const mine = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005303' } });
    await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(abcKey.secret), payload: { phone: '0982005303' } });
    await round();
    expect(received.map((r) => JSON.parse(r.body).verification_id)).toEqual([mine.json().id]);
    expect(verify(String(received[0].headers['x-tongdai-signature']), received[0].body, fresh)).toBe(true);
    expect(verify(String(received[0].headers['x-tongdai-signature']), received[0].body, key.webhook_secret)).toBe(false);
    expect(events('abc')).toEqual([]);
  });

  it('a key revoked with deliveries still due: nothing more is sent for it, the deliveries are given up as "key revoked"', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Thu hồi khi còn gửi', webhook_url: url });
    now = new Date(Date.now() + 14_400_000);
    await round();
    received.length = 0;
    const mine = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005306' } });
    expect(mine.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/t/demo/voice-otp/keys/${key.id}/revoke`, headers: h.admin })).statusCode).toBe(200);
    await round();
    expect(received.filter((r) => JSON.parse(r.body).verification_id === mine.json().id)).toEqual([]);
    const rows = await t.db.withTenant(await tenantId('demo'), async (tx) => (await tx.query<{ next_at: Date | null; gave_up: boolean; delivered: boolean; last_error: string }>(
      'select next_at, gave_up_at is not null as gave_up, delivered_at is not null as delivered, last_error from otp_webhook_deliveries where verification_id = $1', [mine.json().id])).rows);
    expect(rows).toEqual([{ next_at: null, gave_up: true, delivered: false, last_error: 'key revoked' }]);
  });

  it('deliveries done with are kept 30 days, then pruned; those still to be tried are kept whatever their age', async () => {
    const tid = await tenantId('demo');
    const key = await createKey(h.admin, 'demo', { name: 'Lưu giữ', webhook_url: url });
    const mine = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005304' } });
    const vid = mine.json().id as string;
    const day = 86_400_000;
    // Three more deliveries of the key, as the sender leaves them: delivered 31 days ago, given up 29 days ago, still due.
    await t.db.withTenant(tid, async (tx) => {
      const add = (createdDaysAgo: number, done: 'delivered' | 'gave_up' | null) =>
        tx.query(
          `insert into otp_webhook_deliveries (tenant_id, key_id, verification_id, body, attempts, next_at, delivered_at, gave_up_at, created_at)
           values ($1, $2, $3, '{}', 1, $4, $5, $6, $7)`,
          [tid, key.id, vid, done ? null : new Date(), done === 'delivered' ? new Date() : null, done === 'gave_up' ? new Date() : null, new Date(Date.now() - createdDaysAgo * day)],
        );
      await add(31, 'delivered');
      await add(29, 'gave_up');
      await add(40, null);
    });
    const ages = async () => (await t.db.withTenant(tid, (tx) => tx.query<{ days: number; due: boolean }>(
      `select round(extract(epoch from now() - created_at) / 86400)::int as days, next_at is not null as due from otp_webhook_deliveries where verification_id = $1 order by created_at`, [vid]))).rows;
    expect((await ages()).map((r) => r.days)).toEqual([40, 31, 29, 0]);
    expect(await pruneDeliveries(t.db, () => new Date(), 1)).toBeGreaterThanOrEqual(1);
    expect(await ages()).toEqual([{ days: 40, due: true }, { days: 29, due: false }, { days: 0, due: true }]);
  });

  it('the server\'s round sends a status change at once, woken by it (not at its next 60 s turn)', async () => {
    const key = await createKey(h.admin, 'demo', { name: 'Gửi ngay', webhook_url: url });
    // What earlier tests left due is sent by the first round, right at ready.
    const jobs = Fastify();
    scheduleOtpJobs(jobs, t.db, hosts, { everyMs: 60_000, sweepEveryMs: 3_600_000 });
    await jobs.ready();
    try {
      await new Promise((r) => setTimeout(r, 1500));
      received.length = 0;
      const t0 = Date.now();
      const mine = await t.app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer(key.secret), payload: { phone: '0912005305' } });
      expect(mine.statusCode).toBe(201);
      for (const until = Date.now() + 20_000; !events().some((e) => e.verification_id === mine.json().id) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      expect(events().filter((e) => e.verification_id === mine.json().id).map((e) => e.status)).toEqual(['queued']);
      expect(Date.now() - t0).toBeLessThan(20_000);
    } finally {
      const c0 = Date.now();
      await jobs.close();
      // Closing ends the round's wait at once.
      expect(Date.now() - c0).toBeLessThan(10_000);
    }
  });
});
