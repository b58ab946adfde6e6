import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { spawnDaemon } from '../../scripts/lib/daemon.mjs';
import { freeTcpBlock, freeTcpPort, freeUdpPort, kamailioAvailable, startKamailio } from '../../scripts/lib/kamailio.mjs';
import { mediaAvailable, startMediaWorker } from '../../scripts/lib/media.mjs';
import { rtpengineAvailable, startRtpengine } from '../../scripts/lib/rtpengine.mjs';
import { serveWeb, startApi } from '../../scripts/lib/stack.mjs';

/**
 * The product on two API instances (issue 42, docs/adr/0059), for one spec: one throwaway PostgreSQL
 * and one Redis, two API processes (src/main.ts as deployed, the same secrets), nginx in front of
 * their public ports with host/nginx.conf's /api/ location and its `upstream tongdai_api` (api-1 and
 * api-2 at their local ports), the host and the remotes served as the e2e stack serves them with
 * config.json naming nginx, Kamailio asking both internal listeners (`apiInternalUrl2`), one media
 * worker asking both (MEDIA_API_URL comma-separated), and the reports on a streaming replica of the
 * PostgreSQL (REPORTS_DATABASE_URL, made by scripts/postgres/make-replica.sh as the compose replica is:
 * ADR 0058) for both instances. Every port comes from scripts/lib/ports.mjs
 * (the run's TONGDAI_PORT_RANGE), never a fixed one: nothing meets the worker's own stack.
 * rtpengine, as the e2e stack runs it: browser to browser is peer to peer (sip/kamailio.cfg), but a recorded
 * call goes through the media worker, whose plain RTP rtpengine bridges to the browsers' WebRTC.
 * A missing program fails the start, naming what to install.
 */
export interface PairApi {
  /** Its public port (one of nginx's upstream servers) and internal listener (Kamailio's, the worker's). */
  port: number;
  internalPort: number;
  internalUrl: string;
  /** Its output (stdout and stderr, appended across its starts). */
  log: string;
  proc: ChildProcess | null;
}

/**
 * One line of nginx's access log: when it was logged (ms), the status, the upstream servers tried in order
 * (the last one answered; nginx's own name when none was live), the method and the URI.
 */
export interface Access { at: number; status: number; tried: string[]; method: string; uri: string }

/** What an instance's internal listener says of the call plane (GET /internal/sip/calls). */
export type Plane = { role: 'holder'; eventsConnected: boolean; active: number } | { role: 'standby' } | { role: 'down'; status: number | null };

export interface Pair {
  /** The host's origin (the pages' baseURL). */
  webUrl: string;
  /** The API as the browsers reach it: nginx's /api/. */
  apiUrl: string;
  sipWsUrl: string;
  apis: [PairApi, PairApi];
  plane(i: number): Promise<Plane>;
  /** SIGTERM, as a deploy stops an instance (its shutdown hooks run); resolves once it has exited, with how long that took. */
  stopApi(i: number): Promise<number>;
  /** Starts instance i again on its ports; resolves once /health answers. */
  startApi(i: number): Promise<void>;
  /** nginx's access log, a request a line (a WebSocket's when it closes). */
  access(): Access[];
  /**
   * Resolves once nginx passes requests to instance i again (a /health through nginx answered by it),
   * with how long that took: a deploy stops the next instance only after this. (With max_fails=1
   * fail_timeout=5s nginx kept a server it had found refusing out for 5 s once it was back, and a
   * holder stopped within them left it with no server; host/nginx.conf now has max_fails=0.)
   */
  nginxServes(i: number, ms?: number): Promise<number>;
  /** The last lines of every log of the pair, for a failed test's report. */
  logTails(lines?: number): { name: string; body: string }[];
  stop(): Promise<void>;
}

