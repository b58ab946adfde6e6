// npm run bench: first-load JS at /login, what a remote adds on first navigation, click to remote
// visible (median of 10, cold remote each time), the customer list endpoint at a fixed rate
// on PGlite and on PostgreSQL, and the report reads over generated call records. Prints one table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import autocannon from 'autocannon';
import { startApi, startStack } from '../../scripts/lib/stack.mjs';
import { startPgCluster } from '../../api/test/pg-cluster.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.ts';
import { callFigures } from './calls-bench.ts';
import { carrierBenchEnv, carrierFigures } from './carrier-bench.ts';
import { wallFigures } from './wall-bench.ts';
import { mediaFigures } from './media-bench.ts';
import { sipFigures } from './sip-bench.ts';
import { DEMO_SIP } from '@tongdai/api/seed-data';
import { planBench } from './plan.ts';
import { reportRows } from '../../api/scripts/reports-bench.ts';

// BENCH_WEB_PORT / BENCH_API_PORT: another checkout on the same machine benches on other ports.
const WEB = Number(process.env.BENCH_WEB_PORT ?? 3300);
const API = Number(process.env.BENCH_API_PORT ?? 4300);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The bench's carriers (sipp) listen on loopback: the operator's allow-list opens it (ADR 0043). */
const BENCH_TRUNK_NETWORKS = '127.0.0.1/32';
const DEMO = { ma_dn: 'demo', username: 'admin', password: 'Admin@123' };

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
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
  const r = await autocannon({
    url: `${apiUrl}/t/demo/customers?page=2&search=`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
    overallRate: RATE,
    duration: SECONDS,
  });
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.non2xx + r.errors };
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
  for (let i = 0; i < 10; i++) {
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
  return { first, remote, afterLogin, clickMedian: median(clicks), clicks };
}

const printTable = (rows: [string, string, string][]) => {
  const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length)), 8];
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(w[i])).join(' | ')} |`;
  console.log(['', line(['Measure', 'Result', 'Goal']), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n'));
};

/** `npm run bench -- wall` (BENCH_ONLY=wall): only the live wall's figure, on its own stack. */
async function wallOnly() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-bench-'));
  // The demo carrier's link raises the tenant's channel limit (2000) so 200 live calls fit.
  const stack = await startStack({ webPort: WEB, apiPort: API, dataDir, quiet: true, trunkAllowedNetworks: BENCH_TRUNK_NETWORKS, apiEnv: { LOGIN_IP_LIMIT: '1000', ...carrierBenchEnv(API) } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    printTable(await wallFigures({ apiUrl: stack.apiUrl, apiPort: API, apiPid: stack.api.pid!, token: await login(stack.apiUrl), sip: stack.sip }, { browser, webUrl: stack.webUrl }));
  } finally {
    await browser.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench -- carrier` (BENCH_ONLY=carrier): only the calls out through a switchboard with digest at the carrier, on its own stack. */
async function carrierOnly() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-bench-'));
  const stack = await startStack({ webPort: WEB, apiPort: API, dataDir, quiet: true, trunkAllowedNetworks: BENCH_TRUNK_NETWORKS, apiEnv: { LOGIN_IP_LIMIT: '1000', ...carrierBenchEnv(API) } });
  try {
    printTable(await carrierFigures({ apiPort: API, apiPid: stack.api.pid!, sip: stack.sip, extensionPassword: DEMO_SIP.demo.admin.password }));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.BENCH_ONLY === 'wall') return wallOnly();
  if (process.env.BENCH_ONLY === 'carrier') return carrierOnly();
  const rows: [string, string, string][] = [];
  rows.push(...(await planBench())); // in-process, before the stack and the browser load the CPU
  const dataDir = mkdtempSync(join(tmpdir(), 'tongdai-bench-'));
  // The demo tenant's switchboard points at the carrier bench's sipp carrier (carrier-bench.ts).
  const stack = await startStack({ webPort: WEB, apiPort: API, dataDir, quiet: true, trunkAllowedNetworks: BENCH_TRUNK_NETWORKS, apiEnv: { LOGIN_IP_LIMIT: '1000', ...carrierBenchEnv(API) } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const ui = await uiFigures(browser, stack.webUrl);
    rows.push(['First-load JS at /login (gzip, all files)', `${kb(ui.first.bytes)} in ${ui.first.files} files`, '≤ 200 KB']);
    rows.push(['JS a remote adds (mf-crm: entry, manifest, app, screens; gzip)', `${kb(ui.remote.bytes)} in ${ui.remote.files} files`, '—']);
    rows.push(['JS of a session through the first remote screen (gzip)', `${kb(ui.afterLogin.bytes)} in ${ui.afterLogin.files} files`, '—']);
    rows.push(['Click → remote screen with data (median of 10, fresh page)', `${ui.clickMedian.toFixed(0)} ms (min ${Math.min(...ui.clicks).toFixed(0)}, max ${Math.max(...ui.clicks).toFixed(0)})`, '—']);
    const pglite = await listLatency(stack.apiUrl);
    rows.push([`GET /customers on PGlite at ${RATE} req/s (p50 / p99)`, `${pglite.p50} / ${pglite.p99} ms (${pglite.errors} errors)`, '—']);
    const calls = { apiUrl: stack.apiUrl, apiPort: API, apiPid: stack.api.pid!, token: await login(stack.apiUrl), sip: stack.sip };
    rows.push(...(await callFigures(calls)));
    rows.push(...(await wallFigures(calls, { browser, webUrl: stack.webUrl })));
    rows.push(...(await carrierFigures({ apiPort: API, apiPid: stack.api.pid!, sip: stack.sip, extensionPassword: DEMO_SIP.demo.admin.password })));
    rows.push(...(await sipFigures({ sip: stack.sip, passwords: { '101': DEMO_SIP.demo.admin.password, '102': DEMO_SIP.demo.staff.password } })));
    rows.push(...(await mediaFigures({ apiUrl: stack.apiUrl, token: await login(stack.apiUrl), sip: stack.sip })));
  } finally {
    await browser.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const cluster = await startPgCluster();
  const api = startApi({ port: API + 1, databaseUrl: cluster.url, quiet: true, env: { LOGIN_IP_LIMIT: '1000' } });
  try {
    const apiUrl = `http://127.0.0.1:${API + 1}`;
    for (let i = 0; i < 200; i++) {
      try { if ((await fetch(`${apiUrl}/health`)).ok) break; } catch { /* starting */ }
      await new Promise((r) => setTimeout(r, 150));
    }
    const pg = await listLatency(apiUrl);
    rows.push([`GET /customers on PostgreSQL at ${RATE} req/s (p50 / p99)`, `${pg.p50} / ${pg.p99} ms (${pg.errors} errors)`, '—']);
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await cluster.stop();
  }

  // Reports (issue 13, ADR 0029): generated records on a fresh cluster, or BENCH_CDR_URL (reused when it holds
  // this many), then the pages on PGlite. The sizes by default: 10 M on PostgreSQL (the generator
  // writes them in about 8 minutes here since it builds the indexes after its COPY), 1 M on PGlite.
  const cdrRows = Number(process.env.BENCH_CDR_ROWS ?? 10_000_000);
  rows.push(...(await reportRows(cdrRows, process.env.BENCH_CDR_URL, Number(process.env.BENCH_CDR_PGLITE_ROWS ?? Math.min(cdrRows, 1_000_000)))));

  printTable(rows);
}

main().catch((e) => { console.error(e); process.exit(1); });
