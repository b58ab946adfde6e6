// npm run bench: first-load JS at /login, what a remote adds on first navigation, click to remote
// visible (median of 10, cold remote each time), the customer list endpoint at a fixed rate
// on PGlite and on PostgreSQL, and the report reads over generated call records. Prints one table.
// BENCH_ONLY=calls,media (`npm run bench -- calls media`): only those sections; `npm run bench --
// smoke` (in npm test): every section at the tiny sizes scripts/bench.mjs sets.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import autocannon from 'autocannon';
import { startApi, startStack, type Stack } from '../../scripts/lib/stack.mjs';
import { copyRelease, promote, REGISTRY_FILE } from '../../scripts/lib/registry.mjs';
import { startPgCluster } from '../../api/test/pg-cluster.ts';
import { BENCH_CHROMIUM_ARGS, fullChromiumPath } from '../support/chromium.ts';
import { callFigures } from './calls-bench.ts';
import { carrierFigures } from './carrier-bench.ts';
import { wallFigures } from './wall-bench.ts';
import { mediaFigures } from './media-bench.ts';
import { otpFigures } from './otp-bench.ts';
import { dialerFigures } from './dialer-bench.ts';
import { dialerCallFigures } from './dialer-calls-bench.ts';
import { sipFigures } from './sip-bench.ts';
import { DEMO_SIP } from '@tongdai/api/seed-data';
import { planBench } from './plan.ts';
import { reportRows } from '../../api/scripts/reports-bench.ts';
import { figure, printTable, runSection, verdict, type Row, type Section, type SectionResult } from './sections.ts';
import { benchApiEnv, benchStackOptions } from './trust.ts';
import { importFigures } from './import-bench.ts';
import { memoryOf, soakFigures } from './soak-bench.ts';

// BENCH_WEB_PORT / BENCH_API_PORT: another checkout on the same machine benches on other ports.
const WEB = Number(process.env.BENCH_WEB_PORT ?? 3300);
const API = Number(process.env.BENCH_API_PORT ?? 4300);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 10);
const DEMO = { ma_dn: 'demo', username: 'admin', password: 'Admin@123' };

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
/** Issue 38: no section may grow the API's resident memory by more than this. */
const API_GROWTH_MB = 150;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** gzip bytes of the JS the page fetched, optionally only from one origin. */
async function jsBytes(page: Page, origin = ''): Promise<{ bytes: number; files: number }> {
  return page.evaluate((from) => {
    const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.startsWith(from) && /\.js(\?|$)/.test(e.name));
    return { bytes: entries.reduce((s, e) => s + e.encodedBodySize, 0), files: entries.length };
  }, origin);
}

