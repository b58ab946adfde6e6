import { insertHotline, insertSwitchboard } from '@tongdai/testkit/telecom-factory';
import { createDialerService } from '../modules/campaigns/dialer.service';
import { createVoiceOtpService } from '../modules/voice-otp/voice-otp.service';
import { buildServer } from '../server';
import type { Db } from './db';
import { openDb } from './open';
import { DEMO, seedIfEmpty } from './seed';

/** Smoke run of the default engine: in-memory PGlite, same migrations, same API. */
describe('PGlite smoke', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: 'memory://' });
    expect(await seedIfEmpty(db)).toBe(true);
  }, 180_000); // PGlite's start, migrations and seed: 72 s in a loaded CI run (ci3 of 2026-11-26)
  afterAll(() => db.close());

  it('logs in and lists customers', async () => {
    const app = await buildServer({ db, jwtSecret: 'pglite-smoke-secret-pglite-smoke-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    expect(login.statusCode).toBe(200);
    const res = await app.inject({ url: '/t/demo/customers', headers: { authorization: `Bearer ${login.json().data.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toEqual({ page: 1, per_page: 10, total: 35 });
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok', db: 'pglite' });
    await app.close();
  });

  it('applies RLS as app_user: no tenant, no rows; wrong tenant insert refused', async () => {
    expect((await db.query<{ n: number }>('select count(*)::int as n from customers')).rows[0].n).toBe(0);
    const bad = db.withTenant(1, (tx) => tx.query(`insert into customers (tenant_id, name, phone, status) values (2, 'X', '0900000000', 'new')`));
    await expect(bad).rejects.toThrow(/row-level security/);
  });

  it('swaps two survey questions in one statement (the deferrable position key, migration 0047)', async () => {
    const app = await buildServer({ db, jwtSecret: 'pglite-smoke-secret-pglite-smoke-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const send = (url: string, payload: object) => app.inject({ method: 'POST', url: `/t/demo/${url}`, headers, payload });
    const category = (await send('survey-categories', { name: 'PGlite' })).json().data;
    for (const text of ['Một', 'Hai']) await send('survey-questions', { category_id: category.id, kind: 'text', text });
    const second = (await app.inject({ url: `/t/demo/survey-questions?category_id=${category.id}`, headers })).json().data[1];
    expect((await send(`survey-questions/${second.id}/move`, { direction: 'up' })).json().data.position).toBe(1);
    await app.close();
  });

  it('voice-OTP on PGlite (issue 35): a key, a start (advisory lock, uuid), a check, the call claim (skip locked)', async () => {
    const app = await buildServer({ db, jwtSecret: 'pglite-smoke-secret-pglite-smoke-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const tid = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    await db.withTenant(tid, async (tx) => {
      const sb = await insertSwitchboard(tx, tid, { name: 'OTP PGlite', host: '192.0.2.81', port: 5060 });
      await insertHotline(tx, tid, '02873005299', sb, '101');
      await tx.query("update pbx_numbers set otp_enabled = true where number = '02873005299'");
    });
    const key = (await app.inject({ method: 'POST', url: '/t/demo/voice-otp/keys', headers, payload: { name: 'PGlite' } })).json().data;
    const bearer = { authorization: `Bearer ${key.secret}` };
    const started = await app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer, payload: { phone: '0912000999', code: '1357' } });
    expect(started.statusCode).toBe(201);
    const check = await app.inject({ method: 'POST', url: `/otp/v1/verifications/${started.json().id}/check`, headers: bearer, payload: { code: '1357' } });
    expect(check.json()).toEqual({ status: 'approved' });
    const second = (await app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: bearer, payload: { phone: '0912000998' } })).json().id;
    expect((await createVoiceOtpService(db).claimCalls(10)).map((c) => [c.id, c.hotline])).toEqual([[second, '02873005299']]);
    await app.close();
  });

  it("the progressive dialer on PGlite (issue 34): ready, the claim (skip locked, THE hand-out, Decree 91, the hotline's minute), reports, the figures", async () => {
    const app = await buildServer({ db, jwtSecret: 'pglite-smoke-secret-pglite-smoke-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const tid = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const [hotline, admin] = await db.withTenant(tid, async (tx) => {
      const sb = await insertSwitchboard(tx, tid, { name: 'Dialer PGlite', host: '192.0.2.82', port: 5060 });
      await insertHotline(tx, tid, '02873005298', sb, '101');
      // Its calls-per-minute cap (the claim locks the hotline's row and counts its minute, on PGlite too).
      await tx.query("update pbx_numbers set max_calls_per_minute = 5 where number = '02873005298'");
      return [
        (await tx.query<{ id: number }>("select id from pbx_numbers where number = '02873005298'")).rows[0].id,
        (await tx.query<{ id: number }>("select id from users where username = 'admin'")).rows[0].id,
      ];
    });
    const category = (await app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers, payload: { name: 'PGlite dialer' } })).json().data;
    const question = (await app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers, payload: { category_id: category.id, kind: 'text', text: 'Ý kiến' } })).json().data;
    const made = await app.inject({ method: 'POST', url: '/t/demo/survey-campaigns', headers, payload: { name: 'PGlite tự động', mode: 'progressive', question_ids: [question.id], agent_ids: [admin], hotline_id: hotline } });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id;
    await db.withTenant(tid, (tx) => tx.query("insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) values ($1, $2, '84912000501', 'Chị Mai', now() - interval '1 minute')", [tid, id]));
    expect((await app.inject({ method: 'POST', url: `/t/demo/survey-campaigns/${id}/state`, headers, payload: { to: 'running' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'PUT', url: `/t/demo/survey-campaigns/${id}/ready`, headers, payload: { ready: true } })).json().data.ready).toBe(true);
    const dialer = createDialerService(db);
    const [call, ...more] = await dialer.claimCalls(5, new Date(), async () => true);
    expect(more).toEqual([]);
    expect(call).toMatchObject({ number: '84912000501', hotline: '02873005298', user_id: admin });
    expect((await dialer.report(tid, call.attempt_id, 'answered', { callId: 'pglite-dialer-1' }, new Date())).bridge).toMatchObject({ campaign_id: id });
    expect((await dialer.report(tid, call.attempt_id, 'bridged', {}, new Date())).applied).toBe(true);
    const progress = (await app.inject({ url: `/t/demo/survey-campaigns/${id}/progress`, headers })).json().data;
    expect(progress.dialer).toEqual({ calling: 0, talking: 1, ready: 1, answered: 1, abandoned: 0, hotline_minute: { cap: 5, started: 1 } });
    await app.close();
  });

  it('the automated voice survey on PGlite (issue 34): the claim within its channels, answered with no bridge, the keys saved as answers', async () => {
    const app = await buildServer({ db, jwtSecret: 'pglite-smoke-secret-pglite-smoke-secret' });
    const login = await app.inject({ method: 'POST', url: '/identity/login/tenant', payload: { ma_dn: DEMO.tenants.demo, ...DEMO.admin } });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const tid = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const hotline = await db.withTenant(tid, async (tx) => {
      const sb = await insertSwitchboard(tx, tid, { name: 'Voice PGlite', host: '192.0.2.83', port: 5060 });
      await insertHotline(tx, tid, '02873005297', sb, '101');
      return (await tx.query<{ id: number }>("select id from pbx_numbers where number = '02873005297'")).rows[0].id;
    });
    const category = (await app.inject({ method: 'POST', url: '/t/demo/survey-categories', headers, payload: { name: 'PGlite voice' } })).json().data;
    const question = (await app.inject({ method: 'POST', url: '/t/demo/survey-questions', headers, payload: { category_id: category.id, kind: 'rating', text: 'Đánh giá' } })).json().data;
    const made = await app.inject({ method: 'POST', url: '/t/demo/survey-campaigns', headers, payload: { name: 'PGlite khảo sát', mode: 'voice', voice_channels: 1, question_ids: [question.id], hotline_id: hotline } });
    expect([made.statusCode, made.json().data.voice_channels]).toEqual([201, 1]);
    const id = made.json().data.id;
    await db.withTenant(tid, (tx) => tx.query(
      "insert into campaign_contacts (tenant_id, campaign_id, number, name, next_at) values ($1, $2, '84912000601', 'Anh Nam', now() - interval '1 minute'), ($1, $2, '84912000602', 'Chị Lan', now() - interval '1 minute')", [tid, id]));
    expect((await app.inject({ method: 'POST', url: `/t/demo/survey-campaigns/${id}/state`, headers, payload: { to: 'running' } })).statusCode).toBe(200);
    const dialer = createDialerService(db);
    const [call, ...more] = await dialer.claimVoice(5, new Date());
    expect(more).toEqual([]);
    expect(call).toMatchObject({ number: '84912000601', campaign_name: 'PGlite khảo sát', user_id: null, questions: [{ id: question.id, kind: 'rating' }] });
    // Its one channel is up: nothing more.
    expect(await dialer.claimVoice(5, new Date())).toEqual([]);
    expect(await dialer.report(tid, call.attempt_id, 'answered', { callId: 'pglite-voice-1' }, new Date())).toEqual({ applied: true, bridge: null });
    expect((await dialer.report(tid, call.attempt_id, 'completed', { durationS: 20, answers: [{ question_id: question.id, keys: '5' }] }, new Date())).applied).toBe(true);
    const saved = await db.withTenant(tid, async (tx) => (await tx.query('select k.result, a.value from campaign_contacts k join survey_answers a on a.contact_id = k.id where k.id = $1', [call.contact_id])).rows);
    expect(saved).toEqual([{ result: 'agreed', value: 5 }]);
    expect((await dialer.claimVoice(5, new Date())).map((c) => c.number)).toEqual(['84912000602']);
    await app.close();
  });

  it('seeds only once', async () => {
    expect(await seedIfEmpty(db)).toBe(false);
  });
});
