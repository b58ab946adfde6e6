// `npm run bench`, live monitoring part (issue 14): walls (the /monitor screen's WebSocket, as the
// tenant's administrator) stay open while the call bench runs; each measures event → socket
// (the event's server time to its arrival, one machine's clock) and the wall's snapshot is polled
// for the number of live calls. Node 20 needs --experimental-websocket (scripts/bench.mjs adds it).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { carrierScenario, runSipp, sippInstalled } from '@tongdai/testkit/sipp';
import { benchPbx, sippWhy, NOT_INSTALLED, pct, type BenchOptions } from './calls-bench.ts';
import { figure, type Row } from './sections.ts';
import { openWalls } from './walls.ts';

/** The seed's tenant administrator (the walls' viewer). */
const DEMO_ADMIN = { ma_dn: 'demo', username: 'admin', password: 'Admin@123' };

// In the page (a string: tsx's name-keeping helper does not exist there). Every call event the
// page's own socket brings is timed from its server time to the moment the wall's DOM shows it: a
// "ringing" call's row appears, an "ended" call's row goes (rows are <tr data-call-id>, kept in the
// production build, which has no data-testid).
const SCREEN_PROBE = `(() => {
  const w = window;
  const lat = [];
  const pending = new Map();
  const check = () => {
    for (const [k, p] of pending) {
      const row = document.querySelector('tr[data-call-id="' + CSS.escape(p.id) + '"]');
      if (p.type === 'ended' ? !row : !!row) { lat.push(Date.now() - p.at); pending.delete(k); }
    }
  };
  w.__tongdai_platform__.pbxEvents.subject.subscribe((e) => {
    if (e.type !== 'ringing' && e.type !== 'ended') return;
    // A call rings once on the wall: later "ringing" of the same call (a hunt's next step) is not a new row.
    const k = e.callId + '|' + e.type;
    if (e.type === 'ringing' && w.__wallSeen.has(e.callId)) return;
    w.__wallSeen.add(e.callId);
    pending.set(k, { id: e.callId, type: e.type, at: e.at });
    check();
  });
  w.__wallSeen = new Set();
  new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
  // The page's main thread: time in tasks over 50 ms (what keeps a row from showing).
  let busy = 0;
  let since = performance.now();
  new PerformanceObserver((l) => { for (const e of l.getEntries()) busy += e.duration; }).observe({ type: 'longtask' });
  w.__wallTake = () => {
    const out = { lat: lat.splice(0), busy, ms: performance.now() - since };
    busy = 0;
    since = performance.now();
    return out;
  };
})()`;

/**
 * Walls that are real /monitor screens in Chromium (the production build), logged in as the
 * tenant's administrator; `take()` gives the event → screen latencies (ms) seen since the last call.
 */
export async function openScreenWalls(browser: Browser, webUrl: string, count: number, login: { ma_dn: string; username: string; password: string }) {
  const contexts: BrowserContext[] = [];
  const first = await browser.newPage();
  await first.goto(`${webUrl}/login`);
  await first.getByLabel('Mã doanh nghiệp', { exact: true }).fill(login.ma_dn);
  await first.getByLabel('Tên đăng nhập', { exact: true }).fill(login.username);
  await first.getByLabel('Mật khẩu', { exact: true }).fill(login.password);
  await first.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await first.locator('nav a[href="/customer"]').waitFor();
  const state = await first.context().storageState();
  contexts.push(first.context());
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const ctx = i === 0 ? first.context() : await browser.newContext({ storageState: state });
    if (i > 0) contexts.push(ctx);
    const page = i === 0 ? first : await ctx.newPage();
    await page.goto(`${webUrl}/monitor`);
    await page.locator('main h1').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction('window.__tongdai_platform__?.pbxEvents?.subject', null, { timeout: 60_000 });
    await page.evaluate(SCREEN_PROBE);
    pages.push(page);
  }
  // BENCH_SCREEN_PROFILE=<file>: the first screen's CPU profile (DevTools format) over the run.
  const profileTo = process.env.BENCH_SCREEN_PROFILE;
  const cdp = profileTo ? await pages[0].context().newCDPSession(pages[0]) : null;
  if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.start'); }
  return {
    /** Latencies (ms) since the last call, and the share of each page's time spent in long tasks. */
    async take(): Promise<{ latencies: number[]; busy: number[] }> {
      if (cdp && profileTo && (await pages[0].evaluate('window.__wallProfiled ? 1 : (window.__wallProfiled = 0)')) === 0) {
        await pages[0].evaluate('window.__wallProfiled = 1');
      } else if (cdp && profileTo) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(profileTo, JSON.stringify(profile));
      }
      const all = await Promise.all(pages.map((p) => p.evaluate<{ lat: number[]; busy: number; ms: number }>('window.__wallTake()')));
      return { latencies: all.flatMap((a) => a.lat), busy: all.map((a) => a.busy / a.ms) };
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close()));
    },
  };
}

/**
 * Issue 14's figure: event → wall latency (p50/p99) with LIVE calls in progress and WALLS walls
 * open, and the API's CPU for that load. sipp carriers keep about LIVE calls talking (calls held
 * HOLD_S seconds, each answered by one of LIVE + 20 registered extensions in hunt groups, one per
 * carrier's DID); the walls hear every ringing/answered/ended and poll the snapshot (how many live calls it
 * shows). Measured over the whole run; the machine's load average is printed with it (other
 * processes share the cores).
 */
