import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { DEMO, CARRIER_SOURCE_IP, seededDatabase } from '../../../test/helpers';
import { startApiProcess, until, type ApiProcess } from '../../../test/api-process';
import { freePort } from '../../../test/pg-cluster';
import { testRedisUrl, stopTestRedis } from '../../../test/redis-server';
import { evapiStandIn, type EvapiStandIn } from '../../../test/evapi-stand-in';
import { openDb } from '../../db/open';
import type { Db } from '../../db/db';
import { insertSwitchboard } from '@tongdai/testkit/telecom-factory';

afterAll(stopTestRedis);

const REPO = resolve(__dirname, '../../../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/**
 * Two API processes (src/main.ts, as deployed) on one PostgreSQL database and one Redis, behind the
 * production nginx configuration (host/nginx.conf, its /api/ location proxying to an upstream of the
 * two, round robin): what a user does through one instance, the other honours at once (issue 42) —
 * login limits, a revoked session, a PBX change the next call's plan follows, a call's events.
 */
describe('two API instances behind nginx, one PostgreSQL, one Redis', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let db: Db;
  const apis: ApiProcess[] = [];
  const internal: string[] = [];
  let nginx: ChildProcess | null = null;
  let dir = '';
  let base = '';
  let carrierSrc = '';
  /** The instance holding the call plane (they started together: either may have taken it), and the other. */
  let holder = 0;
  let other = 1;
  /** Kamailio's event end as the holder sees it: what the call plane tells Kamailio (forget HA1s). */
  let evapi: EvapiStandIn;

  beforeAll(async () => {
    if (!NGINX) throw new Error('nginx is not installed: apt-get install nginx-light (npm test installs it)');
    fresh = await seededDatabase();
    db = await openDb({ databaseUrl: fresh.url });
    const tenantId = await db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
    const port = 5998;
    await db.withTenant(tenantId, (tx) => insertSwitchboard(tx, tenantId, { name: 'Nhà mạng hai máy', host: CARRIER_SOURCE_IP, port }));
    carrierSrc = `&src=${CARRIER_SOURCE_IP}:${port}`;
    dir = mkdtempSync(join(tmpdir(), 'tongdai-two-'));
    const redisUrl = await testRedisUrl();
    evapi = await evapiStandIn(process.env.INTERNAL_SECRET!);
    // What a deployment gives both instances alike: the secrets, the database, Redis, the proxy they trust.
    const shared = {
      DATABASE_URL: fresh.url, REDIS_URL: redisUrl, JWT_SECRET: randomBytes(32).toString('hex'), SIP_PASSWORD_KEY: process.env.SIP_PASSWORD_KEY!,
      INTERNAL_SECRET: process.env.INTERNAL_SECRET!, LOGIN_IP_LIMIT: '6', TRUST_PROXY: '127.0.0.1',
      // A routing snapshot trusted 10 minutes unless a change is heard: only the relay can refresh it in time.
      PBX_CONFIG_TTL_MS: '600000',
      KAMAILIO_EVAPI: `127.0.0.1:${evapi.port}`,
    };
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const started = await Promise.all([0, 1].map((i) => startApiProcess({ ...shared, PORT: String(ports[2 * i]), INTERNAL_PORT: String(ports[2 * i + 1]), DATA_DIR: join(dir, `data-${i}`) })));
    apis.push(...started);
    internal.push(...[0, 1].map((i) => `http://127.0.0.1:${ports[2 * i + 1]}/internal/sip`));
    // The production configuration, its upstream's two instances (api-1, api-2) at their test addresses.
    const conf = readFileSync(join(REPO, 'host/nginx.conf'), 'utf8');
    const upstream = /server api-1:4000[^;]*;\s*server api-2:4000[^;]*;/;
    expect(conf).toMatch(upstream);
    const listen = ports[4];
    writeFileSync(join(dir, 'headers.inc'), '');
    writeFileSync(
      join(dir, 'default.conf'),
      conf
          .replace('server api-1:4000', `server ${started[0].url.replace('http://', '')}`)
          .replace('server api-2:4000', `server ${started[1].url.replace('http://', '')}`)
          .replace('listen 80;', `listen 127.0.0.1:${listen};`)
          .replace('root /usr/share/nginx/html;', `root ${dir};`)
          .replaceAll('/etc/nginx/conf.d/security-headers.inc', join(dir, 'headers.inc')),
    );
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir};`).join(' ');
    writeFileSync(join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;\nevents {}\nhttp { include /etc/nginx/mime.types; access_log off; ${temp} include ${dir}/default.conf; }\n`);
    const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(check.stderr);
    nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    base = `http://127.0.0.1:${listen}/api`;
    await until('nginx answers for the API', () => fetch(`${base}/health`).then((r) => r.status), (s) => s === 200, 10_000);
    const statuses = await until('one instance follows the calls', () => Promise.all([0, 1].map((i) => calls(i).then((r) => r.status))), (st) => st.includes(200), 10_000);
    holder = statuses.indexOf(200);
    other = 1 - holder;
  }, 300_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    evapi?.close();
    await Promise.all(apis.map((a) => a.kill()));
    await db?.close();
    await fresh?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const login = async (url: string, user = DEMO.admin): Promise<string> => {
    const res = await fetch(`${url}/identity/login/tenant`, json({ ma_dn: 'demo', ...user }));
    if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { token: string } }).data.token;
  };
  const calls = (i: number) => fetch(`${internal[i]}/calls`, { headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! } });
  const me = (url: string, token: string) => fetch(`${url}/t/demo/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  const plan = async (i: number, callId: string, caller: string) => {
    const res = await fetch(`${internal[i]}/route?call_id=${callId}&source=trunk&from=${caller}&from_domain=carrier.example&to=02873000001&at=2024-06-10T09:00:00%2B07:00${carrierSrc}`, {
      headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! },
    });
    expect(res.status).toBe(200);
    return JSON.stringify(await res.json());
  };

  it('one instance follows the calls, the other stands by for them (ADR 0059)', async () => {
    expect((await calls(holder)).status).toBe(200);
    const standby = await calls(other);
    expect([standby.status, standby.headers.get('retry-after'), ((await standby.json()) as { code: string }).code]).toEqual([503, '1', 'CALL_PLANE_STANDBY']);
    // What any instance may answer, the standby answers: an extension's digest credentials.
    const ha1 = await fetch(`${internal[other]}/credentials?user=101&domain=demo.tongdai.local`, { headers: { 'x-tongdai-internal': process.env.INTERNAL_SECRET! } });
    expect([ha1.status, (await ha1.text()).length]).toEqual([200, 32]);
  });

  it('nginx spreads requests over both instances, and either serves a session the other opened', async () => {
    const token = await login(apis[0].url);
    expect([await me(apis[0].url, token), await me(apis[1].url, token)]).toEqual([200, 200]);
    expect(await Promise.all([0, 1, 2, 3].map(() => me(base, token)))).toEqual([200, 200, 200, 200]);
  });

  it('a session ended on one instance is refused by the other at once, and its socket there is closed', async () => {
    const token = await login(base);
    const ws = new WebSocket(`${apis[0].url.replace('http', 'ws')}/t/demo/events`, ['tongdai.v1', token]);
    await new Promise((ok, ko) => ws.once('open', ok).once('error', ko));
    const closed = new Promise<number>((ok) => ws.once('close', (code) => ok(code)));
    const out = await fetch(`${apis[1].url}/t/demo/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(204);
    expect(await me(apis[0].url, token)).toBe(401);
    const code = await Promise.race([closed, new Promise<string>((r) => setTimeout(() => r('still open after 5 s'), 5000))]);
    expect(code).not.toBe('still open after 5 s');
  });

  it('the login limit per client is one count across the instances', async () => {
    // LOGIN_IP_LIMIT 6 a minute for the client nginx names (X-Forwarded-For, trusted from 127.0.0.1):
    // counted per instance, twelve would pass.
    // Another user name each time: the limit per account (ADR 0018) is not what is counted here.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const attempt = json({ ma_dn: 'demo', username: `khong-co-${i}`, password: 'sai-mat-khau' });
      statuses.push((await fetch(`${base}/identity/login/tenant`, { ...attempt, headers: { ...attempt.headers, 'x-forwarded-for': '198.51.100.7' } })).status);
    }
    console.log(`eight logins from one client through nginx: ${statuses.join(' ')}`);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.slice(0, 6).every((s) => s !== 429)).toBe(true);
  });

  it('a PBX change saved through one instance routes the next call planned by the other', async () => {
    // The holder of the call plane (ADR 0059) has the tenant's configuration cached (it answered a
    // plan), for 10 minutes. The admin saves through the other instance.
    expect(await plan(holder, `two-before-${Date.now()}`, '0904111222')).not.toContain('"reject"');
    const token = await login(apis[other].url);
    const blocked = await fetch(`${apis[other].url}/pbx/partner/blocked-in`, { ...json({ number: '0904111222', note: 'Hai máy' }), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
    expect(blocked.status).toBe(201);
    const saved = Date.now();
    await until('the other instance refuses the blocked caller', () => plan(holder, `two-after-${Date.now()}`, '0904111222'), (p) => p.includes('"reject"'), 5_000);
    console.log(`a blocked number saved on one instance refused by the other's plan ${Date.now() - saved} ms later`);
  });

  it("an extension's SIP password reset through the standby: the holder tells Kamailio to forget the tenant's HA1s", async () => {
    await until('the holder reads Kamailio\'s events', () => evapi.received.length, (n) => n >= 0, 1000);
    const token = await login(apis[other].url);
    const list = await fetch(`${apis[other].url}/t/demo/subscribers?search=101`, { headers: { authorization: `Bearer ${token}` } });
    const id = ((await list.json()) as { data: { id: number; extension: string }[] }).data.find((x) => x.extension === '101')!.id;
    const before = evapi.received.filter((m) => m.forget).length;
    const reset = await fetch(`${apis[other].url}/t/demo/subscribers/${id}/reset-password`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(200);
    const forgets = await until('a forget on Kamailio\'s event stream', () => evapi.received.filter((m) => m.forget), (f) => f.length > before, 5_000);
    expect(forgets.at(-1)!.forget).toBe('@demo.tongdai.local');
  });

  it("a call planned by one instance reaches a socket the other serves", async () => {
    const token = await login(base);
    const ws = new WebSocket(`${apis[other].url.replace('http', 'ws')}/t/demo/events`, ['tongdai.v1', token]);
    const heard: { type?: string; callId?: string }[] = [];
    ws.on('message', (m: Buffer) => heard.push(JSON.parse(m.toString())));
    await new Promise((ok, ko) => ws.once('open', ok).once('error', ko));
    try {
      const callId = `two-call-${Date.now()}`;
      await plan(holder, callId, '0904000001');
      await until('the ringing call on the socket', () => heard.some((e) => e.type === 'ringing' && e.callId === callId), Boolean, 10_000);
    } finally {
      ws.terminate();
    }
  });

  it('an instance stopped as a deploy stops it (SIGTERM) while requests come through nginx: none refused', async () => {
    const token = await login(base);
    const statuses: number[] = [];
    let going = true;
    const traffic = (async () => {
      while (going) statuses.push(await me(base, token).catch(() => 0));
    })();
    // Three answers before the stop, counted: at load 14 (ci2 of the thirty-ninth session) none came in 300 ms.
    for (const until = Date.now() + 20_000; statuses.length < 3 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    const beforeStop = statuses.length;
    await apis[other].stop();
    // Requests before, during and after the stop: at least a second and five answers after it (counted, not
    // timed: at load 13 eight requests in all came through in 1.3 s, ci2 of the thirty-seventh session).
    const afterStop = statuses.length;
    const stoppedAt = Date.now();
    while ((statuses.length < afterStop + 5 || Date.now() - stoppedAt < 1000) && Date.now() - stoppedAt < 20_000) await new Promise((r) => setTimeout(r, 50));
    going = false;
    await traffic;
    console.log(`${statuses.length} requests through nginx while one instance stopped (${beforeStop} before, ${afterStop - beforeStop} during, ${statuses.length - afterStop} after): ${statuses.filter((x) => x !== 200).length} not 200`);
    expect(beforeStop).toBeGreaterThan(0);
    expect(statuses.length - afterStop).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
  });
});