/** The repository (host/nginx.conf is read from it). */
const ROOT = resolve(import.meta.dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const isRoot = process.getuid?.() === 0;

/** A binary on PATH, else in the newest /usr/lib/postgresql/<v>/bin (as api/test/pg-cluster.ts finds them). */
function findBin(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', name))) return join(root, v, 'bin', name);
  return null;
}

/** What this machine lacks for the pair, by package (empty when nothing). */
export function pairMissing(): string[] {
  return [
    ...(findBin('initdb') && findBin('pg_ctl') ? [] : ['PostgreSQL (apt-get install -y postgresql)']),
    ...(findBin('redis-server') ? [] : ['Redis (apt-get install -y redis-server)']),
    ...(NGINX ? [] : ['nginx (apt-get install -y nginx-light)']),
    ...(kamailioAvailable() ? [] : ['Kamailio (node scripts/lib/system.mjs test installs it)']),
    ...(mediaAvailable() ? [] : ['the media worker\'s dependencies (pnpm install)']),
    ...(rtpengineAvailable() ? [] : ['rtpengine (node scripts/lib/system.mjs test installs it)']),
  ];
}

const tcpAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** A failure `until` does not wait out (a process that exited). */
class Fatal extends Error {}

/** Polls `fn` until `ok` holds (an error thrown meanwhile is "not yet", but a Fatal one); fails after `ms` with what it last saw. */
async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    try {
      last = await fn();
      if (ok(last)) return last;
    } catch (e) {
      if (e instanceof Fatal) throw e;
    }
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type PgServer = { url: string; log: string; stop(): void };

/**
 * A PostgreSQL data folder `name` under `dir` (initdb refuses root: then it belongs to `postgres`, as
 * api/test/pg-cluster.ts makes it), with `run` to run a PostgreSQL program on it as its owner.
 */
function pgFolder(dir: string, name: string) {
  const base = join(dir, name);
  mkdirSync(base);
  if (isRoot) chownSync(base, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const run = (bin: string, args: string[]) => execFileSync(...((isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]) as [string, string[]]), { stdio: 'pipe' });
  return { base, data: join(base, 'data'), log: join(base, 'pg.log'), run };
}

/** Starts the server of a folder on a free port (`options`: more -c settings), stopped with this process at the latest. */
async function servePg(f: ReturnType<typeof pgFolder>, pgCtl: string, options = ''): Promise<PgServer> {
  const port = await freeTcpPort();
  f.run(pgCtl, ['-D', f.data, '-l', f.log, '-o', `-p ${port} -k ${f.base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 ${options}`.trim(), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try { f.run(pgCtl, ['-D', f.data, '-m', 'immediate', '-w', 'stop']); } catch { /* already down */ }
  };
  process.once('exit', stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, log: f.log, stop };
}

/** A throwaway PostgreSQL cluster. */
async function startPostgres(dir: string): Promise<PgServer> {
  const initdb = findBin('initdb');
  const pgCtl = findBin('pg_ctl');
  if (!initdb || !pgCtl) throw new Error('The two-instance pair needs PostgreSQL (initdb, pg_ctl): apt-get install -y postgresql');
  const f = pgFolder(dir, 'pg');
  // C.UTF-8 so lower()/ILIKE fold Vietnamese capitals the way PGlite does (as the API's tests run it).
  f.run(initdb, ['-D', f.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  return servePg(f, pgCtl);
}

/**
 * A streaming replica of the pair's PostgreSQL for the reports, made by the script the compose replica runs
 * (scripts/postgres/make-replica.sh: pg_basebackup -R -X stream; api/test/pg-cluster.ts's startReplica, which
 * Playwright's loader cannot import from this ES module, makes the API tests' replicas the same way). initdb's
 * trust lets the replication connection in from 127.0.0.1.
 */
async function startReplica(dir: string, primaryPort: number): Promise<PgServer> {
  const pgCtl = findBin('pg_ctl');
  const binDir = pgCtl && dirname(realpathSync(pgCtl));
  if (!pgCtl || !binDir || !existsSync(join(binDir, 'pg_basebackup'))) throw new Error('The pair\'s reports replica needs pg_basebackup: apt-get install -y postgresql');
  const f = pgFolder(dir, 'pg-replica');
  f.run('env', [
    `PATH=${binDir}:${process.env.PATH ?? ''}`, `PGDATA=${f.data}`, 'PRIMARY_HOST=127.0.0.1', `PRIMARY_PORT=${primaryPort}`,
    'REPLICATION_USER=postgres', 'BASEBACKUP_EXTRA=--no-sync', 'sh', join(ROOT, 'scripts', 'postgres', 'make-replica.sh'),
  ]);
  return servePg(f, pgCtl, '-c hot_standby=on');
}

/** A redis-server without persistence (no RDB, no AOF), in its own process group (taken down with this process). */
async function startRedis(dir: string): Promise<{ url: string; log: string; stop(): Promise<void> }> {
  const bin = findBin('redis-server');
  if (!bin) throw new Error('The two-instance pair needs Redis: apt-get install -y redis-server');
  const work = join(dir, 'redis');
  mkdirSync(work);
  const port = await freeTcpPort();
  const log = join(work, 'redis.log');
  const { proc, stop } = spawnDaemon(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work, '--daemonize', 'no', '--loglevel', 'warning'], { cwd: work, log });
  await until('redis-server answers', async () => {
    if (proc.exitCode !== null) throw new Fatal(`redis-server exited (${proc.exitCode}): ${readFileSync(log, 'utf8')}`);
    return tcpAnswers(port);
  }, Boolean, 10_000);
  return { url: `redis://127.0.0.1:${port}`, log, stop };
}

/**
 * host/nginx.conf as a local nginx runs it: its upstream's api-1:4000 and api-2:4000 at the two
 * instances' ports (their parameters kept), listening on loopback, the security
 * headers' include empty (the API sends its own on /api/), its own pid, logs and temp folders.
 */
async function startNginx(dir: string, upstreams: [number, number]): Promise<{ port: number; log: string; accessLog: string; stop(): Promise<void> }> {
  if (!NGINX) throw new Error('The two-instance pair needs nginx: apt-get install -y nginx-light');
  // A port found free may be taken before nginx binds it (ci6 of the thirty-fifth session: another e2e worker's
  // static server answered on it, 404 for /api/health, and a bare "something listens" took it for nginx). nginx
  // then logs bind() failed and retries for seconds: that start is stopped and another port chosen.
  for (let attempt = 1; ; attempt++) {
    const started = await startNginxOn(dir, await freeTcpPort(), upstreams);
    if (started) return started;
    if (attempt === 3) throw new Error('nginx found its port taken three times in a row');
  }
}

/** One nginx start on `port`: null when another process holds the port (nginx stopped again). */
async function startNginxOn(dir: string, port: number, upstreams: [number, number]): Promise<{ port: number; log: string; accessLog: string; stop(): Promise<void> } | null> {
  if (!NGINX) throw new Error('The two-instance pair needs nginx: apt-get install -y nginx-light');
  const work = join(dir, 'nginx');
  rmSync(work, { recursive: true, force: true });
  const temp = join(work, 'temp');
  mkdirSync(temp, { recursive: true });
  // Run as root, nginx's workers are `nobody`: they must reach the temp folders.
  chmodSync(work, 0o755);
  chmodSync(temp, 0o777);
  let conf = readFileSync(join(ROOT, 'host', 'nginx.conf'), 'utf8');
  const edits: [string, string][] = [
    ['server api-1:4000', `server 127.0.0.1:${upstreams[0]}`],
    ['server api-2:4000', `server 127.0.0.1:${upstreams[1]}`],
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['root /usr/share/nginx/html;', `root ${work};`],
    ['/etc/nginx/conf.d/security-headers.inc', join(work, 'headers.inc')],
  ];
  for (const [from, to] of edits) {
    if (!conf.includes(from)) throw new Error(`host/nginx.conf no longer has "${from}": e2e/support/pair.ts must follow it`);
    conf = conf.replaceAll(from, to);
  }
  writeFileSync(join(work, 'headers.inc'), '');
  writeFileSync(join(work, 'default.conf'), conf);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(temp, t)};`).join(' ');
  const log = join(work, 'error.log');
  const accessLog = join(work, 'access.log');
  writeFileSync(
    join(work, 'nginx.conf'),
    `pid ${work}/nginx.pid; error_log ${log} warn; daemon off;\nevents {}\n` +
      `http { include /etc/nginx/mime.types; log_format pair '$msec $status $upstream_addr $request_method $uri'; access_log ${accessLog} pair; ${temps} include ${work}/default.conf; }\n`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', work, '-c', join(work, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the pair's configuration: ${check.stderr}`);
  const { proc, stop } = spawnDaemon(NGINX, ['-p', work, '-c', join(work, 'nginx.conf')], { cwd: work, log: join(work, 'nginx.out') });
  const bindFailed = () => existsSync(log) && /bind\(\) to \S+ failed \(98/.test(readFileSync(log, 'utf8'));
  // nginx's own answer (its Server header), not whatever listens there.
  const state = await until('nginx answers on its port', async () => {
    if (bindFailed()) return 'taken';
    if (proc.exitCode !== null) throw new Fatal(`nginx exited (${proc.exitCode}): ${readFileSync(log, 'utf8')}`);
    const res = await fetch(`http://127.0.0.1:${port}/pair-probe`);
    return res.headers.get('server')?.startsWith('nginx') ? 'nginx' : 'other';
  }, (s) => s !== 'other', 10_000);
  if (state === 'taken') {
    await stop();
    return null;
  }
  return { port, log, accessLog, stop };
}

/** Starts the pair; everything it started is stopped again when a part fails. */
export async function startPair(): Promise<Pair> {
  const missing = pairMissing();
  if (missing.length) throw new Error(`The two-instance e2e needs ${missing.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-e2e-pair-'));
  // PostgreSQL (as `postgres`) and nginx's workers (`nobody`) reach their folders in it.
  chmodSync(dir, 0o755);
  const stops: (() => Promise<void> | void)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await Promise.resolve(stop()).catch(() => undefined);
  };
  try {
    const [pg, redis] = await Promise.all([startPostgres(dir), startRedis(dir)]);
    stops.push(pg.stop, redis.stop);
    // The reports' replica, copied from the primary before the first instance migrates it: the schema and
    // the seed reach it as WAL, as a replica made beside a new deployment gets them.
    const replica = await startReplica(dir, Number(new URL(pg.url).port));
    stops.push(replica.stop);
    // The ports last, once PostgreSQL and Redis are up: a port found free is bound a moment later, not after
    // initdb's seconds, when another worker's stack may have taken it (ci6: nginx's port answered 404).
    const ports = {
      api: [await freeTcpPort(), await freeTcpPort()] as [number, number],
      internal: [await freeTcpPort(), await freeTcpPort()],
      evapi: await freeTcpPort(),
      ws: await freeTcpPort(),
      web: await freeTcpBlock(6),
      sip: await freeUdpPort(),
      media: await freeUdpPort(),
      rtpengine: await freeUdpPort(),
    };
    const internalSecret = randomBytes(32).toString('base64url');
    const sipWsUrl = `ws://127.0.0.1:${ports.ws}`;
    // What a deployment gives both instances alike (docker-compose's api-1 and api-2): the database,
    // Redis, the secrets, the proxy they trust, Kamailio; as the e2e stack's API otherwise (global-setup).
    const shared: Record<string, string> = {
      DATABASE_URL: pg.url, REDIS_URL: redis.url, REPORTS_DATABASE_URL: replica.url,
      JWT_SECRET: randomBytes(48).toString('base64url'), SIP_PASSWORD_KEY: randomBytes(32).toString('hex'), INTERNAL_SECRET: internalSecret,
      TRUST_PROXY: '127.0.0.1', LOGIN_IP_LIMIT: '1000', TONGDAI_TEST_CLOCK: '1',
      SIP_WS_URL: sipWsUrl, KAMAILIO_EVAPI: `127.0.0.1:${ports.evapi}`, KAMAILIO_SIP: `127.0.0.1:${ports.sip}`,
      TRUNK_ALLOWED_NETWORKS: '127.0.0.1/32', PBX_SERVICE_PORTS: String(ports.media),
      // One recordings store for both (a shared volume in production).
      RECORDINGS_DIR: join(dir, 'recordings'),
    };
    const apis: [PairApi, PairApi] = [0, 1].map((i) => ({
      port: ports.api[i], internalPort: ports.internal[i], internalUrl: `http://127.0.0.1:${ports.internal[i]}/internal/sip`, log: join(dir, `api-${i + 1}.log`), proc: null,
    })) as [PairApi, PairApi];
    const launch = async (i: number) => {
      const api = apis[i];
      const proc = startApi({ port: api.port, databaseUrl: pg.url, dataDir: join(dir, `data-${i + 1}`), env: { ...shared, INTERNAL_PORT: String(api.internalPort) }, log: api.log });
      api.proc = proc;
      // 240 s: tsx compiling the API under a loaded machine's other work (api/test/api-process.ts).
      await until(`API instance ${i + 1} answers /health (log ${api.log})`, async () => {
        if (proc.exitCode !== null) throw new Fatal(`API instance ${i + 1} exited (${proc.exitCode})`);
        return (await fetch(`http://127.0.0.1:${api.port}/health`)).ok;
      }, Boolean, 240_000).catch((e: Error) => {
        throw new Error(`${e.message}\n${readFileSync(api.log, 'utf8').slice(-2000)}`);
      });
    };
    const stopApi = async (i: number): Promise<number> => {
      const proc = apis[i].proc;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return 0;
      const t0 = Date.now();
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const late = setTimeout(() => proc.kill('SIGKILL'), 60_000);
      await gone;
      clearTimeout(late);
      return Date.now() - t0;
    };
    // A start that failed half-way: no shutdown to wait for.
    stops.push(() => { for (const a of apis) if (a.proc && a.proc.exitCode === null && a.proc.signalCode === null) a.proc.kill('SIGKILL'); });
    // Kamailio beside the first instance, not after it: an API that finds Kamailio's event socket
    // closed waits 5 s for the calls it kept before serving (ADR 0046). The first instance migrates
    // and seeds the empty database; the second, started after it, finds it ready.
    // nginx first (it chooses its own port, and the web's config.json names it); its upstreams answer later.
    const nginx = await startNginx(dir, ports.api);
    stops.push(nginx.stop);
    const apiUrl = `http://127.0.0.1:${nginx.port}/api`;
    // Its media ports in a block of 100 chosen by its control port (as a stack's by its API port: stack.mjs
    // rtpPorts); rtpengine passes over a port another process holds.
    const rtpMin = 30_000 + (ports.rtpengine % 250) * 100;
    const rtpengine = await startRtpengine({ ngPort: ports.rtpengine, portMin: rtpMin, portMax: rtpMin + 99, dir: join(dir, 'rtpengine') });
    stops.push(rtpengine.stop);
    // Every part settled before going on: one that failed must not leave another still starting (and unstoppable).
    const started = await Promise.allSettled([
      launch(0),
      startMediaWorker({
        port: ports.media, apiInternalUrl: apis.map((a) => a.internalUrl).join(','), internalSecret, proxyPort: ports.sip,
        log: join(dir, 'media.log'), spoolDir: join(dir, 'media-spool'), timeoutMs: 60_000,
      }),
      startKamailio({
        wsPort: ports.ws, udpPort: ports.sip, apiInternalUrl: apis[0].internalUrl, apiInternalUrl2: apis[1].internalUrl, internalSecret,
        dir: join(dir, 'kamailio'), evapiPort: ports.evapi, trunkAllowedNetworks: '127.0.0.1/32', mediaWorkers: [`127.0.0.1:${ports.media}`], rtpengine: rtpengine.sock, timeoutMs: 30_000,
      }),
      serveWeb({ webPort: ports.web, apiUrl, sipWebSockets: [sipWsUrl] }),
    ].map((p) => p.then((v) => { if (v) stops.push(() => (v as { stop(): Promise<void> | void }).stop()); return v; })));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const [, worker, kamailio, web] = started.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [void, { log: string }, { log: string }, { webUrl: string }];
    await launch(1);

    const plane = async (i: number): Promise<Plane> => {
      const res = await fetch(`${apis[i].internalUrl}/calls`, { headers: { 'x-tongdai-internal': internalSecret } }).catch(() => null);
      if (res?.status === 200) {
        const body = (await res.json()) as { events_connected: boolean; active: number };
        return { role: 'holder', eventsConnected: body.events_connected, active: body.active };
      }
      if (res?.status === 503 && ((await res.json().catch(() => ({}))) as { code?: string }).code === 'CALL_PLANE_STANDBY') return { role: 'standby' };
      return { role: 'down', status: res?.status ?? null };
    };
    await until('nginx answers for the API', async () => (await fetch(`${apiUrl}/health`)).status, (s) => s === 200, 10_000);
    // One follows the calls (reading Kamailio's events), the other stands by.
    await until('one instance holds the call plane and reads Kamailio\'s events, the other stands by', () => Promise.all([plane(0), plane(1)]),
      (p) => p.some((x) => x.role === 'holder' && x.eventsConnected) && p.some((x) => x.role === 'standby'), 30_000);

    // log_format pair: '$msec $status $upstream_addr $request_method $uri', $upstream_addr a ", "-separated list.
    const access = (): Access[] => (existsSync(nginx.accessLog) ? readFileSync(nginx.accessLog, 'utf8').split('\n') : []).flatMap((line) => {
      const m = /^(\d+\.\d+) (\d{3}) (.+) (\S+) (\S+)$/.exec(line);
      return m ? [{ at: Number(m[1]) * 1000, status: Number(m[2]), tried: m[3].split(', '), method: m[4], uri: m[5] }] : [];
    });
    const logs = () => [
      ...apis.map((a, i) => ({ name: `api-${i + 1}.log`, path: a.log })),
      { name: 'kamailio.log', path: kamailio.log }, { name: 'media.log', path: worker.log }, { name: 'rtpengine.log', path: rtpengine.log },
      { name: 'nginx-error.log', path: nginx.log }, { name: 'nginx-access.log', path: nginx.accessLog },
      { name: 'redis.log', path: redis.log }, { name: 'postgresql.log', path: pg.log }, { name: 'postgresql-replica.log', path: replica.log },
    ];
    return {
      webUrl: web.webUrl, apiUrl, sipWsUrl, apis, plane, stopApi,
      startApi: launch,
      access,
      nginxServes: async (i, ms = 20_000) => {
        const t0 = Date.now();
        const mine = `127.0.0.1:${apis[i].port}`;
        const served = () => access().some((a) => a.at >= t0 && a.status === 200 && a.tried.at(-1) === mine && a.uri === '/api/health');
        await until(`nginx passes requests to instance ${i + 1} again`, async () => (await fetch(`${apiUrl}/health`), served()), Boolean, ms);
        return Date.now() - t0;
      },
      logTails: (lines = 200) => logs().filter((l) => existsSync(l.path)).map((l) => ({ name: l.name, body: readFileSync(l.path, 'utf8').split('\n').slice(-lines).join('\n') })),
      stop: async () => {
        await Promise.all(apis.map((_, i) => stopApi(i)));
        await stopAll();
        // KEEP_SIP_LOGS=1 keeps the pair's logs (APIs, Kamailio, media worker, nginx) for a look afterwards, as the stacks do.
        if (process.env.KEEP_SIP_LOGS) console.log(`the pair's logs kept in ${dir}`);
        else rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await stopAll();
    if (!process.env.KEEP_SIP_LOGS) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