export async function wallFigures(o: BenchOptions, screen?: { browser: Browser; webUrl: string }): Promise<Row[]> {
  const LIVE = Number(process.env.BENCH_LIVE_CALLS ?? 200);
  const WALLS = Number(process.env.BENCH_WALLS ?? 50);
  // Of the walls, this many are real /monitor screens in Chromium (the rest their socket alone): 50
  // screens did not all load within minutes on this 2-core machine, beside 200 calls.
  const SCREENS = screen ? Math.min(WALLS, Number(process.env.BENCH_SCREEN_WALLS ?? 2)) : 0;
  const HOLD_S = Number(process.env.BENCH_WALL_HOLD_S ?? 20);
  const CARRIERS = Math.ceil((LIVE + 20) / 80); // one DID per hunt group of ≤ 80 extensions (a group holds 100)
  const dids = Array.from({ length: CARRIERS }, (_, i) => `0287301${String(5000 + i)}`);
  const perCarrier = Math.ceil(LIVE / CARRIERS);
  const rate = perCarrier / HOLD_S;
  const total = perCarrier * 2; // per carrier: ramp up (HOLD_S), then HOLD_S more at LIVE calls, then they end
  const title = `Event → wall socket with ${LIVE} live calls, ${WALLS} walls open (${SCREENS} of them screens; p50 / p99); api CPU`;
  const screenTitle = `Event → wall screen (${SCREENS} × /monitor in Chromium, a call's row shown / gone; p50 / p99)`;
  if (!sippInstalled() || !o.sip) return [[title, 'skipped', '< 1000 ms', NOT_INSTALLED]];
  const pbx = await benchPbx({ ...o, sip: o.sip }, { agents: LIVE + 20, firstExtension: 7501, dids, name: 'Bench wall', carriers: dids.length });
  const walls = await openWalls(o.apiUrl, o.token, WALLS - SCREENS);
  const screens = SCREENS ? await openScreenWalls(screen!.browser, screen!.webUrl, SCREENS, DEMO_ADMIN) : null;
  try {
    if (!walls) return [[title, 'skipped', '< 1000 ms', 'no WebSocket in this Node (scripts/bench.mjs adds --experimental-websocket)']];
    walls.take();
    await screens?.take();
    const cpu0 = pbx.cpu();
    const t0 = Date.now();
    const load0 = loadavg()[0];
    const runs = await Promise.all(dids.map((did, i) =>
      runSipp({
        dir: pbx.dir,
        name: `wall-carrier-${i}`,
        xml: carrierScenario(200, HOLD_S * 1000),
        args: [`127.0.0.1:${pbx.udpPort}`, '-i', '127.0.0.1', '-p', String(pbx.carrierPorts[i]), '-s', did, '-r', String(rate), '-m', String(total), '-l', String(perCarrier + 5), '-recv_timeout', '10000', '-fd', '1'],
        keys: { caller: `090900000${i}`, at: '' },
        timeoutS: total / rate + HOLD_S + 60,
      }).done,
    ));
    const seconds = (Date.now() - t0) / 1000;
    const cpu = pbx.cpu();
    const heard = walls.take();
    const shown = (await screens?.take()) ?? { latencies: [], busy: [] };
    const load = loadavg();
    const failed = runs.filter((r) => r.code).map((r) => r.code);
    const why = runs.find((r) => r.code);
    return [figure(
      title,
      `${pct(heard.latencies, 50)} / ${pct(heard.latencies, 99)} ms over ${heard.latencies.length} events (${total * CARRIERS} calls from ${CARRIERS} carriers, ${(rate * CARRIERS).toFixed(0)}/s held ${HOLD_S} s${failed.length ? `, sipp exit ${failed.join(',')}` : ''}); up to ${heard.maxLiveCalls} live calls on the wall; CPU api ${(((cpu[1] - cpu0[1]) / seconds) * 100).toFixed(0)} %, kamailio ${(((cpu[0] - cpu0[0]) / seconds) * 100).toFixed(0)} % over ${seconds.toFixed(0)} s; load average ${load0.toFixed(1)} → ${load.map((l) => l.toFixed(1)).join(' ')} (${cpus().length} cores)`,
      '< 1000 ms',
      !heard.latencies.length || !heard.maxLiveCalls,
      `${heard.latencies.length ? 'the wall\'s snapshot never showed a live call' : 'no call event reached the walls'}${why ? ` (sipp exit ${why.code}: ${sippWhy(why.output)})` : ''}`,
    ), ...(screens ? [figure(
      screenTitle,
      `${pct(shown.latencies, 50)} / ${pct(shown.latencies, 99)} ms over ${shown.latencies.length} rows shown or gone; main thread in long tasks ${shown.busy.map((b) => `${(b * 100).toFixed(0)} %`).join(', ')}`,
      '< 1000 ms',
      !shown.latencies.length, 'no call row was shown or removed on the /monitor screens',
    )] : [])];
  } finally {
    await screens?.close();
    walls?.close();
    await pbx.close();
  }
}
