import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { FastifyInstance } from 'fastify';
import { migrate } from '../../db/migrate';
import { inTransaction } from '../../db/postgres';
import { DEMO_SIP } from '../../db/seed-data';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { openSipPassword } from '../subscribers/sip-password-box';
import { buildInternalServer } from './internal-server';

/**
 * Issue 12 item 5: the internal listener serves nobody without the shared secret, Kamailio gets
 * HA1 hashes, and the database keeps no SIP password in clear (ADR 0019).
 */
describe('internal listener: only Kamailio and the media workers (shared secret)', () => {
  let t: TestApp;
  let internal: FastifyInstance;
  let tenantId: number;
  let audioId: number;

  beforeAll(async () => {
    t = await startTestApp();
    internal = buildInternalServer(t.db);
    tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    audioId = await t.db.withTenant(tenantId, async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        "insert into pbx_audio (tenant_id, kind, name, file_name, mime, size_bytes, duration_seconds, bytes) values ($1, 'greeting', 'Lời chào', 'a.wav', 'audio/wav', 4, 1, $2) returning id",
        [tenantId, Buffer.from('RIFF')],
      );
      return rows[0].id;
    });
  });
  afterAll(async () => {
    await internal.close();
    await t.close();
  });

  // Every route the listener has: passwords, plans, fake registrations and calls, audio files.
  const routes = () =>
    [
      { method: 'GET', url: '/internal/sip/health' },
      { method: 'GET', url: '/internal/sip/process' },
      { method: 'GET', url: '/internal/sip/credentials?user=101&domain=demo.tongdai.local' },
      { method: 'GET', url: '/internal/sip/route?call_id=x1&source=trunk&from=0901000001&from_domain=carrier.example&to=02873000001' },
      { method: 'POST', url: '/internal/sip/registration', payload: { user: '101', domain: 'demo.tongdai.local', expires: 60 } },
      { method: 'GET', url: '/internal/sip/registrations?domain=demo.tongdai.local' },
      { method: 'GET', url: '/internal/sip/calls' },
      { method: 'GET', url: '/internal/sip/media/session?call_id=x1&step=0' },
      { method: 'POST', url: '/internal/sip/media/continue', payload: { call_id: 'x1', step: 0, choice: { kind: 'timeout' } } },
      { method: 'GET', url: `/internal/sip/media/audio?tenant_id=${tenantId}&id=${audioId}` },
    ] as const;
  const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`kamailio:${secret}`).toString('base64')}` });

  it('answers 401 on every route without the secret, with a wrong one, or with a prefix of it', async () => {
    const secret = INTERNAL_HEADERS['x-tongdai-internal'];
    const wrong = [{}, { 'x-tongdai-internal': 'wrong' }, { 'x-tongdai-internal': secret.slice(0, -1) }, { 'x-tongdai-internal': `${secret}x` }, basic('wrong'), { authorization: `Bearer ${secret}` }];
    for (const route of routes()) {
      for (const headers of wrong) {
        const res = await internal.inject({ ...route, headers });
        expect({ route: route.url, headers, status: res.statusCode, code: res.json().code }).toEqual({ route: route.url, headers, status: 401, code: 'UNAUTHORIZED' });
        expect(res.body).not.toContain('RIFF');
      }
    }
  });

  it('serves Kamailio (Basic credentials) and the media worker (header) with the secret', async () => {
    const secret = INTERNAL_HEADERS['x-tongdai-internal'];
    const audio = await internal.inject({ url: `/internal/sip/media/audio?tenant_id=${tenantId}&id=${audioId}`, headers: INTERNAL_HEADERS });
    expect([audio.statusCode, audio.body]).toEqual([200, 'RIFF']);
    const reg = await internal.inject({ method: 'POST', url: '/internal/sip/registration', headers: basic(secret), payload: { user: '101', domain: 'demo.tongdai.local', expires: 60 } });
    expect(reg.statusCode).toBe(200);
    for (const route of routes()) expect({ url: route.url, status: (await internal.inject({ ...route, headers: INTERNAL_HEADERS })).statusCode }).not.toEqual({ url: route.url, status: 401 });
  });

  it('refuses to start without a usable secret', () => {
    expect(() => buildInternalServer(t.db, { secret: '' })).toThrow(/INTERNAL_SECRET/);
    expect(() => buildInternalServer(t.db, { secret: 'short' })).toThrow(/INTERNAL_SECRET/);
  });

  it('gives Kamailio MD5(user:realm:password), never the password', async () => {
    const res = await internal.inject({ url: '/internal/sip/credentials?user=101&domain=DEMO.tongdai.local', headers: INTERNAL_HEADERS });
    expect(res.body).toBe(createHash('md5').update(`101:demo.tongdai.local:${DEMO_SIP.demo.admin.password}`).digest('hex'));
    expect(res.body).not.toContain(DEMO_SIP.demo.admin.password);
  });

  it('stores no SIP password in clear; the softphone still gets its own (password_telecom)', async () => {
    const { rows } = await t.db.withSystem((tx) => tx.query<{ tenant_id: number; extension: string; sip_password: string }>('select tenant_id, extension, sip_password from subscribers'));
    const clear = Object.values(DEMO_SIP).flatMap((x) => Object.values(x).map((s) => s.password));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) {
      expect(r.sip_password).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
      for (const p of clear) expect(r.sip_password).not.toContain(p);
    }
    // A plaintext password cannot be written any more (migration 0016's check).
    await expect(t.db.withSystem((tx) => tx.query("update subscribers set sip_password = 'Plain12345' where extension = '101'"))).rejects.toThrow(/subscribers_sip_password_sealed/);
    // Another tenant's sealed value does not open under this tenant (the tenant id is authenticated).
    const abc = rows.find((r) => r.tenant_id !== tenantId)!;
    expect(openSipPassword(abc.tenant_id, abc.sip_password)).toBe(DEMO_SIP.abc.admin.password);
    expect(openSipPassword(tenantId, abc.sip_password)).toBeNull();
    // A new extension and a reset password are sealed too, and GET /sip-account opens the user's own.
    const { admin } = await demoHeaders(t.app);
    const created = await t.app.inject({ method: 'POST', url: '/t/demo/subscribers', headers: admin, payload: { extension: '150', display_name: 'Mới', user_id: null } });
    const { id, password } = created.json().data;
    const reset = (await t.app.inject({ method: 'POST', url: `/t/demo/subscribers/${id}/reset-password`, headers: admin })).json().data.password;
    const stored = await t.db.withSystem(async (tx) => (await tx.query<{ sip_password: string }>('select sip_password from subscribers where id = $1', [id])).rows[0].sip_password);
    expect([stored.startsWith('v1.'), stored.includes(password), stored.includes(reset), openSipPassword(tenantId, stored)]).toEqual([true, false, false, reset]);
    const mine = await t.app.inject({ url: '/t/demo/sip-account', headers: admin });
    expect(mine.json().data.password_telecom).toBe(DEMO_SIP.demo.admin.password);
  });

  it('migration 0016 seals the passwords a database already holds in clear', async () => {
    // The database as it was before 0016: the check gone, plaintext rows, 0016 not applied.
    const client = new Client({ connectionString: t.dbUrl });
    await client.connect();
    try {
      await client.query('alter table subscribers drop constraint subscribers_sip_password_sealed');
      await client.query("update subscribers set sip_password = $1 where extension = '101' and tenant_id = $2", [DEMO_SIP.demo.admin.password, tenantId]);
      await client.query("delete from schema_migrations where name = '0016_sip_password_sealed.sql'");
      // Only the files up to 0016 (another helper's later migrations are not this test's business).
      const dir = mkdtempSync(join(tmpdir(), 'tongdai-migrations-'));
      const source = join(__dirname, '../../db/migrations');
      for (const f of readdirSync(source).filter((f) => f.endsWith('.sql') && f <= '0016')) copyFileSync(join(source, f), join(dir, f));
      copyFileSync(join(source, '0016_sip_password_sealed.sql'), join(dir, '0016_sip_password_sealed.sql'));
      expect(await migrate((fn) => inTransaction(client, fn), dir)).toEqual(['0016_sip_password_sealed.sql']);
      rmSync(dir, { recursive: true, force: true });
      const { rows } = await client.query("select sip_password from subscribers where extension = '101' and tenant_id = $1", [tenantId]);
      expect(rows[0].sip_password).toMatch(/^v1\./);
      expect(openSipPassword(tenantId, rows[0].sip_password)).toBe(DEMO_SIP.demo.admin.password);
    } finally {
      await client.end();
    }
    const res = await internal.inject({ url: '/internal/sip/credentials?user=101&domain=demo.tongdai.local', headers: INTERNAL_HEADERS });
    expect(res.body).toBe(createHash('md5').update(`101:demo.tongdai.local:${DEMO_SIP.demo.admin.password}`).digest('hex'));
  });
});