async function login(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/identity/login/tenant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function listLatency(apiUrl: string) {
  const token = await login(apiUrl);
  const url = `${apiUrl}/t/demo/customers?page=2&search=`;
  const headers = { authorization: `Bearer ${token}` };
  // A warm server is measured: the first list of a just-started API (its queries prepared, its
  // modules loaded) took over the smoke's whole second on a loaded machine, so nothing was answered
  // within it (0 answered, 0 errors in a CI run at load 15).
  const warm = await fetch(url, { headers });
  if (!warm.ok) throw new Error(`GET /customers before measuring: ${warm.status} ${await warm.text()}`);
  // The floor first (issue 38): GET /health at the same rate (no authentication, one `select 1`).
  const floor = await autocannon({ url: `${apiUrl}/health`, connections: 10, overallRate: RATE, duration: SECONDS });
  const r = await autocannon({
    url,
    headers,
    connections: 10,
    overallRate: RATE,
    duration: SECONDS,
  });
  return {
    p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.non2xx + r.errors, ok: r['2xx'],
    floor: { p50: floor.latency.p50, p99: floor.latency.p99, ok: floor['2xx'] },
  };
}

const NAV_CUSTOMER = 'nav a[href="/customer"]';

async function uiFigures(browser: Browser, webUrl: string) {
  const page = await browser.newPage();
  await page.goto(`${webUrl}/login`, { waitUntil: 'networkidle' });
  const first = await jsBytes(page);
  // The bench measures the production build: no data-testid there, so it finds things as a user does.
  await page.getByLabel('Mã doanh nghiệp', { exact: true }).fill(DEMO.ma_dn);
  await page.getByLabel('Tên đăng nhập', { exact: true }).fill(DEMO.username);
  await page.getByLabel('Mật khẩu', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await page.locator(NAV_CUSTOMER).waitFor();
  const state = await page.context().storageState();
  await page.close();

  const clicks: number[] = [];
  let remote = { bytes: 0, files: 0 };
  let afterLogin = { bytes: 0, files: 0 };
  for (let i = 0; i < CLICKS; i++) {
    const ctx = await browser.newContext({ storageState: state });
    const p = await ctx.newPage();
    await p.goto(`${webUrl}/dashboard`, { waitUntil: 'networkidle' });
    await p.locator(NAV_CUSTOMER).waitFor();
    // A string, not a function: tsx's name-keeping helper does not exist in the page.
    const ms = await p.evaluate<number>(`new Promise((resolve) => {
      const t0 = performance.now();
      const obs = new MutationObserver(() => {
        if (document.querySelector('main tbody tr')) { obs.disconnect(); resolve(performance.now() - t0); }
      });
      obs.observe(document.body, { childList: true, subtree: true });
      document.querySelector('${NAV_CUSTOMER}').click();
    })`);
    clicks.push(ms);
    await p.waitForLoadState('networkidle');
    if (i === 0) {
      remote = await jsBytes(p, `http://127.0.0.1:${WEB + 1}/`);
      afterLogin = await jsBytes(p);
    }
    await ctx.close();
  }
  return { first, remote, afterLogin, clickMedian: median(clicks), clicks, state };
}

/**
 * The same page loads with mf-crm coming from a release (issue 36, ADR 0053): the checkout's mf-crm
 * build published into the stack's releases folder and promoted, as `npm run release` and `npm run
 * promote` would (the bytes of a release are its build's), read through /registry.json. Measured:
 * /login's first load and a session through the first remote screen; then the registry is removed, so
 * the other sections meet the built-in remotes.
 */
async function releasedFigures(browser: Browser, webUrl: string, releasesDir: string, state: BrowserContextOptions['storageState']) {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const built = join(ROOT, 'mf-crm', 'dist');
  const { version } = JSON.parse(readFileSync(join(built, 'release.json'), 'utf8')) as { version: string };
  const host = JSON.parse(readFileSync(join(ROOT, 'host', 'dist', 'release.json'), 'utf8')) as { platformContract: string; shared: Record<string, string> };
  copyRelease({ from: built, out: releasesDir, package: 'mf-crm', version });
  promote(releasesDir, { package: 'mf-crm', version, hostContract: host.platformContract, hostShared: host.shared });
  try {
    const loginPage = await browser.newPage();
    await loginPage.goto(`${webUrl}/login`, { waitUntil: 'networkidle' });
    const first = await jsBytes(loginPage);
    await loginPage.close();
    const ctx = await browser.newContext({ storageState: state });
    const p = await ctx.newPage();
    await p.goto(`${webUrl}/dashboard`, { waitUntil: 'networkidle' });
    await p.locator(NAV_CUSTOMER).click();
    await p.locator('main tbody tr').first().waitFor();
    await p.waitForLoadState('networkidle');
    const remote = await jsBytes(p, `${webUrl}/releases/mf-crm/${version}/`);
    const session = await jsBytes(p);
    await ctx.close();
    return { version, first, remote, session };
  } finally {
    rmSync(join(releasesDir, REGISTRY_FILE), { force: true });
  }
}

/** What the sections share: the stack (PGlite, Kamailio, media worker, the built frontends) and Chromium, started on first use. */
interface Ctx {
  stack(): Promise<Stack>;
  /** The stack's releases folder (served at /releases/, its registry at /registry.json). */
  releasesDir: string;
  browser(): Promise<Browser>;
  token(): Promise<string>;
}

const listRow = (engine: string, r: Awaited<ReturnType<typeof listLatency>>): Row[] => [
  figure(`GET /customers on ${engine} at ${RATE} req/s (p50 / p99)`, `${r.p50} / ${r.p99} ms (${r.ok} answered, ${r.errors} errors)`, '—', !r.ok, 'no request was answered 2xx'),
  figure(
    `GET /customers on ${engine} against GET /health at the same rate (p99)`,
    `${r.p99} ms against ${r.floor.p99} ms (p50 ${r.floor.p50} ms): ${r.floor.p99 ? (r.p99 / r.floor.p99).toFixed(1) : '—'}×`,
    '≤ 3× the floor', !r.floor.ok || !r.ok, 'GET /health or the list answered nothing 2xx',
  ),
];

const callOptions = async (c: Ctx) => {
  const stack = await c.stack();
  return { apiUrl: stack.apiUrl, apiPort: API, apiPid: stack.api.pid!, token: await c.token(), sip: stack.sip };
};

/**
 * In the order they run; `stack`: needs the bench's stack (started before the first, stopped after the last).
 * `optIn`: a section the whole bench runs only when this variable is set (its size; the smoke sets it),
 * else only by name.
 */
const SECTIONS: (Section<Ctx> & { stack?: boolean; optIn?: string })[] = [
  // In-process, before the stack and the browser load the CPU.
  { name: 'plan', run: () => planBench() },
  // The dialer's pacing simulated (issue 34): in-process too (minutes of a held event loop: before the stack,
  // whose keep-alive connections would not outlive it). Its real calls are the section 'dialer-calls'.
  { name: 'dialer', run: async () => dialerFigures() },
  {
    name: 'ui',
    stack: true,
    async run(c) {
      const { webUrl } = await c.stack();
      const ui = await uiFigures(await c.browser(), webUrl);
      const rel = await releasedFigures(await c.browser(), webUrl, c.releasesDir, ui.state);
      return [
        figure('First-load JS at /login (gzip, all files)', `${kb(ui.first.bytes)} in ${ui.first.files} files`, '≤ 120 KB', !ui.first.files, 'no JS loaded at /login'),
        figure('JS a remote adds (mf-crm: entry, manifest, app, screens; gzip)', `${kb(ui.remote.bytes)} in ${ui.remote.files} files`, '—', !ui.remote.files, 'no JS of the remote loaded'),
        ['JS of a session through the first remote screen (gzip)', `${kb(ui.afterLogin.bytes)} in ${ui.afterLogin.files} files`, '—'],
        figure(`First-load JS at /login, mf-crm ${rel.version} from a release (gzip)`, `${kb(rel.first.bytes)} in ${rel.first.files} files`, `≤ 120 KB; built-in ${kb(ui.first.bytes)}`, !rel.first.files, 'no JS loaded at /login'),
        figure('JS the released mf-crm adds (/releases/…; gzip)', `${kb(rel.remote.bytes)} in ${rel.remote.files} files`, `≤ built-in's ${kb(ui.remote.bytes)}`, !rel.remote.files, 'no JS of the release loaded: the registry was not followed'),
        figure('JS of a session through the first remote screen, mf-crm released (gzip)', `${kb(rel.session.bytes)} in ${rel.session.files} files`, `≤ built-in's ${kb(ui.afterLogin.bytes)}`, !rel.session.files, 'no JS loaded'),
        figure(`Click → remote screen with data (median of ${CLICKS}, fresh page)`, `${ui.clickMedian?.toFixed(0)} ms (min ${Math.min(...ui.clicks).toFixed(0)}, max ${Math.max(...ui.clicks).toFixed(0)})`, '—', !ui.clicks.length, 'no click timed'),
      ];
    },
  },
  { name: 'list', stack: true, run: async (c) => listRow('PGlite', await listLatency((await c.stack()).apiUrl)) },
  // The dialer placing real calls (issue 34, parts 2 and 3): `npm run bench -- dialer` runs it after the simulation.
  {
    name: 'dialer-calls',
    stack: true,
    async run(c) {
      const stack = await c.stack();
      return dialerCallFigures({ apiUrl: stack.apiUrl, token: await c.token(), apiPid: stack.api.pid!, sip: stack.sip });
    },
  },
  { name: 'calls', stack: true, run: async (c) => callFigures(await callOptions(c)) },
  {
    name: 'wall',
    stack: true,
    run: async (c) => wallFigures(await callOptions(c), { browser: await c.browser(), webUrl: (await c.stack()).webUrl }),
  },
  {
    name: 'carrier',
    stack: true,
    async run(c) {
      const stack = await c.stack();
      return carrierFigures({ apiPort: API, apiPid: stack.api.pid!, sip: stack.sip, extensionPassword: DEMO_SIP.demo.admin.password });
    },
  },
  { name: 'sip', stack: true, run: async (c) => sipFigures({ sip: (await c.stack()).sip, passwords: { '101': DEMO_SIP.demo.admin.password, '102': DEMO_SIP.demo.staff.password } }) },
  {
    name: 'media',
    stack: true,
    async run(c) {
      const stack = await c.stack();
      return mediaFigures({ apiUrl: stack.apiUrl, token: await c.token(), sip: stack.sip });
    },
  },
  {
    name: 'otp',
    stack: true,
    async run(c) {
      const stack = await c.stack();
      return otpFigures({ apiUrl: stack.apiUrl, token: await c.token(), sip: stack.sip });
    },
  },
  {
    name: 'import',
    stack: true,
    async run(c) {
      const stack = await c.stack();
      return importFigures({ apiUrl: stack.apiUrl, token: await c.token(), apiPid: stack.api.pid! });
    },
  },
  {
    // Issue 42: 30 minutes of mixed load (calls, API, reports, a campaign), every process's memory and loop delay at
    // its start and end. Last on the stack: the sections before swap its Kamailio and put it back. Not part of
    // every whole bench (30 minutes): `npm run bench -- soak`, or BENCH_SOAK_S set (the smoke: seconds).
    name: 'soak',
    stack: true,
    optIn: 'BENCH_SOAK_S',
    async run(c) {
      const stack = await c.stack();
      return soakFigures({ apiUrl: stack.apiUrl, apiPort: API, apiPid: () => stack.api.pid!, token: c.token, sip: stack.sip });
    },
  },
  {
    name: 'postgres',
    async run() {
      const cluster = await startPgCluster();
      const api = startApi({ port: API + 1, databaseUrl: cluster.url, quiet: true, env: benchApiEnv(API) });
      try {
        const apiUrl = `http://127.0.0.1:${API + 1}`;
        // Generous, as startStack: on a loaded machine migrations + seeding took over 60 s.
        for (let until = Date.now() + 180_000; ; await new Promise((r) => setTimeout(r, 150))) {
          try { if ((await fetch(`${apiUrl}/health`)).ok) break; } catch { /* starting */ }
          if (api.exitCode !== null || Date.now() > until) throw new Error(`the API on PostgreSQL did not answer /health (${api.exitCode === null ? 'in 180 s' : `exit ${api.exitCode}`})`);
        }
        return listRow('PostgreSQL', await listLatency(apiUrl));
      } finally {
        api.kill('SIGTERM');
        await new Promise((r) => api.once('exit', r));
        await cluster.stop();
      }
    },
  },
  {
    // Reports (issue 13, ADR 0029): generated records on a fresh cluster, or BENCH_CDR_URL (reused when it holds
    // this many), then the pages on PGlite. The issue's sizes by default: 10 M on PostgreSQL (the generator
    // writes them in about 8 minutes here since it builds the indexes after its COPY), 1 M on PGlite.
    name: 'reports',
    async run() {
      const cdrRows = Number(process.env.BENCH_CDR_ROWS ?? 10_000_000);
      return reportRows(cdrRows, process.env.BENCH_CDR_URL, Number(process.env.BENCH_CDR_PGLITE_ROWS ?? Math.min(cdrRows, 1_000_000)));
    },
  },
];

async function main() {
  // 'dialer' names the dialer's whole bench: the simulation and its real calls.
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean).flatMap((n) => (n === 'dialer' ? ['dialer', 'dialer-calls'] : [n]));
  const unknown = only.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown bench section ${unknown.join(', ')}; the sections: ${SECTIONS.map((s) => s.name).join(', ')}`);
  const chosen = SECTIONS.filter((s) => (only.length ? only.includes(s.name) : !s.optIn || process.env[s.optIn] !== undefined));
  const lastWithStack = chosen.map((s) => !!s.stack).lastIndexOf(true);
  let stack: Stack | null = null;
  let browser: Browser | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-bench-'));
  const releasesDir = join(dataDir, 'releases');
  mkdirSync(releasesDir);
  const ctx: Ctx = {
    releasesDir,
    stack: async () => {
      if (stack) return stack;
      const t0 = Date.now();
      stack = await startStack({ ...benchStackOptions({ webPort: WEB, apiPort: API, dataDir }), releasesDir });
      console.log(`bench: stack started in ${((Date.now() - t0) / 1000).toFixed(0)} s${stack.sip ? '' : ` without SIP (${stack.sipError ?? 'Kamailio is not installed'})`}`);
      return stack;
    },
    browser: async () => (browser ??= await chromium.launch({ executablePath: fullChromiumPath(), args: BENCH_CHROMIUM_ARGS })),
    // A fresh login each time: access tokens live 15 minutes, the whole bench longer.
    token: async () => login((await ctx.stack()).apiUrl),
  };
  const results: SectionResult[] = [];
  /** The API's RSS (MB) when the last section that used the stack began: idle at the first. */
  let apiMb: number | null = null;
  const apiRssMb = (st: Stack) => memoryOf([st.api.pid!]).rss / 1024 / 1024;
  try {
    for (const [i, s] of chosen.entries()) {
      // Started before the section's clock and load average: a section measures itself, not the start.
      if (s.stack) {
        const now = apiRssMb(await ctx.stack());
        if (apiMb === null) console.log(`bench: the API's RSS at idle ${now.toFixed(1)} MB`);
        apiMb = now;
      }
      const result = await runSection(s, ctx);
      // What the section left in the API's memory (issue 38), printed beside its figures; the API's own
      // figure, as /proc says it (a restarted API would start from nothing: then it is not judged).
      const st = stack as Stack | null;
      if (s.stack && st && apiMb !== null) {
        const after = apiRssMb(st);
        const grew = after - apiMb;
        result.rows.push([`The API's RSS before → after ${s.name}`, `${apiMb.toFixed(1)} → ${after.toFixed(1)} MB (${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MB)`, `≤ +${API_GROWTH_MB} MB`]);
      }
      results.push(result);
      if (i === lastWithStack) {
        await (browser as Browser | null)?.close();
        await (stack as Stack | null)?.stop();
        browser = stack = null;
      }
    }
  } finally {
    await (browser as Browser | null)?.close();
    await (stack as Stack | null)?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(results);
  if (!verdict(results)) process.exit(1);
}

main().catch((e) => { console.error(e); process.exit(1); });
