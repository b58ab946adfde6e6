import { SESSION_ENDED_CLOSE, type PbxCallEvent } from '@tongdai/contracts';
import { bearer, DEMO, login, startTestApp, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { testRedisUrl as redisUrl, stopTestRedis } from '../../../test/redis-server';
import { buildServer } from '../../server';
import { createTokenService } from '../auth/tokens';
import { redisHub } from './call-event-hub';

// This file's own redis-server (test/redis-server.ts), stopped when the file is done.
afterAll(stopTestRedis);

type Socket = Awaited<ReturnType<TestApp['app']['injectWS']>>;

// A call of the staff account's own extension (102): the sockets filter events by who may see them (issue 14).
const event = (callId: string): PbxCallEvent => ({ kind: 'tongdai.pbx-call', version: 1, callId, at: 1, type: 'answered', extension: '102' });
const STAFF_CALL = { extensions: ['102'] };

/** What a socket hears, and how it closed. */
function watch(ws: Socket) {
  const heard: string[] = [];
  ws.on('message', (m: Buffer) => heard.push(JSON.parse(m.toString()).callId));
  const closed = new Promise<number>((resolve) => ws.on('close', (code: number) => resolve(code)));
  const closedWithin = (ms: number) => Promise.race([closed, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);
  return { heard, closedWithin };
}
const settle = () => new Promise((r) => setTimeout(r, 100));

/**
 * Issue 12 item 7: a session that ends (logout, lock, password change) takes its events socket
 * with it, and a locked account's sessions stay dead after unlocking.
 */
describe('sessions end everywhere: tokens and events sockets', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let staffId: number;
  let staffRole: number;
  const open = (app: TestApp['app'], token: string) => app.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } });
  const staffAccount = (status: 'active' | 'locked') => ({ full_name: 'Nhân viên tổng đài', username: 'nhanvien', email: '', phone: '', role_id: staffRole, status });
  const meStatus = async (token: string) => (await t.app.inject({ url: '/t/demo/me', headers: bearer(token) })).statusCode;

  beforeAll(async () => {
    t = await startTestApp();
    admin = bearer(await login(t.app, 'demo', DEMO.admin));
    const accounts = (await t.app.inject({ url: '/t/demo/accounts', headers: admin })).json().data as { id: number; username: string; role_id: number }[];
    ({ id: staffId, role_id: staffRole } = accounts.find((a) => a.username === 'nhanvien')!);
  });
  afterAll(() => t.close());

  it('logout closes the session\'s socket, which then hears nothing; another session\'s socket stays', async () => {
    const [token, other] = [await login(t.app, 'demo', DEMO.staff), await login(t.app, 'demo', DEMO.staff)];
    const [ws, otherWs] = [await open(t.app, token), await open(t.app, other)];
    const [mine, theirs] = [watch(ws), watch(otherWs)];
    try {
      expect((await t.app.inject({ method: 'POST', url: '/t/demo/logout', headers: bearer(token) })).statusCode).toBe(204);
      expect(await mine.closedWithin(2000)).toBe(SESSION_ENDED_CLOSE);
      t.app.deps.hub.publish(createTokenService(TEST_JWT_SECRET).read(token)!.tid, event('after-logout'), STAFF_CALL);
      await settle();
      expect(mine.heard).toEqual([]);
      expect(theirs.heard).toContain('after-logout');
      expect(await theirs.closedWithin(10)).toBe('still open');
    } finally {
      ws.terminate();
      otherWs.terminate();
    }
  });

  it('locking an account ends its sessions for good (not back after unlocking) and closes its sockets', async () => {
    const token = await login(t.app, 'demo', DEMO.staff);
    const ws = watch(await open(t.app, token));
    const lock = await t.app.inject({ method: 'PUT', url: `/t/demo/accounts/${staffId}`, headers: admin, payload: staffAccount('locked') });
    expect(lock.statusCode).toBe(200);
    expect(await ws.closedWithin(2000)).toBe(SESSION_ENDED_CLOSE);
    expect(await meStatus(token)).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `/t/demo/accounts/${staffId}`, headers: admin, payload: staffAccount('active') })).statusCode).toBe(200);
    expect(await meStatus(token)).toBe(401);
    await expect(open(t.app, token)).rejects.toThrow(/401/);
    expect(await meStatus(await login(t.app, 'demo', DEMO.staff))).toBe(200);
  });

  it("a password set by an administrator closes the user's sockets; the administrator's own stays open", async () => {
    const adminToken = await login(t.app, 'demo', DEMO.admin);
    const staffWs = watch(await open(t.app, await login(t.app, 'demo', DEMO.staff)));
    const adminWs = watch(await open(t.app, adminToken));
    const pw = { password: 'MoiMoi@2026', password_confirmation: 'MoiMoi@2026' };
    expect((await t.app.inject({ method: 'PUT', url: `/t/demo/accounts/${staffId}/password`, headers: bearer(adminToken), payload: pw })).statusCode).toBe(204);
    expect(await staffWs.closedWithin(2000)).toBe(SESSION_ENDED_CLOSE);
    expect(await adminWs.closedWithin(100)).toBe('still open');
  });
});

describe('open sockets re-check their session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ sessionCheckMs: 100 });
  });
  afterAll(() => t.close());
  const openAs = async () => {
    const token = await login(t.app, 'demo', DEMO.staff);
    const claims = createTokenService(TEST_JWT_SECRET).read(token)!;
    const ws = watch(await t.app.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } }));
    const sql = (text: string) => t.db.withTenant(claims.tid, (tx) => tx.query(text, [claims.sid]));
    return { ws, sql };
  };

  it('closes when the session was revoked by a path that did not tell the hub', async () => {
    const { ws, sql } = await openAs();
    expect(await ws.closedWithin(300)).toBe('still open');
    await sql('update sessions set revoked_at = now() where id = $1');
    expect(await ws.closedWithin(2000)).toBe(SESSION_ENDED_CLOSE);
  });

  it('closes at the absolute session limit (12 hours after login), however active', async () => {
    const { ws, sql } = await openAs();
    await sql("update sessions set created_at = now() - interval '12 hours 1 minute' where id = $1");
    expect(await ws.closedWithin(2000)).toBe(SESSION_ENDED_CLOSE);
  });
});

describe('session ends across API instances (Redis)', () => {
  it('a logout on one instance closes the socket another instance holds', async () => {
    const t = await startTestApp({ hub: await redisHub(await redisUrl()) });
    const hubB = await redisHub(await redisUrl());
    const b = await buildServer({ db: t.db, jwtSecret: TEST_JWT_SECRET, hub: hubB });
    await b.ready(); // injectWS, unlike inject, does not wait for the routes
    try {
      const token = await login(t.app, 'demo', DEMO.staff);
        const ws = watch(await b.injectWS('/t/demo/events', { headers: { 'sec-websocket-protocol': `tongdai.v1, ${token}` } }));
      expect((await t.app.inject({ method: 'POST', url: '/t/demo/logout', headers: bearer(token) })).statusCode).toBe(204);
      expect(await ws.closedWithin(3000)).toBe(SESSION_ENDED_CLOSE);
    } finally {
      await b.close();
      await hubB.close();
      await t.app.deps.hub.close();
      await t.close();
    }
  });
});
